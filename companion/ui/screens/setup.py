"""Set up a game: the players in clockwise order, who calls first, which rule setting.

Validation is the engine's (`initial_state` raises `ConfigError` with what a set-up
needs), so the screen and the table log accept exactly the same games.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, RadioButton, RadioSet, Select

from companion.rules.events import GameConfig
from companion.rules.state import MAX_PLAYERS, ConfigError, initial_state

RULE_LABELS = {
    "original": "original (animal deck; the call passes every hunt)",
    "playing-cards": "playing-cards (suit = owner; the call passes every round)",
}


class SetupScreen(Screen[GameConfig | None]):
    """Dismisses with a valid `GameConfig` (None: cancelled); refuses a bad set-up."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", "start the game"),
        Binding("escape", "cancel", "quit"),
    ]

    def __init__(self, preset: GameConfig | None = None) -> None:
        super().__init__()
        self.preset = preset

    def compose(self) -> ComposeResult:
        names = list(self.preset.players) if self.preset else []
        with VerticalScroll(id="setup-box") as box:
            box.border_title = "Prey Another Day · new game"
            yield Label("Players, clockwise seen from above (2 to 5; leave the rest empty):")
            for seat in range(MAX_PLAYERS):
                value = names[seat] if seat < len(names) else ""
                with Horizontal(classes="setup-row"):
                    yield Label(f"seat {seat + 1}", classes="seat-label")
                    yield Input(value, placeholder="name", id=f"player-{seat + 1}", compact=True)
            with Horizontal(classes="setup-row"):
                yield Label("First caller (original rules: the youngest):")
                yield Select[str]([], prompt="first player", id="first-caller", compact=True)
            yield Label("Rule setting:")
            rules = self.preset.rules if self.preset else "original"
            with RadioSet(id="rules"):
                for name, label in RULE_LABELS.items():
                    yield RadioButton(label, value=name == rules, name=name, id=f"rules-{name}")
            yield Label("", id="setup-error")
            yield Button("Start (Ctrl+S)", variant="primary", id="start", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self._refresh_callers()
        if self.preset and self.preset.first_caller:
            self.query_one("#first-caller", Select).value = self.preset.first_caller
        self.query_one("#player-1", Input).focus()

    def player_names(self) -> tuple[str, ...]:
        """The names typed so far, in seat order, without the empty seats."""
        values = (self.query_one(f"#player-{n + 1}", Input).value for n in range(MAX_PLAYERS))
        return tuple(value.strip() for value in values if value.strip())

    def config(self) -> GameConfig:
        """The set-up on screen (not yet validated)."""
        caller = self.query_one("#first-caller", Select).value
        pressed = self.query_one("#rules", RadioSet).pressed_button
        rules = pressed.name if pressed is not None and pressed.name else "original"
        return GameConfig(
            players=self.player_names(),
            rules=rules,  # type: ignore[arg-type]
            first_caller=caller if isinstance(caller, str) else None,
        )

    @on(Input.Changed)
    def _refresh_callers(self) -> None:
        select = self.query_one("#first-caller", Select)
        current = select.value
        names = self.player_names()
        select.set_options((name, name) for name in dict.fromkeys(names))
        if isinstance(current, str) and current in names:
            select.value = current

    @on(Input.Submitted)
    def _next_field(self) -> None:
        self.focus_next()

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        try:
            config = initial_state(self.config()).config
        except ConfigError as error:
            self.query_one("#setup-error", Label).update(f"✗ {error}")
            return
        self.dismiss(config)
