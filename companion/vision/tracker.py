"""From per-frame card readings to a stable table state, with hysteresis.

A misread in the middle of a game spoils it, so nothing changes on one frame's word:
- a card exists once it has been seen `confirm` frames in a row, and is gone after `drop`
  frames missed in a row;
- a card's face/rank/suit changes only when the new reading has held `confirm` frames in a
  row (a real flip is then accepted on its `confirm`-th frame, within 5 frames for the
  default 3); one misread or one blurred frame resets nothing;
- when many cards vanish at once (a hand or a sleeve over the table, a blurred frame) the
  table counts as occluded: those cards are kept for `occluded_drop` frames, and the state
  says `settled=False` so the referee waits.

A card that is seen but never read with `min_confidence` still exists: it is reported as
read, with its low confidence (until a trusted reading comes, a different doubtful reading
held `confirm` frames replaces it), and its seat is listed in `uncertain`, so the referee
can ask the table. So is a seat whose card has been read differently from what it holds
for `confirm` frames in a row (a flicker of one frame is not doubt).

Cards are matched across frames by the distance between centres, relative to the card's
size, so the tracker is indifferent to the picture's resolution.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from .types import CardReading, FaceUpCard, SeatView, TableState

SeatOf = Callable[[tuple[float, float]], "str | None"]
Identity = tuple[str, "int | None", "str | None"]  # (face, rank, suit)


@dataclass
class TrackedCard:
    """One card the tracker follows: where it lies and what it is believed to be."""

    id: int
    corners: np.ndarray
    identity: Identity
    label: str
    confidence: float
    hits: int = 1  # consecutive frames seen
    misses: int = 0  # consecutive frames missed
    confirmed: bool = False
    occluded: bool = False  # went missing while the table was covered
    pending: Identity | None = None  # a different reading waiting to hold
    pending_label: str = ""
    pending_count: int = 0
    dissent: int = 0  # consecutive readings (of any confidence) that disagree
    trusted: bool = False  # its identity came from readings of at least min_confidence
    # (identity, label, confidence) of each reading before confirmation
    recent: list[tuple[Identity, str, float]] = field(default_factory=list)
    seat: str | None = None
    ignored: bool = False  # left out of the table state at the table's request

    @property
    def center(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])


def _identity(reading: CardReading) -> Identity:
    return (reading.face, reading.rank, reading.suit)


class Tracker:
    """Per-frame `CardReading`s in, a stable `TableState` out (see the module docstring).

    `seats`: a `Calibration` (anything with `seat_of(point)` and `names`) or a plain
    function point -> seat name or None; `seat_names` lists every seat so that empty seats
    appear in the state (taken from the calibration when it has `names`).
    `min_confidence`: readings below it never change a card read with at least that
    confidence (they only make its seat uncertain). `match_radius`: the largest centre
    distance, as a fraction of the card's long side, at which a reading is the same card.
    `mass_vanish`: the fraction of the cards (at least 2) that, missing on one frame, means
    something covers the table. `occluded_drop`: frames a covered card is kept (45: 1.5 s
    at 30 fps; pass about 1.5 s worth for other frame rates).
    """

    def __init__(
        self,
        seats: object,
        confirm: int = 3,
        drop: int = 5,
        *,
        seat_names: Sequence[str] | None = None,
        occluded_drop: int = 45,
        min_confidence: float = 0.5,
        match_radius: float = 0.45,
        mass_vanish: float = 0.25,
    ) -> None:
        if confirm < 1 or drop < 1 or occluded_drop < drop:
            raise ValueError(
                f"need confirm >= 1, drop >= 1 and occluded_drop >= drop, "
                f"got confirm={confirm}, drop={drop}, occluded_drop={occluded_drop}"
            )
        self._seat_of: SeatOf
        self.seat_names: tuple[str, ...] = ()
        self.use_seats(seats, seat_names)
        self.confirm = confirm
        self.drop = drop
        self.occluded_drop = occluded_drop
        self.min_confidence = min_confidence
        self.match_radius = match_radius
        self.mass_vanish = mass_vanish
        self.tracks: list[TrackedCard] = []
        self._next_id = 0

    # --- matching -----------------------------------------------------------------------

    def _match(self, readings: Sequence[CardReading]) -> list[tuple[int, int]]:
        """Greedy nearest pairs (track index, reading index) within the match radius."""
        if not self.tracks or not readings:
            return []
        track_quads = np.stack([t.corners for t in self.tracks])  # (T, 4, 2)
        track_centres = track_quads.mean(axis=1)
        sides = np.linalg.norm(track_quads - np.roll(track_quads, -1, axis=1), axis=2)
        radii = self.match_radius * sides.max(axis=1)
        reading_centres = np.stack([np.asarray(r.corners) for r in readings]).mean(axis=1)
        dist = np.linalg.norm(track_centres[:, None, :] - reading_centres[None, :, :], axis=2)
        ti, ri = np.nonzero(dist <= radii[:, None])
        order = np.argsort(dist[ti, ri], kind="stable")
        used_t: set[int] = set()
        used_r: set[int] = set()
        matches = []
        for k in order:
            t, r = int(ti[k]), int(ri[k])
            if t not in used_t and r not in used_r:
                used_t.add(t)
                used_r.add(r)
                matches.append((t, r))
        return matches

    # --- per-track updates --------------------------------------------------------------

    def _seen(self, track: TrackedCard, reading: CardReading) -> None:
        track.corners = np.asarray(reading.corners, np.float32)
        track.hits += 1
        track.misses = 0
        track.occluded = False
        key = _identity(reading)
        trusted = reading.confidence >= self.min_confidence
        if not track.confirmed:
            track.recent.append((key, reading.label, reading.confidence))
            if track.hits >= self.confirm:
                self._confirm(track)
            return
        if key == track.identity:
            track.pending, track.pending_count, track.dissent = None, 0, 0
            if trusted:
                track.confidence = 0.7 * track.confidence + 0.3 * reading.confidence
                track.trusted = True
            return
        track.confidence *= 1.0 - 0.3 * reading.confidence  # a dissenting reading lowers it
        track.dissent += 1
        if not trusted and track.trusted:
            return  # a doubtful reading never overrides a trusted one
        if key == track.pending:
            track.pending_count += 1
        else:
            track.pending, track.pending_label, track.pending_count = key, reading.label, 1
        if track.pending_count >= self.confirm:
            track.identity, track.label = key, track.pending_label
            track.confidence = reading.confidence
            track.trusted = trusted
            track.pending, track.pending_count, track.dissent = None, 0, 0

    def _confirm(self, track: TrackedCard) -> None:
        """The card has been seen `confirm` frames in a row: it exists. It is what most of
        its trusted readings said (or, if none was trusted, most of its readings, with
        their low confidence, so that its seat is reported uncertain)."""
        trusted = [r for r in track.recent if r[2] >= self.min_confidence]
        pool = trusted or track.recent
        keys = [r[0] for r in pool]
        majority = max(keys, key=keys.count)
        agreeing = [r for r in pool if r[0] == majority]
        track.identity, track.label = majority, agreeing[-1][1]
        track.confidence = float(np.mean([r[2] for r in agreeing]))
        track.trusted = bool(trusted)
        track.confirmed = True
        track.recent.clear()

    def _new_track(self, reading: CardReading) -> None:
        track = TrackedCard(
            id=self._next_id,
            corners=np.asarray(reading.corners, np.float32),
            identity=_identity(reading),
            label=reading.label,
            confidence=reading.confidence,
            recent=[(_identity(reading), reading.label, reading.confidence)],
        )
        self._next_id += 1
        if self.confirm == 1:
            self._confirm(track)
        self.tracks.append(track)

    # --- the frame ----------------------------------------------------------------------

    def update(self, frame_id: int, t: float, readings: Sequence[CardReading]) -> TableState:
        """Take one frame's readings and return the table state after hysteresis."""
        matches = self._match(readings)
        seen_tracks = {ti for ti, _ in matches}
        seen_readings = {ri for _, ri in matches}
        for ti, ri in matches:
            self._seen(self.tracks[ti], readings[ri])

        confirmed = [tr for tr in self.tracks if tr.confirmed]
        missing = [tr for i, tr in enumerate(self.tracks) if tr.confirmed and i not in seen_tracks]
        occluded = len(missing) >= max(2, self.mass_vanish * len(confirmed))
        kept: list[TrackedCard] = []
        for i, track in enumerate(self.tracks):
            if i in seen_tracks:
                kept.append(track)
                continue
            track.hits = 0
            track.misses += 1
            if not track.confirmed:
                continue  # a tentative card that missed a frame was never there
            track.occluded = track.occluded or occluded
            limit = self.occluded_drop if track.occluded else self.drop
            if track.misses < limit:
                kept.append(track)
        self.tracks = kept
        for ri, reading in enumerate(readings):
            if ri not in seen_readings:
                self._new_track(reading)
        return self._state(frame_id, t, occluded)

    def _state(self, frame_id: int, t: float, occluded: bool) -> TableState:
        down: dict[str, int] = dict.fromkeys(self.seat_names, 0)
        up: dict[str, list[FaceUpCard]] = {name: [] for name in self.seat_names}
        uncertain: set[str] = set()
        unseated = 0
        changing = occluded
        for track in self.tracks:
            if track.ignored:
                continue
            if not track.confirmed:
                # A card is appearing; one frame's sighting alone (a phantom, as often as
                # not) does not unsettle the table.
                changing = changing or track.hits >= 2
                continue
            seat = self._seat_of(track.center)
            track.seat = seat
            if track.misses > 0 or track.pending is not None:
                changing = True
            if seat is None:
                unseated += 1
                continue
            down.setdefault(seat, 0)
            up.setdefault(seat, [])
            if track.dissent >= self.confirm or track.confidence < self.min_confidence:
                uncertain.add(seat)
            face, rank, suit = track.identity
            if face == "down":
                down[seat] += 1
            else:
                up[seat].append(FaceUpCard(rank, suit, round(track.confidence, 3), track.center))
        seats = {name: SeatView(down[name], tuple(up[name])) for name in down}
        return TableState(
            frame_id=frame_id,
            t=t,
            seats=seats,
            settled=not changing,
            unseated=unseated,
            uncertain=tuple(sorted(uncertain)),
        )

    def use_seats(self, seats: object, seat_names: Sequence[str] | None = None) -> None:
        """Seat cards by new anchors from now on (e.g. `marker_watch.MarkerWatch.look` after
        the camera was bumped); the cards followed are kept."""
        seat_of = getattr(seats, "seat_of", seats)
        if not callable(seat_of):
            raise TypeError("seats must be a Calibration or a function point -> seat name")
        self._seat_of = seat_of  # type: ignore[assignment]
        names = seat_names if seat_names is not None else getattr(seats, "names", ())
        self.seat_names = tuple(names)

    def ignore(self, seats: Iterable[str]) -> int:
        """Leave out of the table state, from now on, the cards lying in `seats` now.

        For a card the camera keeps seeing where the table is clear (a card printed on a
        box, a sticker, a card nobody may touch): the table says so with one key. The
        cards are still followed, so they cannot come back as new cards; a card laid
        there later is a new card and counts. Returns how many cards are ignored.
        """
        wanted = set(seats)
        count = 0
        for track in self.tracks:
            if track.confirmed and not track.ignored and self._seat_of(track.center) in wanted:
                track.ignored = True
                count += 1
        return count
