"""The running log of everything the companion said, newest at the bottom.

Append-only on screen, like the table's memory: an undo appears as its own line
("Undone.") rather than silently erasing what was said.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import RichLog

# Message ids that open a new part of the game and deserve to stand out.
HEADLINES = frozenset({"round_start", "winner"})
RESULTS = frozenset({"round_alone", "round_food", "round_eaten", "totals", "tie_play_on"})


class EventLog(RichLog):
    """A `RichLog` that styles lines by the kind of announcement they come from."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, auto_scroll=True, min_width=20)

    def add(self, msg: str, text: str) -> None:
        """Append the rendered `text` of an announcement whose id is `msg`."""
        if msg in HEADLINES:
            self.write(Text(text, style="bold reverse"))
        elif msg in RESULTS:
            self.write(Text(text, style="bold green"))
        elif msg in ("undone", "corrected"):
            self.write(Text(text, style="italic yellow"))
        else:
            self.write(Text(text))

    def note(self, text: str) -> None:
        """Append a line that is not an announcement (a resume mark, a camera notice)."""
        self.write(Text(text, style="dim italic"))
