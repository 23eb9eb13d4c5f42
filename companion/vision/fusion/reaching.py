"""A game card outlined by no quad of its own: read on card-sized quads reaching out from
the ends of an unsure quad, turned as the card read for sure nearest it; and where none
is read there, a back or a 6..King whose quad holds nearly all of the unsure one.

Cards laid in a row, each over the one before, leave the middle card of three a band in
sight between its neighbours, and a finder outlines that band alone, or one end of the
card with its neighbour: a quad that reads no card, nor do its halves (`pairs.py`) or its
card-shaped cuts (`cut_out.py`), since each lies partly off the card. One deck's cards
lie at one size, and a row's cards are turned alike, so the card lies at one end of that
quad in the size and turn of the nearest card read for sure (`geometry.cards_from_ends`).
The quads searched are those the cut-out searches (`FrameReads.unsure_outlines`: the
learned finder's, and the edge finder's where the net sees card). Each quad at their
ends is read, as it is and placed on the card's edges; a game card read on one at
`SURE_ENOUGH`, named by no other of them, and (for playing cards) read nowhere else in the
frame, stands for the unsure quad (`pairs.stand_for`).

Why so guarded:
- only where the unsure quad lies turned within `TURNED_ALIKE` of that nearest card:
  without it, a joker of the tuning tables (4,900,000+) was read as the Ace of clubs on a
  quad turned as its neighbour, not as the joker, and a card of the real train split
  (180 degrees) was lost;
- only on a frame no shaken camera smeared (`shake.shake_of`): a 5 of diamonds wholly in
  sight on a frame smeared by 9 px read as the 5 of hearts at 0.99 (tuning row table
  4,450,073);
- a playing card named elsewhere in the frame is that card (its suit is its player's);
  where the quads name two game cards, neither stands. An enrolled deck's animal lies
  before every player that plays it, so its name read elsewhere says nothing.

Measured (2026-12-07, sixty-seventh stop; OpenCV 5.0, the tuning sets): playing row
tables 1,223 -> 1,226 of 1,271 (100 from 4,450,000), 1,901 -> 1,902 of 1,957 with a
game card read as another rank fewer (1 -> 0; 150 from 4,450,100), 2,489 -> 2,492 of
2,567 (200 from 4,450,250); animal row tables 3,140 -> 3,144 of 3,170 (250 from
4,470,000) and 2,485 -> 2,488 of 2,514 with 2 game cards read as another rank fewer (4
-> 2; 200 from 4,470,250); playing card scenes 4,343 -> 4,345 of 4,367 (300 from
4,200,000); playing row tables seen 35 degrees from straight down 1,827 -> 1,828 (150
from 4,460,000); the real train split at 100 px, turned 90 degrees, 90 -> 91 of 92 game
cards. Exactly as before: 300 animal card scenes, 100 tables with jokers, 120 heaps, 100
of designed backs, 100 of enrolled backs, 150 empty tables, 150 card scenes seen at 35
degrees and the real train split as photographed. No wrong game rank, game card on no
card or phantom more anywhere. It runs in frames in doubt only.

Measured, not kept: backs too (where no game card is read at the ends): a back more on
450 playing row tables; 6..Kings and backs: 10 cards more on them, but 2 game cards lost
under 6..Kings standing over them (4,450,008 and 4,450,029; `cut_out.py` says why a
6..King that explains the net's card costs more than it finds); the edge finder's quads left
out: one game card fewer and one more read as another rank (150 from 4,450,100); an
animal named elsewhere in the frame kept out, as a playing card is: 3 animal cards fewer;
a game card two quads name at `cut_out.AGREED_GAME` standing too: one animal card more.
The card found standing for the unsure readings on it too, not only for those on the
searched quad: without it, a wolf half under its neighbour, read as a mouse at 0.61 and
now at its end as a wolf at 0.99, stood twice (4,470,447: a game card on no card).

A back or a 6..King stands too where no game card is read at the ends (2026-12-07,
sixty-ninth stop), read at `PLAIN_SURE` on a quad that holds `PLAIN_COVERS` of the unsure
quad, all such readings naming one kind (`_plain_card`). Why the cover: 6..Kings and
backs standing wherever read at the ends lost 2 game cards lying under them (above), where
the unsure quad spanned the 6..King and part of the card under it; a quad holding nearly
all of the unsure one finds the card the unsure quad loosely outlined, and leaves no
room for another (4,450,114: the middle 6..King of a row of three, read at 0.98, lost
before). Measured on the tuning sets (OpenCV 5.0): playing row tables 1,904 -> 1,905
and 2,493 -> 2,495, playing row tables seen 35 degrees from straight down 1,828 ->
1,834 of 1,931, designed backs 1,252 -> 1,254, enrolled backs 1,364 -> 1,366, the real
train split at 100 px turned 270 degrees 173 -> 174; every other set as before; no card
lost on any table, no wrong game rank, game card on no card or phantom more. Covering
0.6: as many cards gained, but 3 tables lose a card.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..geometry import (
    axis_turn,
    cards_from_ends,
    nearest_card,
    order_clockwise,
    quad_cover,
    quad_iou,
)
from ..segment import place_quads
from ..types import OTHER, CardReading
from .levels import SAME_CARD, SURE_ENOUGH, reads_sure
from .pairs import stand_for
from .reading import FrameReads

# Degrees an unsure quad may lie turned from the nearest card read for sure and still be
# searched (measured: see above). 12 since 2026-12-07's sixty-ninth stop, with backs and
# 6..Kings at the ends (`_plain_card`): at 8, where it was measured first, 4 cards fewer
# (3 on 350 playing row tables from 4,450,100, 1 on 150 tilted row tables) and 2
# phantoms more; every other tuning set the same.
TURNED_ALIKE = 12.0
# A back or a 6..King read at the ends stands from PLAIN_SURE, on a quad holding
# PLAIN_COVERS of the unsure quad searched (`_plain_card`; measured: see above).
PLAIN_SURE = 0.95
PLAIN_COVERS = 0.8


def reached_cards(frame: FrameReads, kept: list[CardReading]) -> list[CardReading]:
    """`kept`, where an unsure quad (`FrameReads.unsure_outlines`) turned as the nearest
    card read for sure has a game card at one of its ends, or a back or 6..King holding
    nearly all of it (`_card_at_ends`), with that card in its place. The frame must be
    a steady one (the caller's to say)."""
    sure = [r.corners for r in kept if reads_sure(r)]
    out = list(kept)
    for whole in frame.unsure_outlines(sure):
        card = nearest_card(whole[0], sure)
        if card is None:
            continue
        card = order_clockwise(card)
        if axis_turn(whole[0], card) > TURNED_ALIKE:
            continue
        reading = _card_at_ends(frame, whole[0], card, out)
        if reading is not None:
            # an unsure reading over the card found is that card too (`stand_for`)
            out = stand_for(out, (*whole, reading.corners), [reading])
    return out


def _card_at_ends(
    frame: FrameReads, quad: np.ndarray, card: np.ndarray, out: list[CardReading]
) -> CardReading | None:
    """The game card read at `SURE_ENOUGH` on a quad of `card`'s size and turn at an end
    of `quad` (`geometry.cards_from_ends`, each also placed on the edges), on the terms
    of `one_game_card`; where there is none, the back or 6..King read there on the terms
    of `_plain_card`; else None."""
    ends = cards_from_ends(quad, card)
    if not ends:
        return None
    readings = frame.read(ends + place_quads(frame.colour, np.stack(ends)))
    game = one_game_card(readings, out, frame.enrolled)
    return game if game is not None else _plain_card(readings, quad, out)


def _plain_card(
    readings: list[CardReading], quad: np.ndarray, out: list[CardReading]
) -> CardReading | None:
    """The back or 6..King of `readings` read surest at `PLAIN_SURE`, whose quad holds
    `PLAIN_COVERS` of the unsure `quad`, on the terms of `_surest_of_one_card`."""
    return _surest_of_one_card(
        readings,
        out,
        lambda r: (
            r.rank is None
            and (r.label == OTHER or r.face == "down")
            and r.confidence >= PLAIN_SURE
            and quad_cover(quad, r.corners) >= PLAIN_COVERS
        ),
    )


def one_game_card(
    readings: list[CardReading], out: list[CardReading], enrolled: bool
) -> CardReading | None:
    """The game card of `readings` (one place's quads) read surest at `SURE_ENOUGH` that,
    for playing cards (not `enrolled`), `out` names nowhere, on the terms of
    `_surest_of_one_card`. A playing card's suit is its player's: its name read elsewhere
    is that card; an enrolled deck's animal can lie before every player."""
    named = set() if enrolled else {r.label for r in out if r.rank is not None}
    return _surest_of_one_card(
        readings,
        out,
        lambda r: r.rank is not None and r.confidence >= SURE_ENOUGH and r.label not in named,
    )


def _surest_of_one_card(
    readings: list[CardReading], out: list[CardReading], wanted: Callable[[CardReading], bool]
) -> CardReading | None:
    """The surest of the `readings` that are `wanted` and no card of `out` read for sure
    (`SAME_CARD`), where all of them name one card; else None."""
    sure = [r.corners for r in out if reads_sure(r)]
    found = [
        r
        for r in readings
        if wanted(r) and not any(quad_iou(r.corners, q) >= SAME_CARD for q in sure)
    ]
    if len({r.label for r in found}) != 1:
        return None
    return max(found, key=lambda r: r.confidence)
