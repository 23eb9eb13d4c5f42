"""Operator keys queued for the live referee, pressed when the game is ready for them.

A person at the dashboard presses "the hunter named the owl" when the dashboard shows
that hunter; a scripted demo queues the same key ahead of time, and it is pressed as
soon as the referee has seen the hunter alone at its call.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from companion.referee.live import LiveReferee, RefereeOutput


@dataclass(frozen=True, slots=True)
class EnterPrey:
    """The operator keys the rank a lone hunter named (nobody turned it up)."""

    hunter: str
    rank: int


def press_ready(referee: LiveReferee, keys: deque[EnterPrey]) -> list[RefereeOutput]:
    """Press the queued keys, in order, whose hunter is now the lone revealer."""
    outputs = []
    while keys:
        state = referee.session.state
        key = keys[0]
        if state.phase not in ("call", "hunt") or state.revealers != (key.hunter,):
            break
        outputs.append(referee.enter_prey(key.rank))
        keys.popleft()
    return outputs
