"""The game told back from its facts: every announcement, and what happened at each call.

The dashboard needs more than the current `GameState`: the running event log (on a
resume too) and the outcome of each call of the hunt. Both follow from replaying the
facts in force with `narration.announce`, which is pure and cheap (a game is a few
hundred facts), so the screen simply rebuilds the chronicle after every change instead
of keeping a second copy of the game in step with undo and corrections.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.rules.events import CallClosed, Declined, GameConfig, GameEvent, Hunted
from companion.rules.narration import Announcement, announce
from companion.rules.state import GameState, apply, initial_state

# The announcements that tell what a call came to (the rest is the call itself, hunt and
# round ends, which the seats and the result panel already show).
CALL_OUTCOMES = frozenset(
    {"nobody", "lone_hunter", "lone_cannot_hunt", "blocked", "eaten", "prey_missing", "declined"}
)


@dataclass(frozen=True, slots=True)
class CallRecord:
    """One settled call of a hunt: who turned the rank up and what followed."""

    rank: int
    revealers: tuple[str, ...]
    outcome: tuple[Announcement, ...]


@dataclass(frozen=True, slots=True)
class HuntRecord:
    """The calls settled so far in one hunt."""

    round: int
    hunt: int
    calls: tuple[CallRecord, ...]


@dataclass(frozen=True, slots=True)
class Chronicle:
    """The game after its facts: the state, everything said, and the latest hunt's calls."""

    state: GameState
    said: tuple[Announcement, ...]
    latest_hunt: HuntRecord | None  # the last hunt that had a settled call


def chronicle(config: GameConfig, events: Iterable[GameEvent]) -> Chronicle:
    """Replay `events` (already accepted by the session) and collect what they said."""
    state = initial_state(config)
    said: list[Announcement] = []
    hunts: dict[tuple[int, int], list[CallRecord]] = {}
    for event in events:
        after = apply(state, event)
        told = announce(state, event, after)
        said.extend(told)
        if isinstance(event, CallClosed | Hunted | Declined):
            assert state.call_rank is not None
            _record_call(hunts.setdefault((state.round, state.hunt), []), state, told)
        state = after
    latest = None
    if hunts:
        (round_number, hunt_number), calls = list(hunts.items())[-1]
        latest = HuntRecord(round_number, hunt_number, tuple(calls))
    return Chronicle(state, tuple(said), latest)


def _record_call(calls: list[CallRecord], before: GameState, told: Iterable[Announcement]) -> None:
    assert before.call_rank is not None
    outcome = tuple(a for a in told if a.msg in CALL_OUTCOMES)
    if calls and calls[-1].rank == before.call_rank:  # the hunter's decision on that call
        last = calls[-1]
        calls[-1] = CallRecord(last.rank, last.revealers, last.outcome + outcome)
    else:
        calls.append(CallRecord(before.call_rank, before.revealers, outcome))
