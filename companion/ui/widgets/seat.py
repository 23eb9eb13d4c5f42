"""One player's place at the table: food, hand, the cards played this round, the role.

The panel shows only what the table knows: a card put down this hunt is a back until it
is revealed (the engine keeps its rank None), so the dashboard never gives away a card
that is still face down.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.text import Text
from textual.widgets import Static

from companion.rules.state import SeatState

CARD_BACK = "▒▒"
FOOD_MARK = "●"


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything the seat panel shows, gathered by the table screen."""

    number: int  # 1-based, the key that names this seat
    seat: SeatState
    total: int
    is_caller: bool
    to_play: bool  # still has to put a card down this hunt
    marked: bool  # toggled in the pending selection (revealed / eaten, not yet confirmed)
    is_hunter: bool


class SeatPanel(Static):
    """Renders a `SeatView`; CSS classes carry the role so the .tcss can colour it."""

    def show(self, view: SeatView, rank_label: Callable[[int], str]) -> None:
        """Redraw for `view`; `rank_label(rank)` names a rank in the table's deck and language."""
        seat = view.seat
        self.set_class(view.to_play, "-to-play")
        self.set_class(seat.eaten, "-eaten")
        self.set_class(view.marked, "-marked")
        self.set_class(view.is_hunter, "-hunter")
        self.border_title = f"{view.number} {seat.name}"
        self.border_subtitle = "calls" if view.is_caller else ""
        body = Text()
        body.append("food ", style="dim")
        body.append(f"{view.total:>2} ", style="bold")
        body.append(FOOD_MARK * min(view.total, 12), style="yellow")
        body.append("\nhand ", style="dim")
        body.append(f"{seat.cards_in_hand} card{'s' if seat.cards_in_hand != 1 else ''}")
        body.append("\nplayed", style="dim")
        if not seat.played:
            body.append(" —", style="dim")
        for card in seat.played:
            body.append(f"\n h{card.hunt} ", style="dim")
            if card.rank is None:
                body.append(CARD_BACK, style="bold blue")
                body.append(" face down", style="dim")
            else:
                body.append(f"{card.rank}", style="bold")
                body.append(f" {rank_label(card.rank)}")
        body.append("\n")
        body.append_text(_role_line(view))
        self.update(body)


def _role_line(view: SeatView) -> Text:
    if view.seat.eaten:
        return Text("EATEN this round", style="bold red")
    if view.marked:
        return Text("✓ marked", style="bold yellow")
    if view.to_play:
        return Text("▶ to play", style="bold green")
    if view.is_hunter:
        return Text("hunts: name the prey", style="bold magenta")
    if not view.seat.active:
        return Text("out of this hunt", style="dim")
    return Text("")
