"""What the vision layer hands to the rest of the program. Knows nothing of the rules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

Face = Literal["up", "down"]
SUITS: tuple[str, ...] = ("clubs", "diamonds", "hearts", "spades")
# Labels of readings that name no card of the deck (`CardReading.label`):
NOT_A_CARD = "not a card"  # a quad that holds no card at all (the finder may drop it)
OTHER = "other"  # a face the deck does not know, or that cannot be read for sure


@dataclass(frozen=True, slots=True)
class Frame:
    """One picture of the table with its place in the stream."""

    id: int
    t: float  # seconds, monotonic for a camera, frame index / fps for a file
    image: np.ndarray  # BGR uint8, H x W x 3


@dataclass(frozen=True, slots=True)
class CardReading:
    """One card found in one image, read once."""

    corners: np.ndarray  # (4, 2) float32, image pixels, clockwise from the top-left
    face: Face
    rank: int | None  # 1..5 for a game card, None for a back or a non-game face
    suit: str | None  # a playing card's suit when read face up, else None
    label: str  # short human name: "bear", "A of spades", "back", "other"
    confidence: float  # 0..1, the reader's estimate for the whole reading

    @property
    def center(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])


@dataclass(frozen=True, slots=True)
class FaceUpCard:
    """A card seen face up in a seat, as the tracker holds it."""

    rank: int | None
    suit: str | None
    confidence: float
    center: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True, slots=True)
class SeatView:
    """What lies in one seat: how many backs, which faces."""

    face_down: int = 0
    face_up: tuple[FaceUpCard, ...] = ()


@dataclass(frozen=True, slots=True)
class TableState:
    """The stable picture of the table after hysteresis, seat by seat.

    `settled` is False while something (a hand, blur, a change not yet confirmed) keeps
    the tracker from trusting the frame; the referee only acts on settled states.
    """

    frame_id: int
    t: float
    seats: Mapping[str, SeatView]
    settled: bool = True
    unseated: int = 0  # cards that lie in nobody's seat
    uncertain: tuple[str, ...] = field(default=())  # seats whose reading is doubtful
