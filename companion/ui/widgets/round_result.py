"""The last scored round (food per player and why) and, at the end, the winner.

Shown until the next round is scored, so the table can check the markers it hands out
while the new round starts.
"""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from companion.rules.state import GameState, RoundResult

WHY = {
    "alone": "survived alone",
    "highest": "highest sum",
    "survivor": "survived",
    "eaten": "eaten",
}


class RoundResultPanel(Static):
    """Hidden before the first round ends; a table of the last round, then the winner."""

    def show(self, state: GameState) -> None:
        """Redraw for `state` (its last completed round and its winner, if any)."""
        result = state.rounds[-1] if state.rounds else None
        self.display = result is not None
        self.set_class(state.winner is not None, "-over")
        if result is None:
            return
        self.border_title = f"Round {result.round} scored ({result.hunts} hunts)"
        if state.winner is None:
            self.update(_result_table(result))
            return
        self.border_title = "Game over"
        winner = Text(f"★ {state.winner} wins with {state.totals[state.winner]} food ★\n")
        winner.stylize("bold reverse yellow")
        self.update(Group(winner, _result_table(result)))


def _result_table(result: RoundResult) -> Table:
    table = Table(box=None, padding=(0, 1), show_edge=False, expand=False)
    for column, justify in (("player", "left"), ("sum", "right"), ("food", "right")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    table.add_column("why")
    table.add_column("total", justify="right")
    for name, food in result.food.items():
        reason = result.reasons[name]
        style = "red" if reason == "eaten" else ("bold green" if food == 2 else "")
        table.add_row(
            name,
            str(result.sums[name]) if reason in ("highest", "survivor") else "",
            f"+{food}",
            WHY[reason],
            str(result.totals[name]),
            style=style,
        )
    return table
