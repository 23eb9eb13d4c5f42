"""What a seat shows the camera, compared with what the engine already knows of it.

The referee never trusts a single reading: it compares the tracker's settled view of a
seat (backs counted, faces read) with the seat's cards in the engine state, and only
the difference is news. Operator fixes ("the card read as 4 is a 3") are applied here
as aliases, so a card that keeps being misread is not asked about again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from companion.rules.state import SeatState
from companion.vision.types import SeatView

Alias = tuple[int | None, int]  # (rank the camera reads, rank the table confirmed)
TRUSTED = 0.5  # a face read with less confidence than this is a doubt to settle


@dataclass(frozen=True, slots=True)
class SeatSight:
    """One seat as the camera sees it: backs, and the ranks of the faces (None: unreadable)."""

    down: int = 0
    up: tuple[int | None, ...] = ()
    doubtful: tuple[int | None, ...] = ()  # the faces read with little confidence

    @property
    def empty(self) -> bool:
        return self.down == 0 and not self.up


def sight_of(view: SeatView | None, aliases: Iterable[Alias] = ()) -> SeatSight:
    """The seat's view with operator aliases applied (each alias renames one face)."""
    if view is None:
        return SeatSight()
    ranks = [card.rank for card in view.face_up]
    for seen, rank in aliases:
        if seen in ranks:
            ranks[ranks.index(seen)] = rank
    faces = zip(ranks, view.face_up, strict=True)
    doubtful = [rank for rank, card in faces if card.confidence < TRUSTED]
    return SeatSight(
        view.face_down,
        tuple(sorted(ranks, key=_rank_order)),
        tuple(sorted(doubtful, key=_rank_order)),
    )


def sights_of(
    seats: Mapping[str, SeatView], players: Iterable[str], aliases: Mapping[str, list[Alias]]
) -> dict[str, SeatSight]:
    """`sight_of` for every player (a seat the tracker does not list is empty)."""
    return {name: sight_of(seats.get(name), aliases.get(name, ())) for name in players}


def known_down(seat: SeatState) -> int:
    """Cards of this round the engine knows to lie face down in `seat`."""
    return sum(1 for card in seat.played if card.rank is None)


def new_faces(sight: SeatSight, seat: SeatState) -> tuple[int | None, ...]:
    """Faces the camera shows that the engine does not know yet (a multiset difference)."""
    known = Counter(card.rank for card in seat.played if card.rank is not None)
    news = Counter(sight.up)
    news.subtract(known)
    return tuple(sorted(news.elements(), key=_rank_order))


def extra_backs(sight: SeatSight, seat: SeatState) -> int:
    """Backs the camera counts beyond the engine's face-down cards (< 0: some are missing)."""
    return sight.down - known_down(seat)


def _rank_order(rank: int | None) -> int:
    return 99 if rank is None else rank
