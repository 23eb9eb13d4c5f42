"""A card outlined together with part of its neighbour: cut out of that quad where only
one card-shaped end of it reads a game card or a back for sure.

Cards laid in a row touch or overlap their neighbour, and a finder can outline a card and
a strip of the card beside it as one quad, 1.3 to 1.7 times as wide as the card: it
reads as no card for sure, and neither its halves nor its fanned ends (`pairs.py`) both
read a card. Such a quad, of the learned finder (after the side search and the pairs) or
of the edge finder where the net sees card under it, read unsure and not lying mostly on
a card read for sure, is cut to a card's shape from each side, the card lying along it or
across it (`geometry.card_cut`), where it is wider than the nearest card read for sure
(`WIDER_THAN_A_CARD`). A part that reads a game card or a back at `SURE_ENOUGH` and is not
a card already read for sure stands for the quad (`pairs.stand_for`), where every part
that reads so lies on the same card (`PARTS_AGREE`); a game card read a little less
surely by two parts stands too (`AGREED_GAME`).

Measured (2026-12-06, fifty-fifth stop; OpenCV 5.0, the tuning sets): playing row
tables 1,180 -> 1,184 of 1,227 cards right (100 from 4,450,000) and 1,812 -> 1,818 (150
from 4,450,100), tables of designed backs 1,229 -> 1,230 (a back); wrong game ranks,
game cards on no card and phantoms as before; 300 playing card scenes, 100 tables with
jokers, 60 heaps, 200 empty tables, 100 animal row tables, 150 animal scenes and the real
train split (in a webcam's frame at 60, 80, 100 and 150 px and as photographed, at
several turns) read exactly as before. Why the rows lose cards, as `python -m
models.train lost --rows` lists them: of the 46 cards those 100 row tables lost on
2026-12-06 (fifty-fourth stop), 24 were outlined with part of a neighbour.

Why game cards and backs only: a 6..King cut out so stood for 5 more row cards, but on
the real train photo IMG_2626 (turned 90, its cards 80 px long) a King cut out of a quad
over it and the Ace half under it explained the net's card there, the corner-index
search (`doubt.unexplained`) no longer looked, and the Ace it had read was lost. A
6..King is no card of the game; the Ace is.

So a 6..King is cut out last (`cut_out_plain_cards`, 2026-12-07, seventieth stop): after
every search for game cards (at the ends of unsure quads, between two cards of a row, by
corner index), on a steady frame, of a quad still unsure that no game card's reading
overlaps (`GAME_NEAR`), where its card-shaped parts read a 6..King for sure and none a
game card or a back elsewhere. A King laid over the card before it in a row, outlined
with that card's strip in sight, was lost (tuning row tables 4,450,022 and 4,450,060).
Measured (OpenCV 5.0, the tuning sets): playing row tables 1,227 -> 1,229 of 1,271
(100 from 4,450,000), 1,907 -> 1,909 (150 from 4,450,100) and 2,496 -> 2,504 (200 from
4,450,250), no table losing a card; every other set exactly as before, the real train
split at 80 px too, where IMG_2626's Ace is read as before. Cut out where the game cards
and backs are (before those searches, read at 0.95) instead: 9 cards more on those row
tables, but 11 tables lose a card (on 3 of the 4 looked at, a game card the searches
no longer found under the 6..King), and the real train split at 80 px, turned 90
degrees, loses a game card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np

from ..geometry import card_cut, quad_iou, wider_than_nearest
from ..types import OTHER, CardReading
from .levels import SAME_CARD, SURE_ENOUGH, preference, reads_sure
from .pairs import stand_for
from .reading import FrameReads

# A quad is cut only where its short side is this many times the short side of the
# nearest card read for sure or more: a card and a fifth of its neighbour. A quad of one
# card has card-shaped halves too (`geometry.card_cut` keeps 45% to 85% of a quad), and
# half of a 6..King can read as a game card. With 6..Kings cut out too and parts agreeing
# at 0.3 (before both were settled), 100 playing tuning row tables read 5 cards more at
# 1.2, 4 at 1.3.
WIDER_THAN_A_CARD = 1.2

# Every part read for sure must overlap the best of them this much (IoU), or none stands:
# parts at both ends of a quad read for sure leave open which end is the card. Found on
# tuning row table 4,450,026 (6..Kings cut out too): a King and a 5 of clubs half under
# it, outlined as one nearly square quad, whose part lying along it read the King at
# IoU 0.87 and whose part lying across it the same at 0.5, both at 0.97; the part across
# stood at 0.3 and 0.5, and the King, read there before, was lost.
PARTS_AGREE = 0.6

# A game card read by two parts or more at this confidence, where no part names another
# game card so, stands too: the placed quad's part and the rough rectangle's, each a
# little off the card, read it just under SURE_ENOUGH. Tuning row table 4,450,047: a 3 of
# spades 91 px long, wholly in sight on a dark, blurred table, outlined with part of the
# 4 of hearts beside it, read at 0.88 and 0.87 by the two parts on it. Measured: 100
# playing tuning row tables 1,183 -> 1,184, every other tuning set of this module's
# figures exactly as before; at 0.6, a 5 of clubs 77% in sight was lost for it.
AGREED_GAME = 0.75

# A 6..King is cut out (`cut_out_plain_cards`) only of a quad that no game card's reading
# overlaps this much (IoU): a 6..King standing for a quad sets its unsure readings aside,
# and a game card on it, however unsure, is worth more than the 6..King.
GAME_NEAR = 0.1


def cut_out_cards(frame: FrameReads, kept: list[CardReading]) -> list[CardReading]:
    """`kept`, where an unsure quad wider than a card (the learned finder's with a rough
    reading in `frame.rough`, by learned index, placed and rough read unsure; or the edge
    finder's where the net agrees, read unsure) has one card-shaped part that reads a game
    card or a back for sure (`_card_in`), with that card in its place."""
    return _cut_out(frame, kept, _game_or_back)


def cut_out_plain_cards(frame: FrameReads, kept: list[CardReading]) -> list[CardReading]:
    """`kept` (a frame's readings after every search for game cards), where an unsure quad
    wider than a card, on which no game card is read (`GAME_NEAR`), has one card-shaped
    part that reads a 6..King for sure and none a game card or a back elsewhere
    (`_card_in`), with that 6..King in its place."""
    games = [r.corners for r in kept if r.rank is not None]
    return _cut_out(
        frame,
        kept,
        lambda card: _game_or_back(card) or card.label == OTHER,
        lambda card: card.label == OTHER,
        lambda whole: any(quad_iou(whole[0], game) >= GAME_NEAR for game in games),
    )


def _game_or_back(card: CardReading) -> bool:
    """Whether `card` is a game card or a back: what a card cut out first may be (a
    6..King only last, `cut_out_plain_cards`)."""
    return card.rank is not None or card.face == "down"


def _cut_out(
    frame: FrameReads,
    kept: list[CardReading],
    read_as: Callable[[CardReading], bool],
    stands: Callable[[CardReading], bool] = lambda card: True,
    passed_over: Callable[[Sequence[np.ndarray]], bool] = lambda whole: False,
) -> list[CardReading]:
    """`kept`, where an unsure quad wider than a card (`FrameReads.unsure_outlines`), not
    `passed_over`, has a card cut out of it that is `read_as` (`_card_in`) and `stands`,
    with that card in its place."""
    sure = [r.corners for r in kept if reads_sure(r)]
    out = list(kept)
    for whole in frame.unsure_outlines(sure):
        if not wider_than_nearest(whole[0], sure, WIDER_THAN_A_CARD) or passed_over(whole):
            continue
        card = _card_in(frame, whole, [r.corners for r in out if reads_sure(r)], read_as)
        if card is not None and stands(card):
            out = stand_for(out, whole, [card])
    return out


def _card_in(
    frame: FrameReads,
    whole: Sequence[np.ndarray],
    sure: Sequence[np.ndarray],
    read_as: Callable[[CardReading], bool],
) -> CardReading | None:
    """The best reading of the card-shaped parts of the quads `whole` (`geometry.card_cut`)
    that are no card of `sure` (at `SAME_CARD`) and are `read_as` at `SURE_ENOUGH` (a game
    card two parts name at `AGREED_GAME`, none naming another), where every such part
    lies on that one card (`PARTS_AGREE`)."""
    parts = [part for quad in whole for part in card_cut(quad)]
    read = [
        r for r in frame.read(parts) if not any(quad_iou(r.corners, q) >= SAME_CARD for q in sure)
    ]
    named = Counter(r.label for r in read if r.rank is not None and r.confidence >= AGREED_GAME)
    # where the parts name one game card only, and two of them or more
    agreed = {label for label, count in named.items() if count >= 2} if len(named) == 1 else set()
    standing = [
        r for r in read if read_as(r) and (r.confidence >= SURE_ENOUGH or r.label in agreed)
    ]
    best = max(standing, key=preference, default=None)
    if best is None or any(quad_iou(best.corners, r.corners) < PARTS_AGREE for r in standing):
        return None
    return best
