"""Scoring readings against a rendered table's truth: cards found and read right, misreads
as a game rank, phantoms (`Tally`), and the faces of close-up heaps whose index is in sight
(`HeapTally`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from companion.vision.synth import CardTruth
    from companion.vision.types import CardReading

VISIBLE = 0.75  # cards at least this uncovered must be found and read
# The range of card lengths is "about 60 to 400 pixels"; the renderer also draws
# smaller cards, so the accuracy is given for all cards and for those in that range.
MIN_CARD_LENGTH = 60.0
MATCH_IOU = 0.5  # a reading is a truth's when their quads overlap this much
# A reading matched to no card lies on part of one where this much of its quad lies on it.
ON_PART = 0.5
# A table whose frame the renderer smeared by this many pixels of motion blur or more (a
# camera shaken, a bumped table) is counted apart as well (`Tally.add_scene`'s `shake`):
# most cards the pipeline loses lie on such frames (models/README.md, "Sixty-fourth
# stop"), which a camera over a table shows only while it is shaken.
SHAKEN = 5.0
# A face's index is in sight where no later card covers this point of its corner patch
# (as fractions of the card's width and length from the index corner).
INDEX_POINT = (0.12, 0.12)
# A reading stands for a heap's card where it overlaps it this much (IoU), or holds the
# point of its index in sight: the finders outline a covered card's visible part only.
HEAP_MATCH_IOU = 0.3


class Tally:
    """Counts over synthetic scenes: found, read right, misread (mostly hidden cards
    too), phantoms, and game cards read on no card (a phantom, or a quad on part of a card
    matched to none that does not name that card)."""

    def __init__(self) -> None:
        self.counts: Counter = Counter()

    def add_scene(
        self,
        readings: Sequence,
        seats: Sequence,
        truths: Sequence,
        shake: float | None = None,
    ) -> None:
        """Score one table; `shake`: its motion blur in pixels, where known (a rendered
        table's spec), to count the frames shaken by `SHAKEN` or more apart."""
        del seats  # timed with the readings; the seat of a truth is not rendered
        from companion.vision.geometry import quad_cover, quad_iou, quad_long_side

        matches = match_truths(readings, truths)
        matched = {best for best in matches if best is not None}
        c = self.counts
        c["images"] += 1
        steadiness = None if shake is None else "shaken" if shake >= SHAKEN else "steady"
        if steadiness is not None:
            c[f"{steadiness} frames"] += 1
        for truth, best in zip(truths, matches, strict=True):
            if truth.visible < VISIBLE:
                # mostly hidden: may be found or not, never a phantom; but a game rank read
                # wrong on it is one all the same (the game would take it as revealed)
                if best is not None and _misread_game_rank(readings[best], truth):
                    c["misread as a game rank"] += 1
                    c["misread, mostly hidden"] += 1
                continue
            c["cards"] += 1
            if steadiness is not None:
                c[f"{steadiness} cards"] += 1
            c["face down"] += truth.face == "down"
            in_range = quad_long_side(truth.corners) >= MIN_CARD_LENGTH
            c["cards in range"] += in_range
            if best is None:
                c["missed"] += 1
                continue
            c["found"] += 1
            reading = readings[best]
            if reads_truth(reading, truth):
                c["right"] += 1
                c["right in range"] += in_range
                c["face down right"] += truth.face == "down"
                if steadiness is not None:
                    c[f"{steadiness} right"] += 1
            elif _misread_game_rank(reading, truth):
                c["misread as a game rank"] += 1
            else:
                c["unread"] += 1
        c["readings"] += len(readings)
        for index, reading in enumerate(readings):
            if index in matched:
                continue
            covers = [quad_cover(reading.corners, t.corners) for t in truths]
            # a game card read where none lies, even on part of another card (a pip read
            # as an Ace): the game would take it as played; but not one that names the
            # card it lies on, read from its part in sight and standing alone for it (a
            # card half under its neighbour, its quad outlining the part in sight)
            c["game cards on no card"] += reading.rank is not None and not any(
                cover >= ON_PART and best is None and reads_truth(reading, truth)
                for cover, truth, best in zip(covers, truths, matches, strict=True)
            )
            overlaps = [quad_iou(reading.corners, t.corners) for t in truths]
            if max(overlaps, default=0.0) < 0.3:
                c["phantoms"] += 1
                # most of it on one card: its part in sight (a card mostly hidden under
                # another), or a strip of a card read twice; counted apart so that the
                # things taken for cards stand out
                c["phantoms on part of a card"] += max(covers, default=0.0) >= ON_PART

    def summary(self) -> dict[str, object]:
        c = self.counts
        cards = max(1, c["cards"])
        return {
            "images": c["images"],
            "cards": c["cards"],
            "found": c["found"],
            "found and read right": c["right"],
            "accuracy": round(c["right"] / cards, 4),
            f"accuracy, cards {MIN_CARD_LENGTH:.0f} px or longer": round(
                c["right in range"] / max(1, c["cards in range"]), 4
            ),
            f"cards under {MIN_CARD_LENGTH:.0f} px": c["cards"] - c["cards in range"],
            "face-down cards read as backs": f"{c['face down right']} of {c['face down']}",
            "found rate": round(c["found"] / cards, 4),
            "misread as a game rank": c["misread as a game rank"],
            f"of them on a card under {VISIBLE:.0%} in sight": c["misread, mostly hidden"],
            "game cards on no card": c["game cards on no card"],
            "unread": c["unread"],
            "phantoms": c["phantoms"],
            "phantoms per image": round(c["phantoms"] / max(1, c["images"]), 4),
            "phantoms lying mostly on part of a card": c["phantoms on part of a card"],
            **self._by_steadiness(),
        }

    def _by_steadiness(self) -> dict[str, object]:
        """Cards read right on the frames shaken by `SHAKEN` px or more and on the others,
        where the tables' shake was given."""
        c = self.counts
        if not c["shaken frames"] + c["steady frames"]:
            return {}
        return {
            f"frames shaken {SHAKEN:g} px or more, cards read right": _share(c, "shaken"),
            "the other frames, cards read right": _share(c, "steady"),
        }


def _share(c: Counter, steadiness: str) -> str:
    """'R of N (P%) on F frames' for the cards of the `steadiness` frames."""
    right, cards, frames = (c[f"{steadiness} {what}"] for what in ("right", "cards", "frames"))
    plural = "" if frames == 1 else "s"
    return f"{right} of {cards} ({100 * right / max(1, cards):.2f}%) on {frames} frame{plural}"


def match_truths(readings: Sequence, truths: Sequence) -> list[int | None]:
    """For each truth, the index of the reading that stands for it, or None where none
    does (the card was not found): pairs overlapping by MATCH_IOU or more are taken best
    first (highest IoU), each reading and each truth once, as the real photos' labels are
    matched (`real_photos.match_labels`).

    Why best first rather than truth by truth: until 2026-12-05 each truth in drawing
    order took its best reading where no earlier truth had, so a card mostly hidden under
    another (drawn first, and not counted: `VISIBLE`) took the reading of the card over
    it, overlapping it at IoU 0.53, and the card in plain sight, overlapping it at 0.8,
    counted as not found (a playing tuning row table, 4,450,096). On the 100 playing
    tuning row tables 1,174 -> 1,176 of 1,227 right; 300 playing and 300 animal tuning
    tables, 100 animal row tables and 100 of designed backs scored the same."""
    from companion.vision.geometry import quad_iou

    pairs = [
        (iou, t, r)
        for t, truth in enumerate(truths)
        for r, reading in enumerate(readings)
        if (iou := quad_iou(reading.corners, truth.corners)) >= MATCH_IOU
    ]
    return best_pairs_first([pairs], len(truths))


def best_pairs_first(
    passes: Sequence[Sequence[tuple[float, int, int]]], count: int
) -> list[int | None]:
    """For each of `count` cards, the reading that stands for it, or None: the
    (score, card, reading) pairs of each pass in turn taken highest score first, each card
    and each reading once."""
    matches: list[int | None] = [None] * count
    used: set[int] = set()
    for chosen in passes:
        for _, card, reading in sorted(chosen, key=lambda pair: -pair[0]):
            if matches[card] is None and reading not in used:
                matches[card] = reading
                used.add(reading)
    return matches


def _misread_game_rank(reading: CardReading, truth: CardTruth) -> bool:
    """Whether `reading`, standing for `truth`, names a game card it is not."""
    return reading.rank is not None and not reads_truth(reading, truth)


def reads_truth(reading: CardReading, truth: CardTruth) -> bool:
    """Whether a reading (`CardReading`) reads a rendered card (`CardTruth`) right: its
    face, rank, and suit where it has a rank."""
    got = (reading.face, reading.rank, reading.suit if reading.rank else None)
    return got == (truth.face, truth.rank, truth.suit if truth.rank else None)


class HeapTally:
    """Counts over close-up heaps: of the faces whose corner index is in sight (no later
    card covers it, `index_in_sight`), those read right by a reading lying on them
    (`HEAP_MATCH_IOU`, or holding that index), the game cards among them, and game cards
    read where no face of that rank and suit lies or as another."""

    def __init__(self) -> None:
        self.counts: Counter = Counter()

    def add_scene(self, readings: Sequence, truths: Sequence) -> None:
        from companion.vision.geometry import points_in_quad, quad_iou

        c = self.counts
        c["images"] += 1
        used: set[int] = set()
        for k, truth in enumerate(truths):
            points = index_in_sight(truths, k)
            if truth.face != "up" or not len(points):
                continue
            c["faces"] += 1
            c["game cards"] += truth.rank is not None
            want = (truth.rank, truth.suit if truth.rank else None)
            for j, reading in enumerate(readings):
                on_it = quad_iou(reading.corners, truth.corners) >= HEAP_MATCH_IOU or bool(
                    points_in_quad(points, reading.corners).any()
                )
                got = (reading.rank, reading.suit if reading.rank else None)
                if j not in used and on_it and reading.face == "up" and got == want:
                    used.add(j)
                    c["right"] += 1
                    c["game cards right"] += truth.rank is not None
                    break
        for reading in readings:
            if reading.rank is None:
                continue
            centre = reading.corners.mean(axis=0)
            if not any(
                (t.face, t.rank, t.suit) == ("up", reading.rank, reading.suit)
                and (
                    quad_iou(reading.corners, t.corners) >= 0.1
                    or bool(points_in_quad(centre, t.corners)[0])
                )
                for t in truths
            ):
                c["game cards read where none lies"] += 1

    def summary(self) -> dict[str, object]:
        c = self.counts
        return {
            "images": c["images"],
            "faces with an index in sight": c["faces"],
            "read right": c["right"],
            "accuracy": round(c["right"] / max(1, c["faces"]), 4),
            "game cards right": f"{c['game cards right']}/{c['game cards']}",
            "game cards read where none lies or as another": c["game cards read where none lies"],
        }


def index_in_sight(truths: Sequence, k: int) -> np.ndarray:
    """(P, 2) the points (`INDEX_POINT`) of card `k`'s two corner indices that lie under no
    later card of `truths` (drawn over it; a heap's cards lie inside the picture)."""
    from companion.vision.geometry import index_points, points_in_any

    points = index_points(truths[k].corners, *INDEX_POINT)
    return points[~points_in_any(points, [later.corners for later in truths[k + 1 :]])]
