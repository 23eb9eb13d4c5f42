"""Two or three cards outlined as one quad: cut across its long sides (cards touching along
a long side) or into its fanned parts (cards overlapping), where the parts read.

Two cards lying side by side, touching along a long side, can be outlined as one quad of
about 10:7, which reads as no card for sure: a learned quad still unsure after the side
search (and not mostly on a card read for sure) is cut in two across its long sides
(`geometry.halves`), and where both halves read a card, a face or a back, at
SURE_ENOUGH, they stand for it (`split_pairs`). Three cards in a column before each seat
is how this game is played. Measured on the playing tuning sets (200 scenes each from
seeds 960,100, 960,300 and 960,500): 2,887 -> 2,892, 2,880 -> 2,887 and 2,877 -> 2,883
cards right, with 3, 8 and 3 quads split; wrong game ranks and phantoms as before; the
animal sets (no quad split there), 150 empty tables, the real train split and 18
rendered fans unchanged. Where the halves do not both read, the quad's two fanned ends
(`geometry.fanned_ends`: two cards lying across it, overlapping) stand where both read a
face at SURE_ENOUGH (2026-11-30, eighteenth stop): playing 2,894 -> 2,896 (an Ace of
diamonds under a 3 of spades, seed 960,210), 2,888 -> 2,890, 2,885 -> 2,885, animals
unchanged, nothing else changed. Backs too: a back half under a sleeve read as two backs
(animals 2,881 -> 2,880).

Three cards in a row, touching along their long sides, make one quad as long as three
cards are wide (`geometry.cards_across`), whose halves are no cards: it is cut in three
(`geometry.side_by_side`), and where all three read a card at SURE_ENOUGH they stand
(2026-12-04, forty-fifth stop). A player lays their cards side by side: an Ace, a 3 and
a 5 touching (or overlapping by 5% of a card's width), 70, 100 and 140 px long, turned by
0, 30, 75 and 90 degrees, scene seeds 3 and 4, on six tables (wood light and dark, green
felt, white cloth, carpet, marble; `SceneSpec(table=..., cards=..., seed=...)`) were read
782 of 864 times, and 837 with the thirds (the gain mostly at 70 px), game ranks read
wrong or where no card lies 3 -> 1; the tuning sets (those of the rule below) and the
real train split, at every length in a webcam's frame and as photographed at every turn,
read the same: their rows lie apart, or overlap more.

Three in a row, each over the one before by a little, make a quad two to three cards
wide: its three fanned parts (`geometry.fanned_three`: its ends and its middle, each a
card wide) stand where all three read different faces for sure, before its two fanned
ends are tried. A fanned part of a playing card whose far side lies under its neighbour
shows only one corner index, and the reader does not stand by one index against a whole
face that shows another card: such a part is read from the index at either of its ends
alone (`CardReader.read_index`, as the corner-index search reads a card), and the parts
must then read different faces (each end of one card shows its index). Rendered rows as
above (60 px higher, scored by face and rank) laid side by side, each card over the one
before by 15% or 30% of its width: 585 -> 632 of 864 read right, game ranks read wrong
or where no card lies 4 -> 2; touching, 843 -> 848 (820 before the thirds, in this
grid); rows laid end to end (no rule cuts those) unchanged. The tuning sets read the
same; the real train split in a webcam's frame 1 to 3 cards more at 80 to 150 px (80 px:
147 -> 150), as photographed the same.

Last, where none of these stands, the placed quad's halves stand where one reads a game
card at SURE_ENOUGH and the other some face (a 6..King read unsure, as "other"): a small
Ace touching a 10 along its long side, the 10 too small for the reader to be sure of it
(2026-12-04, forty-fifth stop; the real train photo IMG_2667 shrunk into a webcam's
frame, its cards 100 px long). Measured: the real train split in a webcam's frame,
longest card 100 and 80 px, 157 -> 159 and 146 -> 147 of 195 cards right (game cards 79
-> 80 and 69 -> 70), at 60, 120, 150, 200 and 300 px and as photographed at every turn
the same; on the tuning sets (300 playing and 300 animal tables from 4,200,000 and
4,800,000, 100 tables with jokers from 4,900,000, 100 of designed backs from 4,100,000,
60 heaps from 3,100,000, 150 empty tables from 6,100,000) it never applies.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from ..geometry import (
    cards_across,
    fanned_ends,
    fanned_three,
    halves,
    nearest_card,
    order_clockwise,
    quad_iou,
    quad_long_side,
    side_by_side,
)
from ..types import NOT_A_CARD, CardReading
from .levels import SAME_CARD, SURE_ENOUGH, preference, reads_sure
from .reading import FrameReads
from .sides import moved_stands

# A reading set aside by a cut (`split_pairs`) lies on one of its parts, not on the whole
# quad, where it overlaps that part this much (IoU): a half overlaps the quad it was cut
# from at 0.5, a third at 0.33, so neither passes for one of its parts.
PART_RIVAL = 0.6

# A quad no longer than this many times the long side of the nearest card read for sure is
# one card's size: its halves are half cards, and where both read as backs they are the
# two halves of one back, whose pattern fills any part of it (`_sure_halves`); two cards
# side by side make a quad 1.4 times as long (10:7). Found on a playing tuning table
# (4,200,019): a back 146 px long read at 0.88 stood as two backs, its halves read at
# 0.92 and 0.95. Measured (2026-12-05): 300 playing tuning tables (4,200,000+) and 100 of
# designed backs (4,100,000+) one back more read right each; 100 playing and 100 animal
# row tables, 300 animal tables, 120 heaps, 100 tables with jokers, 150 empty tables, 12
# enrolled animal decks with backs never seen and 20 with faint ones (4,650,000+, their
# tables and empty tables) and the real train split at 100 px and as photographed, at
# every turn, read exactly as before.
ONE_CARD = 1.2


def split_pairs(frame: FrameReads, kept: list[CardReading]) -> list[CardReading]:
    """`kept`, where a learned quad with a rough reading (`frame.rough`, by learned index,
    after the side search) reads no card for sure, placed or rough, and does not lie mostly
    on a card read so (`INSIDE_SURE`), with its two halves (`geometry.halves`) instead where
    both read a card at `SURE_ENOUGH` or an enrolled deck's game card at `MOVED_GAME` (or
    its thirds, for a quad three cards wide), or else its fanned ends both a face so (the
    placed quad first, then the rough rectangle; `_sure_halves`), and none is a card already
    read for sure. The unsure readings of that quad, and of any quad on the same cards
    (`SAME_CARD`: the edge finder's outline of them), give way to those cards, but a game
    card read on one of them stands for it where the reader stands by it more
    (`_better_of`)."""
    sure = [r.corners for r in kept if reads_sure(r)]
    out = list(kept)
    for index in frame.unsure_learned(sure):
        whole = (frame.found.learned[index], frame.found.rough[index])
        pair = _sure_halves(frame, whole, _one_card_sized(whole[0], sure))
        if pair is not None:
            out = stand_for(out, whole, pair)
    return out


def stand_for(
    out: list[CardReading], whole: Sequence[np.ndarray], parts: Sequence[CardReading]
) -> list[CardReading]:
    """`out` with the cards `parts` read on a part of a quad outlined as `whole` (placed
    and rough, or the edge finder's alone) standing for that quad's unsure readings, and
    for any unsure reading on the same cards (`SAME_CARD`: the other finder's outline of
    them), but a game card read on one of them stands where the reader stands by it more
    (`_better_of`); `out` as it is where a part is a card already read for sure."""
    if any(
        quad_iou(part.corners, r.corners) >= SAME_CARD
        for part in parts
        for r in out
        if reads_sure(r)
    ):
        return out
    # the whole quad, and the other finder's outline of it, read unsure: not a card
    aside = [
        not reads_sure(r) and any(quad_iou(r.corners, q) >= SAME_CARD for q in whole) for r in out
    ]
    set_aside = [r for r, gone in zip(out, aside, strict=True) if gone]
    kept = [r for r, gone in zip(out, aside, strict=True) if not gone]
    return kept + [_better_of(part, set_aside) for part in parts]


def _better_of(part: CardReading, set_aside: Sequence[CardReading]) -> CardReading:
    """`part`, a card cut from a quad of two or three (or of one card and part of its
    neighbour: `cut_out`), or the game card that one of the
    readings the cut set aside reads on that same card (`PART_RIVAL`), where the reader
    stands by it more (`preference`).

    Why: a reading lying on one card of a pair, not on the pair's quad, is that card's
    own. Tuning row table 4,450,029: an Ace of spades read at 0.63 from its own quad, a 2
    of hearts beside it outlined with it as one quad, whose halves read the 2 at 0.98 and
    the Ace's half as an unsure face (0.2): the halves stood (`_game_card_and_face`), and
    the Ace, lying on the pair's quad and read unsure, gave way to its half, which named
    no card at all. Measured: 100 playing tuning row tables from 4,450,000 1,166 -> 1,167
    cards right; 150 more from 4,450,100, the card scenes (300 a deck), jokers, designed
    backs, heaps, empty tables and the real train split read exactly as before."""
    rivals = [
        r
        for r in set_aside
        if r.rank is not None
        and quad_iou(r.corners, part.corners) >= PART_RIVAL
        and preference(r) > preference(part)
    ]
    return max(rivals, key=preference, default=part)


def _one_card_sized(quad: np.ndarray, sure: Sequence[np.ndarray]) -> bool:
    """Whether `quad` is no longer than `ONE_CARD` times the nearest of the `sure` quads
    (cards read for sure): a quad of one card, not of two side by side."""
    nearest = nearest_card(quad, sure)
    return nearest is not None and quad_long_side(quad) <= ONE_CARD * quad_long_side(nearest)


def _sure_halves(
    frame: FrameReads, quads: Sequence[np.ndarray], one_card: bool = False
) -> list[CardReading] | None:
    """The readings of the cards of the first of `quads` whose halves both read a card (a
    face or a back: `moved_stands`), or, for a quad three cards wide, whose thirds all
    do, or else whose fanned three or fanned ends (`_fanned_read`) all read a face so (a
    back's pattern fills any part of it: two parts of one back read as two backs), or
    else whose halves are a game card read for sure and some face
    (`_game_card_and_face`: the first quad only, the placed one); None where none does.
    Halves that both read as backs do not stand where the quad is `one_card` sized
    (`ONE_CARD`): they are one back's halves."""
    enrolled = frame.enrolled
    # any part of a back plain inside its margin looks like the whole back
    plain = frame.reader.deck.plain_back is not None
    for quad in quads:
        for parts in (halves(quad), side_by_side(quad, 3) if cards_across(quad) == 3 else ()):
            cards = frame.read(parts)
            if (
                cards
                and all(
                    moved_stands(r, enrolled) and not (plain and r.face == "down") for r in cards
                )
                and not (one_card and all(r.face == "down" for r in cards))
            ):
                return cards
        for fanned in (fanned_three(quad), fanned_ends(quad)):
            cards = _fanned_read(frame, fanned) if fanned is not None else None
            if cards is not None:
                return cards
    pair = frame.read(halves(quads[0]))
    return pair if _game_card_and_face(*pair) else None


def _fanned_read(frame: FrameReads, parts: Sequence[np.ndarray]) -> list[CardReading] | None:
    """The cards of fanned parts of a quad (`geometry.fanned_three`, `fanned_ends`) where
    each reads a face for sure (`moved_stands`). A part of a playing card that does not,
    one of its sides under a neighbour and its index there hidden, may be read from the
    corner index at its other end alone (`CardReader.read_index`, either end tried); the
    parts must then read different faces, since each end of one card shows its index."""
    enrolled = frame.enrolled
    cards = frame.read(parts)
    by_index = False
    for k, card in enumerate([] if enrolled else cards):
        if moved_stands(card, enrolled):
            continue
        part = order_clockwise(parts[k])
        best = max(
            frame.reader.read_index(frame.image, [part, np.roll(part, 2, axis=0)]),
            key=lambda r: (r.label != NOT_A_CARD, r.confidence),
        )
        cards[k], by_index = replace(best, corners=parts[k]), True
    if by_index and len({r.label for r in cards}) < len(cards):
        return None
    return cards if all(r.face == "up" and moved_stands(r, enrolled) for r in cards) else None


def _game_card_and_face(first: CardReading, second: CardReading) -> bool:
    """Whether one of two halves reads a game card at SURE_ENOUGH and the other some face
    (face up, not "not a card"): two cards touching, one too small or blurred to read for
    sure."""
    return any(
        sure.rank is not None
        and sure.confidence >= SURE_ENOUGH
        and other.face == "up"
        and other.label != NOT_A_CARD
        for sure, other in ((first, second), (second, first))
    )
