"""Whether the companion sees a deck's face-down cards: a picture of its back laid face
down on rendered tables and read by that deck's pipeline, counted.

Why: the finder and the readers learned the backs of the project's own decks and of
thousands of drawn designs, yet a plain or faint back printed to the edge can still go
unseen (models/README.md, card finder, "Backs never seen"), and a face-down card the
companion does not see is a card nobody played. Checked on the user's own back when a
deck is enrolled (`companion deck enroll`) or on demand (`companion deck check-back`),
the table learns it before the game, not during it.

An enrolled deck whose back the enrolled decks' own finder net misses is checked again
with the net that learned backs of any design, and read with that one from then on where
it sees clearly more (`choose_finder`, `DeckProfile.any_backs`).

The tables come from the renderer the benchmark uses (tables, light, tilt, blur, noise)
with every card face down and the picture as its back; seeds from `CHECK_SEED`, a stream
of its own (`vision/bench/` lists the others). On the shipped models the project's
backs and the usual patterned designs are seen on every table, and plain designs on few
or none (figures in `models/README.md`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .decks import PLAYING_CARDS, DeckProfile
from .geometry import quad_iou
from .pipeline import CardPipeline

CHECK_SEED = 7_000_000
CHECK_TABLES = 8
CARDS_PER_TABLE = 10
# A back is seen well enough when this share of the face-down cards is read as backs: on
# these tables the project's backs reach 1.0, and even at 0.95 a hunt of five players has
# a face-down card unseen about one time in four (1 - 0.95 ** 5).
SEEN_ENOUGH = 0.95
# A face-down card counts where a back is read on it (IoU, as the benchmark matches) and
# it lies at least this uncovered.
MATCH_IOU = 0.5
VISIBLE = 0.9
# An enrolled deck's frames are seen by the net that learned backs of any design where its
# own net misses its back and that net sees this share of its face-down cards more
# (`choose_finder`): about 8 of the check's 80 cards, more than two checks of one net
# differ by; or where that net sees enough (`SEEN_ENOUGH`) and more than its own.
# Measured (2026-12-02) on tuning designs: the second rule chose it for 3 of 72 (own net
# 75, 75 and 75 of 79 backs on the check's tables, the other 76, 79 and 79), whose 10
# tables each then read 150 -> 161 of 165 backs and 416 -> 425 of 433 cards right, no
# phantom either way, 1 reading on their 30 empty tables instead of none. Found where a
# held-out deck (design 5,950,005) kept its own net once the second look saw 73 of its 79
# backs instead of 71, under the 79 of the other net by less than ANY_BACKS_GAIN, and
# then missed 6 of its backs on the benchmark's tables.
ANY_BACKS_GAIN = 0.1


@dataclass(frozen=True)
class BackCheck:
    """Face-down cards read as backs (`seen`) of all those on the rendered tables."""

    seen: int
    cards: int
    tables: int

    @property
    def share(self) -> float:
        return self.seen / self.cards if self.cards else 0.0

    @property
    def enough(self) -> bool:
        return self.share >= SEEN_ENOUGH

    def summary(self) -> str:
        return (
            f"face-down cards read as backs on {self.tables} rendered tables: "
            f"{self.seen} of {self.cards} ({100 * self.share:.0f}%)"
        )


def check_back(deck: DeckProfile, back: np.ndarray, tables: int = CHECK_TABLES) -> BackCheck:
    """Lay `back` (BGR uint8, the card's back upright: a rectified picture, as a deck's
    profile holds) face down on `tables` rendered 1280x720 tables of `CARDS_PER_TABLE`
    cards each, read them with `deck`'s pipeline, and count the backs read."""
    from .synth import random_scene, render_scene

    if not isinstance(back, np.ndarray) or back.dtype != np.uint8 or back.ndim != 3:
        raise ValueError("expected the back as a BGR uint8 picture of shape (H, W, 3)")
    kind = PLAYING_CARDS if deck.kind == PLAYING_CARDS else "animals"
    pipeline = CardPipeline(deck)
    seen = cards = 0
    for index in range(tables):
        rng = np.random.default_rng(CHECK_SEED + index)
        spec = random_scene(rng, CARDS_PER_TABLE, kind, face_up_rate=0.0)
        image, truths = render_scene(spec, back_art=back)
        backs = [r.corners for r in pipeline.read(image) if r.face == "down"]
        for truth in truths:
            if truth.visible < VISIBLE:
                continue
            cards += 1
            seen += any(quad_iou(quad, truth.corners) >= MATCH_IOU for quad in backs)
    return BackCheck(seen, cards, tables)


@dataclass(frozen=True)
class FinderChoice:
    """Which finder net an enrolled deck's frames are seen by (`choose_finder`): `deck`,
    as it is to be saved; `check`, its back checked with the enrolled decks' own net;
    `any_backs_check`, with the net that learned backs of any design (None where the
    first saw enough)."""

    deck: DeckProfile
    check: BackCheck
    any_backs_check: BackCheck | None

    @property
    def final(self) -> BackCheck:
        """The check of the net chosen."""
        if self.deck.any_backs and self.any_backs_check is not None:
            return self.any_backs_check
        return self.check


def choose_finder(deck: DeckProfile, back: np.ndarray, tables: int = CHECK_TABLES) -> FinderChoice:
    """An enrolled `deck` with the finder net that sees its `back` face down best.

    Why: the enrolled decks' own net (`segment.MODEL`) learned the project's backs; its
    fine-tuning on backs of any design (`segment.ENROLLED_BACKS_MODEL`) outlines more
    phones and notes, which an enrolled deck's reader, reading by likeness, can take for
    its back (so on such a deck a back is read only in the enrolled back's colour:
    `back_colour.BACK_BRIGHTNESS`). The second sees a deck's frames only where the first misses
    its back (under `SEEN_ENOUGH`) and the second sees clearly more of it
    (`ANY_BACKS_GAIN`), or enough of it and more than the first: where the back goes
    unseen, every card played face down is lost, a far worse thing than a rare phantom.
    Measured on rendered tuning tables (models/README.md, card finder, "An enrolled
    deck's own back").
    """
    if deck.kind == PLAYING_CARDS:
        raise ValueError(f"{deck.name} is built in: the net for backs always sees its frames")
    own = check_back(replace(deck, any_backs=False), back, tables)
    if own.enough:
        return FinderChoice(replace(deck, any_backs=False), own, None)
    other = check_back(replace(deck, any_backs=True), back, tables)
    better = other.share >= own.share + ANY_BACKS_GAIN or (other.enough and other.share > own.share)
    return FinderChoice(replace(deck, any_backs=better), own, other)
