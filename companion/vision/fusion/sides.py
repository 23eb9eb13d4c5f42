"""The side search: learned quads still unsure, read again with each side moved a little
or, nearer square than a card, grown to a card's shape (a side locked on a neighbour's
edge or out on the table moves back onto the card)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from ..detect import MAX_ASPECT
from ..geometry import (
    card_shaped,
    quad_aspect,
    shorter_than_nearest,
    side_moved,
    wider_than_nearest,
)
from ..types import CardReading
from .levels import SURE, SURE_ENOUGH, preference, reads_sure
from .reading import FrameReads

# A placed quad read unsure, and the rough rectangle it was placed from, are read again
# with each of their sides moved by these fractions of the distance to the opposite side
# (inwards where positive: `geometry.side_moved`). Placing snaps a side to the strongest
# edge near the rough rectangle's, which can be a neighbour's edge or the table's pattern;
# the true quad of 32 of the 37 cards 60 px and longer still not read right on 200 playing
# tuning scenes (seed 960,100) reads right. Measured on tuning data, the placed quad's
# sides alone (that set, 200 more from 960,300): 2,864 -> 2,871 and 2,844 -> 2,860 cards
# right, wrong game ranks and phantoms unchanged; the animals' 200 scenes, 150 empty
# tables and 18 rendered fans unchanged; the real train split 172 -> 175 (Aces and strays
# unchanged). Also tried: (0.05, 0.1, 0.15, -0.05), 1 right card more and 2 phantoms more;
# moved quads read as backs too, a strip of a back read as a back (a phantom); a game card
# from one moved quad alone, 1 wrong game rank more (a blurred 4 of clubs read as spades
# at 0.98 by one moved quad, as clubs by others: hence the agreement asked of a game
# card); searching quads already read as a sure 6..King too, 1 card more per set for 6 ms
# more per frame on average; the first look searching too, frames three times slower. The
# rough rectangles' sides moved too (24 quads a card, not 12): 2,875 -> 2,878, 2,861 ->
# 2,864 and 2,857 -> 2,861 (200 more from 960,500), animals +1 and +1, wrong game ranks,
# phantoms, empty tables, the real train split and the fans unchanged, 5 ms more per frame
# on average.
SIDE_SHIFTS = (0.06, 0.12, -0.06)

# An enrolled deck's game card read by the side search, or by a split pair's halves or
# ends, stands from this confidence (any other face from SURE_ENOUGH): its reader names a
# card from the whole card, and a partly covered or small animal card read from a moved
# quad reads at 0.54-0.74 from its true outline too. Measured (2026-11-30, eighteenth
# stop), the side search: animals 2,890 -> 2,893 and 2,881 -> 2,883, no wrong game rank
# nor game card on no card, the empty tables unchanged (at 0.65, a game card on no card
# more); then the split pairs: 2,893 -> 2,893 and 2,883 -> 2,885, the same. For playing
# cards, in the side search at 0.75: 1, 5 and 0 tuning cards more, but on the real train
# split an Ace read at 0.76 from a moved quad took the place of the King it lay under
# (176 -> 175): playing cards keep SURE_ENOUGH.
MOVED_GAME = 0.75
# So does an enrolled deck's back read by the side search (2026-12-01, thirty-first stop):
# a faint back's placed quad, snapped to the cloth's grain or its own faint print, read no
# back, and the same quad with a side moved read the back at 0.5-0.9, which only a face
# could stand for. Measured on the tuning sets: the 26 faint designs' tables 314 -> 321 of
# 462 backs read (984 -> 991 cards right), 62 faint designs more from 4,100,120 (2 tables
# each) 472 -> 488 of 714, the 12 designs of `back_colour.BACK_BRIGHTNESS` 290 -> 293 of 367 and
# 120 -> 122 of 158, the demo deck's 300 tables (seeds 4,800,000+) 4,330 -> 4,334 of
# 4,364 cards right; no wrong game rank, no reading more on any empty table; phantoms the
# same but on the 62 designs, 13 -> 15 (backs read on part of their own card). A split
# pair's halves keep SURE_ENOUGH for a back (`pairs.py`): with MOVED_GAME there too, two
# halves of one back stood as two backs (17 phantoms on the 62 designs). From 0.5, 326 of
# 462 but a phantom more. The playing deck's moved backs stay out (a strip of a back read
# as a back: the side shifts' comment above).

# A game card read from a moved quad where other readings of that card name another game
# card (at SURE) stands only where this many of its readings name it for sure
# (SURE_ENOUGH) and more name it than any other: a blurred 4 of clubs read as spades at
# 0.98 by one moved quad, as clubs by others, stays unread, but a 5 of clubs read at 0.999
# and 1.0 by two moved quads against a 5 of spades at 0.5 by a third is read. Measured
# (2026-11-30, twentieth stop; before, any other game card named vetoed): playing tuning
# cards 2,898 -> 2,898, 2,892 -> 2,893, 2,886 -> 2,887, wrong game ranks 1, 2, 1 -> 1, 1,
# 1 (a 3 of spades read as clubs at 0.5 read right); animals, the real train split, the
# heaps and the empty tables unchanged. One sure reading against two at 0.5 is not enough:
# a 3 of hearts 55 px long, read as hearts at 0.5 twice and as diamonds at 0.95 once.
MOVED_AGREEING = 2

# Three searches for cards the finders outline badly or not at all (2026-11-30, the
# eighteenth stop: this one, `picking.ZOOM_GAME` and `parts.PART_AREA`), measured
# together on the tuning sets (the default pipeline; playing 200 scenes each from seeds
# 960,100 / 960,300 / 960,500, animals 200 each from 950,100 / 950,300, 150 empty tables
# from 6,100,000, the real train split, 18 rendered fans): playing 2,892 -> 2,894, 2,887
# -> 2,888, 2,883 -> 2,885 cards right, animals 2,886 -> 2,890 and 2,878 -> 2,881; wrong
# game ranks, game cards on no card, phantoms and the empty tables unchanged; the real
# train split 175 -> 176 (Aces 90/92, 9 stray readings, both); fans 16/18 both. Time,
# 100 tuning tables per deck read alternately in one process: median 43.1 -> 42.8 ms
# (playing), 26.1 -> 26.3 (animals); mean 80.3 -> 82.1 and 48.0 -> 49.7 (all of it in
# frames in doubt).
# - A learned quad nearer square than FRAGMENT_ASPECT is searched grown to a card's shape
#   too (`_moved_quads`): a lynx 161 px long half under a wolf (seed 950,205), outlined
#   over the part that shows, reads "other" without it. Alone: animals +1, +1, playing
#   +0, +0, +1.
FRAGMENT_ASPECT = 1.3

# A face read by the side search as no game card (a 6..King) stands for nothing where its
# quad is this many times as wide as the nearest card read for sure or more: such a quad
# lies over a card and part of its neighbour, and the 6..King read there for sure kept
# the cut-out (`cut_out.py`, which cuts only quads read unsure) from finding the game card
# under it. Tuning row table 4,450,062: a 4 of diamonds 107 px long, outlined with part
# of the 5 of hearts beside it (a quad 110 by 119 px), read as a 6..King at 0.97 with one
# side moved; now cut out and read at 1.0. Measured (2026-12-06, fifty-ninth stop;
# OpenCV 5.0, the tuning sets): playing row tables 1,212 -> 1,215 of 1,271 (100 from
# 4,450,000: that 4, three 6..Kings more, one fewer) and 3 cards more, 1 fewer on 150
# from 4,450,100 (a 2 of hearts and two 6..Kings; a 6..King); 2,000 playing card scenes
# from 4,200,000 a 6..King fewer (4,200,961); wrong game ranks, game cards on no card
# and phantoms as before; 100 designed backs, 100 tables with jokers, 60 heaps, 200 empty
# tables, 250 animal row tables, 300 animal scenes, 150 empty tables and the real train
# split in a webcam's frame (100 px, every quarter turn) exactly as before. At 1.2 (the
# cut-out's `WIDER_THAN_A_CARD`), on the 100 row tables 4 cards more but 2 fewer and an
# Ace of spades read as clubs (4,450,059).
WIDE_SIX_TO_KING = 1.35

# A game card read by the side search stands for nothing where its quad's long side is
# under this fraction of the nearest card read for sure (`geometry.shorter_than_nearest`):
# one deck's cards lie at one size, and such a quad lies over part of a card. Tuning row
# table 4,450,202: a quad 56 px long over part of a 6..King of diamonds half under another
# (cards 123 px long there), read as the 2 of diamonds at 1.0 with one side moved: a game
# card where none lies. As a face read for sure it also set the size at which the
# corner-index search read the index of the table's 2 of clubs again
# (`indices._face_sizes`), which then read nothing. On 250 playing row tables and 400
# card scenes (4,450,000+ and 4,200,000+) the faces the side search stood for were 0.68
# of the nearest sure card's length or more where right; below 0.6 stood that 2 and a
# 6..King on part of a 6..King. Game cards only: on 2,000 card scenes (4,200,000+) the
# rule for every face lost two 6..Kings 45 px long, read right at 0.46-0.58 of the
# nearest sure card's length (4,200,917, 4,201,671), and an animal back at 0.54, read
# right, on the animal row tables (4,450,005). Measured: see `side_search`.
SMALL_GAME_CARD = 0.6


def side_search(frame: FrameReads) -> dict[int, CardReading]:
    """For each learned quad with a rough reading (`frame.rough`, by learned index) where
    neither that nor its placed reading reads a card at `SURE_ENOUGH`, and that does not lie
    mostly on a card read so (`INSIDE_SURE`): the best reading of its placed quad or its
    rough rectangle with one side moved (`SIDE_SHIFTS`), or grown to a card's shape where it
    is a fragment (`_moved_quads`), where one stands. It stands where it reads a face at
    `SURE_ENOUGH` (an enrolled deck's game card or back at `MOVED_GAME`), better than both;
    a game card only where the readings of that card agree on it (`_agreed_game_cards`); and
    only where it is a card's shape (`detect.MAX_ASPECT`); a 6..King only on a quad
    narrower than `WIDE_SIX_TO_KING` cards; a playing card only where no card read for
    sure, nor another quad searched, names it (`_named_once`). Why the card's shape: a
    strip of an 8 of diamonds under its neighbour, three pips in view, outlined 2.6 times
    as long as wide, read as a 3 of hearts at 1.0 from two quads with a long side moved
    in, 2.9 times as long as wide (tuning row table 4,450,186). On 150 playing tuning row
    tables from 4,450,100 a game card read where none lies 3 -> 2, nothing else changed;
    the other tuning sets (100 row tables a deck from 4,450,000, 300 playing and 300
    animal card scenes, jokers, designed backs, heaps, empty tables, the real train split
    at every turn and at 100 px) read exactly as before. The moved quads that stood there
    were at most 2.08 as long as wide.

    Nor a game card read on a quad much shorter than the nearest card read for sure
    (`SMALL_GAME_CARD`). Measured (2026-12-06, sixty-first stop; OpenCV 5.0): 150 playing
    tuning row tables from 4,450,100 a game card on no card fewer (2 -> 1) and a phantom
    fewer (5 -> 4), 1,893 of 1,957 cards right as before; 100 tables with jokers from
    4,900,000 a game card read on a joker fewer (4 -> 3); 2,000 card scenes from
    4,200,000, the battery's other playing sets, the real train split at 100 px at every
    quarter turn and the animals' tuning sets exactly as before."""
    found, enrolled = frame.found, frame.enrolled
    sure_reads = [r for r in (*frame.readings, *frame.rough.values()) if reads_sure(r)]
    sure = [r.corners for r in sure_reads]
    searched = frame.unsure_learned(sure)
    groups = [
        _moved_quads((found.learned[index], found.rough[index]), found.slanted.get(index))
        for index in searched
    ]
    read = frame.read([quad for group in groups for quad in group])
    standing: dict[int, list[CardReading]] = {}
    start = 0
    for index, group in zip(searched, groups, strict=True):
        before = (frame.placed(index), frame.rough[index])
        tries = read[start : start + len(group)]
        start += len(group)
        agreed = _agreed_game_cards((*before, *tries))
        standing[index] = [
            r
            for r in tries
            if (
                (r.face == "up" and moved_stands(r, enrolled))
                or (enrolled and r.label == "back" and r.confidence >= MOVED_GAME)
            )
            and preference(r) > max(map(preference, before))
            and (r.rank is None or r.label in agreed)
            and _one_card_shaped(r, sure)
        ]
    if enrolled:
        return {index: max(tries, key=preference) for index, tries in standing.items() if tries}
    return _named_once(standing, {r.label for r in sure_reads if r.rank is not None})


def _one_card_shaped(reading: CardReading, sure: Sequence[np.ndarray]) -> bool:
    """Whether a moved quad's reading lies on a quad of one card's shape and size, beside
    the cards read for sure (`sure`, their quads)."""
    # no card seen by the camera is longer than that for its width (a strip of a card
    # under its neighbour, a side moved in, is: `MAX_ASPECT`'s comment)
    if quad_aspect(reading.corners) > MAX_ASPECT:
        return False
    if reading.rank is not None:
        # a game card on a quad much shorter than a card is read on part of one
        return not shorter_than_nearest(reading.corners, sure, SMALL_GAME_CARD)
    # a 6..King on a quad wider than a card hides the game card cut out of it
    return not (
        reading.face == "up" and wider_than_nearest(reading.corners, sure, WIDE_SIX_TO_KING)
    )


def _named_once(standing: dict[int, list[CardReading]], named: set[str]) -> dict[int, CardReading]:
    """The best reading standing for each searched quad (by learned index), where each
    playing card is named once: by no card read for sure before the search (`named`), by
    no other searched quad (the surest first).

    Why: a playing deck holds each card once. Where a side moved onto a neighbour shows
    that neighbour's index, the quad reads the neighbour's card, already read on its own
    quad (tuning row table 4,450,073: a 4 of diamonds in heavy blur, half under the 2 of
    diamonds, read as the 2 at 1.0 beside the 2 itself); and where both looks of the
    learned finder outline one card, each quad moved reads it, and the card stood twice
    (row table 4,450,187, card scene 4,200,499: the two quads overlap at IoU 0.5-0.7,
    under `picking`'s `ZOOM_TWIN`). Measured (2026-12-06, sixtieth stop; OpenCV 5.0): 100
    playing tuning row tables from 4,450,000 a wrong game rank fewer (2 -> 1; the 4 is
    now lost), 150 from 4,450,100 and 1,000 card scenes from 4,200,000 a game card on no
    card fewer each, no card right lost on any tuning set; held out, 100 tables of
    designed backs a game card on no card fewer (1 -> 0)."""
    named = set(named)
    best_first = sorted(
        ((r, index) for index, tries in standing.items() for r in tries),
        key=lambda pair: preference(pair[0]),
        reverse=True,
    )
    better: dict[int, CardReading] = {}
    for reading, index in best_first:
        if index in better or (reading.rank is not None and reading.label in named):
            continue
        better[index] = reading
        if reading.rank is not None:
            named.add(reading.label)
    return better


def moved_stands(reading: CardReading, enrolled: bool) -> bool:
    """Whether a reading of a quad the finders did not give (moved, cut) may stand for a
    card: a card read for sure (`reads_sure`), or for an `enrolled` deck a game card read
    at `MOVED_GAME`."""
    if reads_sure(reading):
        return True
    return enrolled and reading.rank is not None and reading.confidence >= MOVED_GAME


def _agreed_game_cards(readings: Sequence[CardReading]) -> set[str]:
    """The game card that `readings` of one card name (at `SURE`) where none names
    another; or else the one that `MOVED_AGREEING` or more name at `SURE_ENOUGH` and more
    name than any other (none where that is not so)."""
    named = Counter(r.label for r in readings if r.rank is not None and r.confidence >= SURE)
    if len(named) <= 1:
        return set(named)
    (first, votes), (_, runner_up) = named.most_common(2)
    sure = sum(r.label == first and r.confidence >= SURE_ENOUGH for r in readings)
    return {first} if votes > runner_up and sure >= MOVED_AGREEING else set()


def _moved_quads(quads: Sequence[np.ndarray], fitted: np.ndarray | None = None) -> list[np.ndarray]:
    """What the side search reads for a card outlined by `quads` (placed, rough): each of
    them with one side moved by each of `SIDE_SHIFTS` (`_each_side_moved`), then those
    nearer square than `FRAGMENT_ASPECT` grown to a card's shape (`geometry.card_shaped`),
    then the sides fitted to its blob where it is slanted (`fitted`: `Candidates.slanted`,
    a turned card seen steeply) with one moved likewise. Measured for the fitted sides
    (2026-12-06, sixty-second stop; OpenCV 5.0): 2,000 playing tuning card scenes
    (4,200,000+, 4,201,000+) 14,415 -> 14,416 and 14,450 -> 14,453 cards right, the
    animals' 100 row tables (4,450,000+) 1,255 -> 1,256, 60 playing heaps (4,400,000+)
    147 -> 146 faces (a 6..King); wrong game ranks, game cards on no card and phantoms as
    before."""
    moved = [quad for outline in quads for quad in _each_side_moved(outline)]
    shaped = [
        shaped
        for quad in quads
        if quad_aspect(quad) < FRAGMENT_ASPECT
        for shaped in card_shaped(quad)
    ]
    return moved + shaped + ([] if fitted is None else _each_side_moved(fitted))


def _each_side_moved(quad: np.ndarray) -> list[np.ndarray]:
    """`quad` with each of its sides moved by each of `SIDE_SHIFTS`, one at a time."""
    return [side_moved(quad, side, shift) for side in range(4) for shift in SIDE_SHIFTS]
