"""Correcting an earlier fact from the table screen, and the command palette's actions."""

from __future__ import annotations

from conftest import run_async, screen_text

from companion.referee.session import GameSession
from companion.rules.events import GameConfig, Played, Revealed
from companion.store import Store
from companion.ui.app import CompanionApp
from companion.ui.corrections import alternatives
from companion.ui.screens.correct import CorrectScreen

SIZE = (120, 40)
PLAYERS = ("Alia", "Ben", "Carmen", "Dori")


def test_alternatives_are_the_legal_facts_at_that_place():
    config = GameConfig(PLAYERS)
    events = [*(Played(p) for p in PLAYERS), Revealed("Alia", 1)]
    assert alternatives(config, events, 4)[:3] == (
        Revealed("Ben", 1),
        Revealed("Carmen", 1),
        Revealed("Dori", 1),
    )


@run_async
async def test_correct_replaces_an_earlier_reveal(store: Store, session: GameSession):
    app = CompanionApp(store, session=session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a", "1")  # Alia marked at call 1 ...
        await pilot.press("enter")  # ... confirmed: Revealed(Alia, 1), CallClosed
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, CorrectScreen)
        await pilot.press("down", "enter")  # latest first: fact 5, Alia reveals 1
        await pilot.press("enter")  # first alternative: Ben reveals 1
        await pilot.pause()
        assert session.events[4] == Revealed("Ben", 1)
        assert session.state.phase == "hunt"
        assert "Corrected." in screen_text(app)


@run_async
async def test_a_correction_that_breaks_later_facts_is_refused(store: Store, session: GameSession):
    app = CompanionApp(store, session=session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a", "1", "enter", "n")  # Alia alone at 1, declines
        before = session.events
        await pilot.press("c", "down", "down", "enter", "enter")  # fact 5 -> Ben reveals 1
        await pilot.pause()
        assert session.events == before
        assert "that correction cannot be kept" in screen_text(app)


@run_async
async def test_the_command_palette_lists_the_table_actions(store: Store, session: GameSession):
    app = CompanionApp(store, session=session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        titles = [command.title for command in app.get_system_commands(app.screen)]
        for title in ("Undo", "Correct a fact", "All played", "Keys", "Mute / unmute"):
            assert title in titles
        commands = app.get_system_commands(app.screen)
        next(c for c in commands if c.title == "All played").callback()
        await pilot.pause()
        assert len(session.events) == 4
