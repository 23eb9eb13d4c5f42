"""Correct an earlier fact: pick it from the list, then pick what really happened.

The replacements offered are exactly the facts the rules accept at that place
(`companion.ui.corrections.alternatives`); the session then replays the later facts and
refuses the correction, with its message, if one of them no longer fits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from companion.rules.events import GameConfig, GameEvent, describe_event
from companion.ui.corrections import alternatives

Correction = tuple[int, GameEvent]


class CorrectScreen(ModalScreen[Correction | None]):
    """Two steps in one dialog; dismisses with (index, replacement) or None."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "back", "back / cancel")]

    def __init__(self, config: GameConfig, events: Sequence[GameEvent]) -> None:
        super().__init__()
        self.config = config
        self.events = tuple(events)
        self.index: int | None = None
        self.choices: tuple[GameEvent, ...] = ()

    def compose(self) -> ComposeResult:
        with Vertical(id="correct-box") as box:
            box.border_title = "Correct a fact"
            box.border_subtitle = "Enter picks · Escape goes back"
            yield Label("Which fact was wrong? (latest first)", id="correct-prompt")
            yield OptionList(*self._fact_options(), id="correct-list")

    def _fact_options(self) -> list[Option]:
        return [
            Option(f"{i + 1:>3}. {describe_event(event)}", id=str(i))
            for i, event in reversed(list(enumerate(self.events)))
        ]

    def on_mount(self) -> None:
        if not self.events:
            self.query_one("#correct-prompt", Label).update("Nothing recorded yet: Escape.")

    @on(OptionList.OptionSelected, "#correct-list")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        options = self.query_one("#correct-list", OptionList)
        prompt = self.query_one("#correct-prompt", Label)
        if self.index is None:
            assert event.option.id is not None
            self.index = int(event.option.id)
            self.choices = alternatives(self.config, self.events, self.index)
            wrong = describe_event(self.events[self.index])
            options.clear_options()
            if not self.choices:
                prompt.update(f"Fact {self.index + 1} ({wrong}) has no other legal form.")
                return
            prompt.update(f"Fact {self.index + 1} was “{wrong}”. What really happened?")
            options.add_options(
                Option(describe_event(choice), id=str(n)) for n, choice in enumerate(self.choices)
            )
            options.highlighted = 0
            return
        assert event.option.id is not None
        self.dismiss((self.index, self.choices[int(event.option.id)]))

    def action_back(self) -> None:
        if self.index is None:
            self.dismiss(None)
            return
        self.index = None
        self.choices = ()
        options = self.query_one("#correct-list", OptionList)
        options.clear_options()
        options.add_options(self._fact_options())
        self.query_one("#correct-prompt", Label).update("Which fact was wrong? (latest first)")
