"""The camera side of live play: a picture in, the tracker's table state out.

`VisionEyes` chains the real vision layer (card pipeline with a deck profile, then the
tracker with the seats' calibration). It lives here, not in `vision`, because it is the
referee's view of the table; `vision` stays free of the rules. The vision modules are
imported when eyes are opened, so `companion --help` stays fast.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.vision.types import CardReading, Frame, TableState

if TYPE_CHECKING:
    from companion.vision.calibration import Calibration


OCCLUDED_HOLD_S = 1.5  # a covered card is kept this long before it counts as gone
OCCLUDED_MIN_FRAMES = 5


class SetupError(ValueError):
    """Live play cannot start as asked (seats, deck, calibration); the message says why."""


@dataclass
class Sight:
    """What the eyes made of one frame."""

    readings: list[CardReading]
    table: TableState


class VisionEyes:
    """Card pipeline then tracker: `see(frame)` for every frame, in order.

    `markers` (a `vision.marker_watch.MarkerWatch`, for seats calibrated from printed
    markers) moves the seats with a bumped camera and drops readings on the markers.
    `gate` (a `vision.change.ChangeGate`) lets a frame that shows nothing new since the
    last one read keep that frame's readings instead of reading every card again: the
    tracker still counts it, at a fraction of the cost. `full_reads` counts the frames
    read in full.
    """

    def __init__(self, pipeline: Any, tracker: Any, markers: Any = None, gate: Any = None) -> None:
        self.pipeline = pipeline
        self.tracker = tracker
        self.markers = markers
        self.gate = gate
        self.full_reads = 0
        self._last: list[CardReading] = []

    def see(self, frame: Frame) -> Sight:
        if self.gate is None or self.gate.changed(frame.image):
            self._last = self.pipeline.read(frame.image)
            self.full_reads += 1
        readings = self._last
        if self.markers is not None:
            moved = self.markers.look(frame.image)
            if moved is not None:
                self.tracker.use_seats(moved)
            readings = self.markers.without_markers(readings)
        return Sight(readings, self.tracker.update(frame.id, frame.t, readings))

    def ignore(self, seats: Sequence[str]) -> int:
        """Stop counting the cards seen in `seats` now (the tracker's `ignore`)."""
        return self.tracker.ignore(seats)


def seat_calibration(
    *, seats: str | Mapping[str, tuple[float, float]] | None, calibration: Path | None
) -> Calibration:
    """Seats from `--seats` text (or anchors), else from a calibration file."""
    from companion.vision.calibration import Calibration, load_calibration, parse_seats

    try:
        if isinstance(seats, str):
            return parse_seats(seats)
        if seats is not None:
            return Calibration(seats=dict(seats))
        if calibration is not None:
            return load_calibration(calibration)
    except (OSError, ValueError) as error:
        raise SetupError(str(error)) from None
    raise SetupError(
        'expected the seats: --seats "Alia=412,650;Ben=90,360;..." or --calibration FILE '
        "(made by `companion calibrate`)"
    )


def check_seats(players: Sequence[str], seats: Sequence[str]) -> None:
    """Every player needs a seat and every seat a player."""
    missing = [p for p in players if p not in seats]
    extra = [s for s in seats if s not in players]
    if missing or extra:
        parts = [f"no seat for {', '.join(missing)}"] if missing else []
        parts += [f"seat {', '.join(extra)} is nobody's"] if extra else []
        raise SetupError(f"{'; '.join(parts)}: expected one seat per player ({', '.join(players)})")


def tracker_options(fps: float | None) -> dict[str, int]:
    """Tracker settings in frames for a stream of `fps` (None: the tracker's own, for 30)."""
    if fps is None:
        return {}
    return {"occluded_drop": max(OCCLUDED_MIN_FRAMES, round(OCCLUDED_HOLD_S * fps))}


def open_eyes(
    deck: str, calibration: Calibration, players: Sequence[str], fps: float | None = None
) -> VisionEyes:
    """Eyes reading `deck`, seating cards by `calibration` (one seat per player)."""
    from companion.vision.change import ChangeGate
    from companion.vision.decks import DeckError, load_deck
    from companion.vision.marker_watch import MarkerWatch
    from companion.vision.pipeline import CardPipeline
    from companion.vision.tracker import Tracker

    check_seats(players, calibration.names)
    try:
        profile = load_deck(deck)
    except (DeckError, OSError) as error:
        raise SetupError(f"deck {deck!r}: {error}") from None
    watch = MarkerWatch(calibration)
    return VisionEyes(
        CardPipeline(profile),
        Tracker(calibration, **tracker_options(fps)),
        watch if watch.active else None,
        ChangeGate(),
    )
