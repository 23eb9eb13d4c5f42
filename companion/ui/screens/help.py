"""The help overlay: every key of the table screen, from `companion.ui.keys`."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from companion.ui.keys import TABLE_KEYS


def keys_table() -> Table:
    """The keys and what they do, as a rich table."""
    table = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
    table.add_column(style="bold reverse", no_wrap=True)
    table.add_column()
    for line in TABLE_KEYS:
        table.add_row(f" {line.keys} ", line.does)
    return table


class HelpScreen(ModalScreen[None]):
    """Lists every key; any of Escape, ? or q closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q", "dismiss", "close help"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box") as box:
            box.border_title = "Keys"
            box.border_subtitle = "Escape closes"
            yield Static(keys_table(), id="help-keys")

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)
