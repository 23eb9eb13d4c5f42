"""What an earlier fact could be replaced with: every fact the rules accept at its place.

Rather than a form per event kind, the correction screen offers the operator the legal
alternatives at that point of the game, computed by trying each candidate fact on the
state just before it. A game has at most five players, so the candidates are few (under
500, mostly hunts with their possible victims) and checking them is instant.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from companion.rules.events import (
    RANKS,
    CallClosed,
    Declined,
    GameConfig,
    GameEvent,
    Hunted,
    Played,
    Revealed,
)
from companion.rules.log import replay
from companion.rules.state import GameState
from companion.ui.entry import check


def _candidates(players: Sequence[str]) -> Iterator[GameEvent]:
    for player in players:
        yield Played(player)
    for player in players:
        for rank in RANKS:
            yield Revealed(player, rank)
    yield CallClosed()
    for hunter in players:
        yield Declined(hunter)
        others = [p for p in players if p != hunter]
        for rank in RANKS:
            for size in range(len(others) + 1):
                for eaten in combinations(others, size):
                    yield Hunted(hunter, rank, eaten)


def state_before(config: GameConfig, events: Sequence[GameEvent], index: int) -> GameState:
    """The state in which fact `index` (0-based) was recorded."""
    if not 0 <= index < len(events):
        raise IndexError(f"expected a fact number from 1 to {len(events)}, got {index + 1}")
    return replay(config, events[:index])


def alternatives(
    config: GameConfig, events: Sequence[GameEvent], index: int
) -> tuple[GameEvent, ...]:
    """Every fact other than `events[index]` that the rules accept in its place.

    A replacement may still be refused by the session if a later fact no longer fits
    after it; the session says which.
    """
    before = state_before(config, events, index)
    return tuple(
        candidate
        for candidate in _candidates(config.players)
        if candidate != events[index] and check(before, [candidate]) is None
    )
