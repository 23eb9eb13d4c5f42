"""The set-up screen: names, first caller, rule setting; the engine's validation messages."""

from __future__ import annotations

from conftest import run_async, screen_text
from textual.widgets import Input, RadioButton, Select

from companion.store import Store
from companion.ui.app import CompanionApp
from companion.ui.screens.setup import SetupScreen
from companion.ui.screens.table import TableScreen

SIZE = (120, 40)


async def _type_names(app: CompanionApp, *names: str) -> None:
    for seat, name in enumerate(names, start=1):
        app.screen.query_one(f"#player-{seat}", Input).value = name


@run_async
async def test_a_valid_set_up_opens_the_table_with_a_stored_game(store: Store):
    app = CompanionApp(store)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, SetupScreen)
        await _type_names(app, "Alia", "Ben", "Carmen")
        await pilot.pause()
        app.screen.query_one("#first-caller", Select).value = "Ben"
        app.screen.query_one("#rules-playing-cards", RadioButton).value = True
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert app.session is not None
        config = store.config(app.session.game_id)
        assert config.players == ("Alia", "Ben", "Carmen")
        assert config.first_caller == "Ben"
        assert config.rules == "playing-cards"
        assert "Ben calls" in screen_text(app)


@run_async
async def test_typing_names_by_keys_fills_the_caller_choice(store: Store):
    app = CompanionApp(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"Alia", "enter", *"Ben", "enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        assert screen.player_names() == ("Alia", "Ben")
        options = screen.query_one("#first-caller", Select)._options
        assert [value for _, value in options if isinstance(value, str)] == ["Alia", "Ben"]


@run_async
async def test_one_player_is_refused_with_what_is_expected(store: Store):
    app = CompanionApp(store)
    async with app.run_test(size=SIZE) as pilot:
        await _type_names(app, "Alia")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        assert "expected 2 to 5 players, got 1" in screen_text(app)
        assert store.games() == []


@run_async
async def test_twice_the_same_name_is_refused(store: Store):
    app = CompanionApp(store)
    async with app.run_test(size=SIZE) as pilot:
        await _type_names(app, "Alia", "Ben", "Alia")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "'Alia' appears twice" in screen_text(app)


@run_async
async def test_escape_leaves_without_creating_a_game(store: Store):
    app = CompanionApp(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("escape")
        await pilot.pause()
        assert not app.is_running
    assert store.games() == []
