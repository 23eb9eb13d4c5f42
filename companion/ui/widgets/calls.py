"""The five calls of a hunt, one line each: what happened at the settled ones, which is on.

It reads a `HuntRecord` from the chronicle, so the outcome lines are the same rendered
announcements the table heard, in the table's language.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from companion.rules.events import RANKS
from companion.rules.narration import Announcement
from companion.rules.state import GameState
from companion.ui.chronicle import HuntRecord


def hunt_to_show(state: GameState, latest: HuntRecord | None) -> HuntRecord | None:
    """The latest hunt's calls while they matter: until the next hunt's first card."""
    if latest is None or (latest.round, latest.hunt) == (state.round, state.hunt):
        return latest
    if state.phase == "over":
        return latest
    nothing_played_yet = state.phase == "play" and not any(s.has_played for s in state.seats)
    return latest if nothing_played_yet else None


class CallsPanel(Static):
    """Calls 1 to 5 of the current hunt (or of the hunt that just ended)."""

    def show(
        self,
        state: GameState,
        hunt: HuntRecord | None,
        rank_label: Callable[[int], str],
        text_of: Callable[[Announcement], str],
    ) -> None:
        """Redraw from the live `state` and the latest hunt with settled calls."""
        hunt = hunt_to_show(state, hunt)
        current = (state.round, state.hunt)
        showing_current = state.phase != "over" and (
            hunt is None or (hunt.round, hunt.hunt) == current
        )
        if hunt is None:
            self.border_title = f"Calls · round {state.round}, hunt {state.hunt}"
        else:
            ended = "" if showing_current else " (ended)"
            self.border_title = f"Calls · round {hunt.round}, hunt {hunt.hunt}{ended}"
        settled = {call.rank: call for call in hunt.calls} if hunt else {}
        table = Table(box=None, show_header=False, padding=(0, 1, 0, 0), expand=True)
        table.add_column(width=1, no_wrap=True)
        table.add_column(no_wrap=True)
        table.add_column(ratio=1)
        for rank in RANKS:
            is_now = showing_current and state.phase in ("call", "hunt") and state.call_rank == rank
            call = settled.get(rank)
            if call is not None:
                outcome = Text(" ".join(text_of(a) for a in call.outcome) or "—", style="italic")
            else:
                outcome = Text("now" if is_now else "", style="bold green")
            table.add_row(
                Text("▶" if is_now else "", style="bold green"),
                Text(f"{rank} {rank_label(rank)}", style="bold" if is_now else ""),
                outcome,
            )
        self.update(table)
