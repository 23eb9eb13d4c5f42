"""What the companion waits for, in one line, and the last refusal under it.

The wait is read from the engine (`expects`), plus the marks not yet confirmed, so the
operator always sees which key comes next and what Enter would record.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.widgets import Static

from companion.rules.state import GameState, expects
from companion.ui.entry import Pending


def _names(players: tuple[str, ...] | list[str]) -> str:
    return ", ".join(players) if players else "nobody"


def waiting_for(state: GameState, pending: Pending, rank_label: Callable[[int], str]) -> str:
    """One sentence: what the engine expects next and which keys give it."""
    wanted = expects(state)
    seats = [p for p in state.config.players if p in pending.seats]
    count = len(state.config.players)
    if wanted.phase == "play":
        return (
            f"Waiting for {_names(list(wanted.to_play))} to play a card: "
            f"press their seat (1-{count}), or a for all."
        )
    if wanted.phase == "call":
        assert wanted.call_rank is not None
        called = f"{wanted.call_rank} {rank_label(wanted.call_rank)}"
        return (
            f"Call {called}: who turned it up? Marked: {_names(seats)}. "
            f"Seat keys mark, Enter confirms, n = nobody."
        )
    if wanted.phase == "hunt":
        low, high = wanted.prey_ranks[0], wanted.prey_ranks[-1]
        if pending.prey_rank is None:
            return (
                f"{wanted.hunter} hunts: press the prey's rank ({low}-{high}), "
                f"or n if {wanted.hunter} does not hunt."
            )
        prey = f"{pending.prey_rank} {rank_label(pending.prey_rank)}"
        return (
            f"{wanted.hunter} names {prey}: mark the seats that turned it up "
            f"(now: {_names(seats)}), Enter confirms, Escape starts again."
        )
    return f"Game over: {state.winner} wins. u undoes the last fact, q quits."


# What the live referee may wait for beyond the engine's own expectation.
LIVE_WAITS = {
    "table_clear": (
        "Waiting for the table to clear: pick up the cards of the last round "
        "(x: ignore what the camera still sees there)."
    ),
    "answer": "Waiting for an answer to the question above.",
    "camera": "Camera lost: the game is paused until the frames come back.",
}


class StatusLine(Static):
    """The wait on the first line; a refused key's message (in red) on the second."""

    def show(
        self,
        state: GameState,
        pending: Pending,
        rank_label: Callable[[int], str],
        refusal: str | None = None,
        live_wait: str | None = None,
    ) -> None:
        """Redraw; `refusal` is the engine's message for the key just refused, if any.

        `live_wait` is what the live referee waits for (a key of `LIVE_WAITS`), if any.
        """
        line = Text()
        if live_wait in LIVE_WAITS:
            line.append(LIVE_WAITS[live_wait] + "\n", style="bold yellow")
        line.append(waiting_for(state, pending, rank_label), style="bold")
        if refusal:
            line.append("\n")
            line.append(f"✗ {refusal}", style="bold red")
        self.set_class(bool(refusal), "-refused")
        self.update(line)
