"""The table screen driven by keys through Pilot: a whole round, undo, refusals, resume."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import PLAYERS, run_async, screen_text
from textual.app import App
from textual.binding import Binding

from companion.referee.session import GameSession
from companion.rules.events import CallClosed, GameConfig, Hunted, Played, Revealed
from companion.store import Store
from companion.ui.app import CompanionApp
from companion.ui.keys import TABLE_BINDINGS
from companion.ui.screens.help import HelpScreen
from companion.ui.screens.table import TableScreen

SIZE = (120, 40)

# RULES.md worked example 1, as keys: Alia 1, Ben 4, Carmen 4, Dori 2; Alia hunts 4
# (Ben and Carmen eaten); Dori hunts 5 (nobody); hunt 2: Alia 2, Dori 1; Dori hunts 2.
EXAMPLE_1_KEYS = (
    "a",  # everyone plays
    *("1", "enter"),  # call 1: Alia alone
    *("4", "2", "3", "enter"),  # Alia names 4: Ben and Carmen turn it up
    *("4", "enter"),  # call 2: Dori alone
    *("5", "enter"),  # Dori names 5: nobody had it
    *("1", "4"),  # hunt 2: Alia and Dori play
    *("4", "enter"),  # call 1: Dori alone
    *("2", "1", "enter"),  # Dori names 2: Alia eaten
)


@run_async
async def test_a_whole_round_entered_by_keys(store: Store, session: GameSession):
    app = CompanionApp(store, session=session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*EXAMPLE_1_KEYS)
        await pilot.pause()
        state = session.state
        assert state.round == 2 and state.phase == "play"
        result = state.rounds[0]
        assert dict(result.food) == {"Alia": 0, "Ben": 0, "Carmen": 0, "Dori": 2}
        assert result.reasons["Dori"] == "alone"
        text = screen_text(app)
        assert "Round 1 scored (2 hunts)" in text
        assert "survived alone" in text
        assert "Dori survives alone" in text  # the event log
        assert "Round 2 · Hunt 1/3 · Carmen calls" in text  # the call passes every hunt


@run_async
async def test_undo_takes_back_the_last_fact(store: Store, session: GameSession):
    app = CompanionApp(store, session=session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1", "2", "u")
        await pilot.pause()
        assert session.events == (Played("Alia"),)
        assert "Undone." in screen_text(app)
        assert store.entries(session.game_id)[-1].__class__.__name__ == "Undone"


@pytest.mark.parametrize(
    ("key", "message"),
    [("u", "nothing to undo"), ("x", "x is for camera play")],
    ids=("undo with nothing recorded", "the camera key in manual play"),
)
@run_async
async def test_a_key_with_nothing_to_act_on_says_why(
    store: Store, session: GameSession, key: str, message: str
):
    app = CompanionApp(store, session=session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(key)
        await pilot.pause()
        assert message in screen_text(app)
        assert session.events == ()


@run_async
async def test_an_illegal_key_shows_the_engine_message_and_changes_nothing(
    store: Store, session: GameSession
):
    app = CompanionApp(store, session=session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a", "2", "enter")  # Ben alone at call 1: he hunts
        await pilot.press("1")  # a prey of rank 1 is not above the hunter's card
        await pilot.pause()
        before = session.events
        assert "✗ Ben's card is 1: the prey must be higher (2 to 5), got 1" in screen_text(app)
        await pilot.press("enter")  # nothing pending: refused again, nothing recorded
        assert session.events == before
        assert len(store.entries(session.game_id)) == len(before)


@run_async
async def test_pending_marks_are_not_recorded_until_enter(store: Store, session: GameSession):
    app = CompanionApp(store, session=session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a", "1", "3")
        await pilot.pause()
        assert len(session.events) == 4
        assert "Marked: Alia, Carmen" in screen_text(app)
        await pilot.press("escape", "n")
        assert session.state.call_rank == 2


@run_async
async def test_resume_after_a_restart_continues_where_it_stopped(db_path: Path):
    with Store(db_path) as store:
        first = GameSession.new(store, GameConfig(PLAYERS, "original", "Alia"))
        async with CompanionApp(store, session=first).run_test(size=SIZE) as pilot:
            await pilot.press("a", "1", "enter", "4")
        facts = first.events
    with Store(db_path) as store:
        resumed = GameSession.resume(store)
        app = CompanionApp(store, session=resumed)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert resumed.events == facts
            text = screen_text(app)
            assert "resumed" in text
            assert "Only Alia. The bear hunts" in text  # the log is told again
            await pilot.press("4", "2", "3", "enter")  # the hunt goes on from there
            assert resumed.state.seat("Ben").eaten


@run_async
async def test_help_overlay_lists_every_key(store: Store, session: GameSession):
    app = CompanionApp(store, session=session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        for key in ("undo the last fact", "correct an earlier fact", "mute", "repeat"):
            assert key in text
        await pilot.press("escape")
        assert isinstance(app.screen, TableScreen)


@run_async
async def test_voice_keys_without_a_narrator_give_a_notice(store: Store, session: GameSession):
    app = CompanionApp(store, session=session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("m")
        await pilot.pause()
        assert any("No voice is attached" in str(n.message) for n in app._notifications)


@run_async
async def test_the_end_of_the_game_shows_the_winner(store: Store):
    session = GameSession.new(store, GameConfig(("Alia", "Ben"), "original", "Alia"))
    alia_eats_ben = (Played("Alia"), Played("Ben"), Revealed("Alia", 1), CallClosed())
    for _ in range(2):
        for event in (*alia_eats_ben, Hunted("Alia", 2, ("Ben",))):
            session.submit(event)
    app = CompanionApp(store, session=session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a", "1", "enter", "2", "2", "enter")  # the third round by keys
        await pilot.pause()
        assert session.state.winner == "Alia"
        text = screen_text(app)
        assert "★ Alia wins with 6 food ★" in text
        assert "Game over: Alia wins" in text
        await pilot.press("1")
        assert "The game is over: Alia won. Press u to undo." in screen_text(app)
    assert store.games()[0].winner == "Alia"


def test_every_table_key_runs_an_action_of_the_screen_or_the_app():
    for binding in TABLE_BINDINGS:
        assert isinstance(binding, Binding)
        action = binding.action.split("(")[0]
        owner = App if action.startswith("app.") else TableScreen
        assert hasattr(owner, f"action_{action.removeprefix('app.')}"), binding


@run_async
async def test_q_quits_and_the_game_stays_in_the_store(store: Store, session: GameSession):
    app = CompanionApp(store, session=session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1", "q")
        await pilot.pause()
        assert not app.is_running
    assert store.last_unfinished() == session.game_id
