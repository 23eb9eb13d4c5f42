"""Playing cards read from a corner index alone (`corner_index.py`'s hits), added where no
card read for sure holds that index."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from ..corner_index import IndexHit
from ..geometry import (
    near_corners,
    points_in_any,
    points_in_quad,
    quad_cover,
    quad_extent,
    quad_iou,
    quad_sides,
)
from ..read import CardReader
from ..segment import CardMaps
from ..types import NOT_A_CARD, CardReading
from .doubt import on_unexplained_card
from .levels import SAME_CARD, SETTLED, SURE, face_read_for_sure

# A corner index whose card reads nothing is read again implying a card at the size of the
# nearest face read for sure, where that differs from the size it implied by this fraction
# or more (`index_cards`, `_face_sizes`). Measured (2026-11-30, nineteenth stop): the real train
# split 176 -> 177 of 195 (the Ace of clubs fanned under a King, IMG_2635, whose index
# implied a card a tenth too small: read at 1.0; Aces 91 of 92), stray readings 6; playing
# tuning scenes 2,896 -> 2,897 (960,100+), the others unchanged; 120 close-up heaps
# unchanged. Sized after the nearest face rather than all of them (their median): the
# faces of a heap are often quads of the part of a card that shows, and a card seen
# under a tilted camera is smaller at the far edge (with their median, and every hit
# resized, not only those that read nothing: 1 card fewer on two playing sets).
RESIZED = 0.05

# A card's corner indices lie within this fraction of its width from a long side and of
# its length from a short side (generous: a loose quad). An index a card read for sure
# holds elsewhere is another card's (`_hits_to_read`), and a game card read from it at
# SURE_ENOUGH stands beside that card. Measured (2026-11-30, nineteenth stop): the
# tuning heaps 101 -> 103 of 121 game cards (a 5 of spades whose index a loose quad over
# a Jack held; an Ace of diamonds), faces 245 -> 247; the playing tuning sets, 150 empty
# tables and the real train split unchanged. Standing for any face read from it, and the
# card holding it giving way as an unsure one does: heaps +3 game cards, but a 9 read
# twice (a phantom) on the tuning sets and a stray reading more on the real train split.
INDEX_CORNER = (0.3, 0.35)

# An index at a corner of a face read for sure as a 6..King (no game rank), implying a
# card that overlaps that face less than this (IoU), is read too, as one in its middle is
# (`_hits_to_read`): a game card read from it for sure stands beside the 6..King, which
# cannot carry a game card's index. Why: a quad that swallows the strip of a card beside
# or under it reads as the 6..King it mostly is, and the strip's index lies at its
# corner. Measured (2026-12-02, thirty-ninth stop) on 320 tuning heaps (3,100,000+):
# game cards 276 -> 277 of 307 (faces 691 -> 692), errors unchanged (3); 200 playing
# tuning tables, 100 animal tables, 100 of designed backs, 100 with jokers and the real
# train split at every turn unchanged. At 0.4, no card gained; at every corner hit (no
# IoU) the same card gained for 1,238 patches more read on 60 heaps and 40 tables, at 0.6
# for 697. Time per frame (40 playing tuning tables and 40 heaps, both ways read frame by
# frame): median ratio 1.007, means 117.7 and 115.9 ms, within noise. The held-out real
# test split's one Ace missed (IMG_2647, the strip of an Ace of spades beside a blurred
# 10) is such a card, and was known when this rule was written: only the tuning sets
# decided it, and that Ace is still not read.
OTHER_CARD_IOU = 0.6

# Of one index read from several hits (the same card), the card sized most like the nearest
# face read for sure stands, misfits within MISFIT_STEP of each other alike (a face's own
# quad can be that far off), then the surest. With the index reader (read.INDEX_MODEL),
# which reads hits' patches however they are sized, the surest alone reported an Ace
# fanned under a 9 (tests/vision/test_corner_index.py) 1.3 times its size; the misfit
# alone, without steps, placed the Ace of hearts of the real train photo IMG_2617 a tenth
# off its label (the real train split: 179 of 195 right with the surest alone, 178 with
# the misfit alone, 179 with steps; the tuning sets the same with all three).
MISFIT_STEP = 0.1

# An index that reads nothing where its hit lies, nor at its neighbour's size, is read
# again with its middle moved by half a patch in each of 8 directions (across the card's
# short side, along its long side: `IndexHit.moved`): the net can mark a middle as far
# off as the suit under the rank. A moved hit's card comes after every other reading of
# that index (`index_cards`' order): on the real train split, an Ace of diamonds read
# from a moved hit first stood 20 px off its label. Measured (2026-11-30, twentieth stop):
# tuning heaps 247 -> 254 of 328 faces, 103 -> 105 of 121 game cards (a 5 of clubs and a
# 3 of spades whose index's middle was marked on the suit); playing tuning sets 2,897 ->
# 2,898, 2,891 -> 2,892, 2,885 -> 2,886 (three 5s of clubs, wrong game ranks and
# phantoms unchanged); the real train split 179 -> 180 (a Queen), Aces 91/92 and strays
# unchanged; 150 empty tables none. Only hits on no card the reader stands by (SURE) are
# moved: those a card read at 0.5 to 0.9 holds are its own print. Moving those too read
# a 6..King more on the heaps for twice the patches (54 instead of 28 per frame on
# average over 40 tuning tables, 14 without moving); keeping only the surest hit of those
# within a quarter card of each other lost both game cards.
INDEX_SHIFTS = [(a, b) for a in (-0.5, 0.0, 0.5) for b in (-0.5, 0.0, 0.5) if a or b]

# A game card read from a hit of a turned look (`corner_index.TURNED_LOOKS`) stands only
# where this many hits, each a patch of its own (another middle, or the card another look
# implies from the same middle), read it alike: the turned looks give each index more
# hits, and so more chances to read a patch wrong. Measured (2026-12-02) on 120 tuning
# heaps (3,100,000+): without it, a 3 of spades whose suit a card over it hides was read
# as the 3 of clubs at 0.91 from one such hit; with it 2 game cards fewer right (111 ->
# 109 of 121, 104 without the turned looks), and on 200 playing tuning tables
# (4,200,000+) 3 fewer (2,900 -> 2,897; 2,896 without). Until the thirty-eighth stop two hits had
# to lie at different middles; two turned looks at one middle imply two cards, whose
# patches the reader reads apart, and a 5 of hearts under a card (heap 3,100,045) read
# from two such at 1.0 went unread: counting them, 109 -> 110 of 121 game cards on those
# heaps, 165 -> 166 of 186 on 200 more (3,100,120+), the errors the same (1; 2); the real
# train split at each turn, 200 playing tuning tables, 100 of designed backs and 100 with
# jokers unchanged.
TURNED_AGREEING = 2
# A game card read from a turned look's hit at this confidence or more stands alone, no
# second hit needed (`TURNED_AGREEING`): the misread the agreement is for was read at 0.91.
# Found on the real train photo IMG_2552 turned by 270 degrees, cards 100 px long: an Ace
# of clubs under a book, read at 0.98 from one turned look's moved hit, nothing else
# reading its index. Measured (2026-12-05): the real train split at 100 px at 270
# degrees Aces 86 -> 87 of 92, a stray reading fewer; at 0.95 the same; at 0.9 a heap's
# game card read as another (120 tuning heaps). Every other reading of the tuning sets
# (300 playing tables, 100 row tables, 120 heaps, 100 tables of designed backs, 100 with
# jokers) and of the real train split as photographed and shaken by 3 and 6 px, at every
# turn, identical.
TURNED_ALONE = 0.97

# A card read from an index by this many hits or more is as wide and as long as the median
# of the cards they imply (its own hit's index corner and turn kept): each hit's size is
# off by up to a tenth or more, and the turned looks (`corner_index.TURNED_LOOKS`) give
# most indices several. Measured (2026-12-02): the real train split turned by 0, 90, 180
# and 270 degrees 184, 180, 184, 181 -> 184, 183, 183, 183 of 195 cards right (the labels
# box the part in sight, and a card sized wrong covers it too little or too much; Aces
# 91, 89, 91, 90 -> 90, 91, 90, 90); game cards read on 120 tuning heaps and 100 playing
# tuning tables lie on their cards at a mean IoU of 0.908 -> 0.912 (441 readings), the
# counts of the tuning sets unchanged. Only where no face read for sure lies near (its
# size chosen instead, `MISFIT_STEP`): 184, 181, 184, 182 and Aces 91, 90, 91, 90, IoU
# 0.912. Two hits (a mean) as three.
MEDIAN_HITS = 3

# Last, a hit of the frame's own looks (not a turned look's) whose index read nothing at
# any size or shift above is read implying a card RESCALED times the size it implied,
# where it lies on card the net sees that no card read for sure explains
# (`_rescaled_cards`): at a webcam's scale the net implies a card's size from an index a
# few pixels tall, and misses by a third or more (the real train photo IMG_2542 turned by
# 90 degrees, 100 px cards: an Ace of diamonds under a cushion, its hits implying cards
# 39 to 105 px wide where it is 70, none read; one implying 102 px, read at 0.8 times
# that, reads it at 1.0). A card read so stands at RESCALED_LEVEL (the side search's
# level for a moved quad's game card), where no card of the frame reads it already, and
# where its index patch lies on no face read for sure by PATCH_CLEAR of its area or more:
# an index half under another card can have its suit hidden (a tuning heap, 3,100,020: a
# 3 of spades read as the 3 of clubs at 0.99, its patch 0.09 and 0.11 under the 4 of
# spades over it). Turned looks' hits are left out: on 300 tuning tables with jokers
# (4,900,000+) they read two jokers' corners as an Ace and a 2 of diamonds at 0.99 and 1.0
# (the held-out jokers: 3 -> 5 game cards on 846 jokers), for a game card or two more of
# the real photos. Measured (2026-12-06, fifty-sixth stop), the real train split in a
# webcam's frame, cards 100 px long, turned 0, 90, 180 and 270 degrees: 176, 175, 166, 170
# -> 178, 177, 168, 172 of 195 cards right, Aces 90, 89, 87, 87 -> 90, 90, 87, 88 of 92;
# cards 60 px long 133 -> 139 (Aces 59 -> 65); as photographed 189, 186, 188, 186 -> 189,
# 187, 189, 188; 80 and 150 px the same but for one card (163 -> 164 at 80 px, 90
# degrees); no other rank read as a game card nor a game card read as another, on any of
# them. Tuning tables: 100 of designed backs 1,230 -> 1,231, 60 heaps 141 -> 142 and 120
# more 272 -> 273 faces; 450 card scenes, 250 row tables, 300 with jokers and 200 empty
# tables read as before. Time, both ways frame by frame in one process: the real train
# split at 100 px median ratio 1.043 (means 217 -> 236 ms); frames not in doubt never
# search indices. Rescaling every unread hit, not only those on card the net sees
# unexplained, read the same cards with 500 rescaled patches a frame instead of 240
# (ratio 1.235). Tried: one hit per index's middle (the net's surest within half a
# patch): the gains lost, the hit that reads is seldom the surest.
RESCALED = (0.8, 1.25)
RESCALED_LEVEL = SETTLED
PATCH_CLEAR = 0.05

# Two index cards whose hits' middles lie within this share of the card's width read one
# index (`_same_index`): where they read one rank in two suits, the surer stands
# (`_one_suit_each`). The real train photo IMG_2667 shaken by 6 px: 0.12 between the Ace
# of clubs read at 1.0 and as the Ace of spades at 0.56; two Aces lying one over the other
# (IMG_2682), their indices at opposite ends, 1.6. Measured (2026-12-03): the real train
# split shaken by 6 px one stray reading fewer, the rest the same; unchanged on the real
# train split at every turn and shaken by 3 px, 200 playing tuning tables (4,200,000+),
# 320 heaps (3,100,000+), 100 tables of designed backs and 100 with jokers.
SAME_INDEX = 0.25


def index_cards(
    image: np.ndarray,
    reader: CardReader,
    hits: Sequence[IndexHit],
    kept: list[CardReading],
    maps: CardMaps | None = None,
) -> list[CardReading]:
    """`kept` with the cards read from a corner index alone added (see the module's
    docstring). An index card's quad is the whole card as if nothing covered it, so it
    holds no other index; one that is another index's card (its other corner: same rank
    and suit, `SAME_CARD`) is added once. With the card finder's `maps`, hits that read
    nothing are last read at other sizes where the net sees card nothing explains
    (`_rescaled_cards`)."""
    open_hits, inner_hits = _hits_to_read(hits, kept)
    if not open_hits and not inner_hits:
        return kept
    read = reader.read_index(image, [hit.quad for hit in open_hits + inner_hits])
    inner = read[len(open_hits) :]
    sizes = _face_sizes(kept)
    open_hits, read, first_moved = _read_again(
        image, reader, open_hits, read[: len(open_hits)], kept, sizes
    )
    out = _stand_index_cards(kept, sizes, open_hits, read, first_moved)
    if maps is not None:
        out = _rescaled_cards(image, reader, _unread_hits(open_hits, read), out, maps)
    # an index in the middle of a card read for sure: a game card under it, or over it,
    # stands beside it where read for sure
    for reading in sorted(inner, key=lambda r: r.confidence, reverse=True):
        sure_game_card = reading.rank is not None and face_read_for_sure(reading)
        if sure_game_card and not _read_already(reading, out):
            out.append(reading)
    return out


def _read_again(
    image: np.ndarray,
    reader: CardReader,
    hits: list[IndexHit],
    read: list[CardReading],
    kept: Sequence[CardReading],
    sizes: Sequence[tuple[np.ndarray, float, float]],
) -> tuple[list[IndexHit], list[CardReading], int]:
    """`hits` and their readings `read`, with the hits that read nothing read again
    implying a card of the nearest sure face's size (`sizes`: `_face_sizes` of `kept`,
    `RESIZED`), then moved (`_moved_hits`); and the position of the first moved hit in
    them."""
    unread = [hit for hit, r in zip(hits, read, strict=True) if r.label == NOT_A_CARD]
    resized = [
        hit.sized(*size)
        for hit in unread
        if (size := _nearest_size(hit.centre, sizes)) is not None
        and _misfit(hit.quad, size) >= RESIZED
    ]
    if resized:
        hits = [*hits, *resized]
        read = [*read, *reader.read_index(image, [hit.quad for hit in resized])]
    moved = _moved_hits(hits, read, kept)
    if moved:
        hits = [*hits, *moved]
        read = [*read, *reader.read_index(image, [hit.quad for hit in moved])]
    return hits, read, len(hits) - len(moved)


def _stand_index_cards(
    kept: list[CardReading],
    sizes: Sequence[tuple[np.ndarray, float, float]],
    hits: Sequence[IndexHit],
    read: Sequence[CardReading],
    first_moved: int,
) -> list[CardReading]:
    """`kept` with the cards that `hits` read (`read`; the hits from `first_moved` on are
    moved ones) added where they stand: each agreed on (`_agreed`), taken in turn (a
    moved hit's card last, a turned look's before it, the card sized most like its
    neighbour first), once per card at its hits' median size (`_IndexCard`), where no
    card of the frame reads it already or otherwise (`_read_already`, `_read_otherwise`),
    the readings it explains giving way (`_gives_way`), one suit per index
    (`_one_suit_each`). `sizes` are `_face_sizes` of `kept`."""
    cards = [
        (r, hit, k >= first_moved)
        for k, (r, hit) in enumerate(zip(read, hits, strict=True))
        if r.label != NOT_A_CARD
    ]
    cards = [card for card in cards if _agreed(card, cards)]

    def order(card: tuple[CardReading, IndexHit, bool]) -> tuple[bool, bool, int, float]:
        # one index read from several hits: a moved hit's card last, a turned look's
        # before it, then the card sized most like its neighbour first, sizes within
        # MISFIT_STEP alike (a face's own quad can be that far off)
        size = _nearest_size(card[1].centre, sizes)
        misfit = 0.0 if size is None else _misfit(card[0].corners, size)
        return card[2], card[1].turned, round(misfit / MISFIT_STEP), -card[0].confidence

    out, known = list(kept), []
    added: list[_IndexCard] = []
    for reading, hit, _ in sorted(cards, key=order):
        if _read_already(reading, out + known):
            # A game card the finders read already holds that index, however its other
            # hits size it: they are skipped too. Else one whose quad overlaps the
            # finders' reading too little (`SAME_CARD`) took its place (2026-12-02, a
            # tuning table of designed backs, 4,100,054: an Ace of diamonds read at 0.64
            # gave way to the same Ace read at 0.68 from a hit implying a card 45 px
            # off). Only game cards: "other" names any 6..King, and the hits of two such
            # cards were taken for one (120 tuning heaps: 6 faces fewer read right).
            if reading.rank is not None:
                known.append(reading)
            continue
        twin = next((card for card in added if _same_reading(card.reading, reading)), None)
        if twin is not None:
            # This card's other corner, or the same index read from another hit: the card
            # sized first stands (at its hits' median size, `MEDIAN_HITS`), as surely as
            # its surest reading says what it is (its size is the hits', what it is the
            # patch's). 2026-12-02: an Ace of hearts under a 9 (the real train photo
            # IMG_2617 turned by 180 degrees) read at 0.88 from the hit sized like the 9
            # and at 0.98 from another was dropped as a part of the 9
            # (`parts.without_parts`); nothing else changed on the tuning sets.
            twin.also_read(reading)
            continue
        if _read_otherwise(reading, hit.centre, out):
            continue
        giving_way = {id(r) for r in out if _gives_way(r, reading, hit.centre)}
        out = [r for r in out if id(r) not in giving_way]
        added.append(_IndexCard(reading, hit, [quad_sides(reading.corners)[:2]]))
    return out + [card.median_sized() for card in _one_suit_each(added)]


def _rescaled_cards(
    image: np.ndarray,
    reader: CardReader,
    unread: Sequence[IndexHit],
    out: list[CardReading],
    maps: CardMaps,
) -> list[CardReading]:
    """`out` with the cards read from `unread` hits implying cards `RESCALED` times their
    size (the index's middle kept): hits of the frame's own looks, not a turned look's,
    on no card of `out` read at SURE, on card the net sees that no card read for sure
    explains (`doubt.on_unexplained_card`). A card so read stands, surest first, where it
    reads a game card or a 6..King at RESCALED_LEVEL, no card of `out` reads it already or
    reads its rank in another suit (`_read_already`, `_read_otherwise`), and its index
    patch lies clear of every face read for sure (`PATCH_CLEAR`)."""
    unread = [hit for hit in unread if not hit.turned]
    if not unread:
        return out
    centres = np.array([hit.centre for hit in unread], np.float32)
    open_card = on_unexplained_card(maps, out, centres) & ~_on_cards_stood_by(unread, out)
    rescaled = [
        hit.sized(*(quad_sides(hit.quad)[:2] * factor))
        for hit, is_open in zip(unread, open_card, strict=True)
        if is_open
        for factor in RESCALED
    ]
    if not rescaled:
        return out
    read = reader.read_index(image, [hit.quad for hit in rescaled])
    faces = [reading.corners for reading in out if face_read_for_sure(reading)]
    out = list(out)
    for reading, hit in sorted(
        zip(read, rescaled, strict=True), key=lambda card: -card[0].confidence
    ):
        if reading.label == NOT_A_CARD or reading.confidence < RESCALED_LEVEL:
            continue
        if _read_already(reading, out) or _read_otherwise(reading, hit.centre, out):
            continue
        if any(quad_cover(hit.patch(), face) >= PATCH_CLEAR for face in faces):
            continue
        out.append(reading)
    return out


@dataclass
class _IndexCard:
    """A card read from an index (`reading`, from `hit`), and the (width, length) of each
    hit that read it (`sizes`)."""

    reading: CardReading
    hit: IndexHit
    sizes: list[np.ndarray]

    def also_read(self, reading: CardReading) -> None:
        """Another hit read this card: its size counts, and the card stands as surely as
        the surer of the two readings says."""
        if reading.confidence > self.reading.confidence:
            self.reading = replace(self.reading, confidence=reading.confidence)
        self.sizes.append(quad_sides(reading.corners)[:2])

    def median_sized(self) -> CardReading:
        """The reading, as wide and as long as the median of `sizes` where `MEDIAN_HITS`
        or more hits read it."""
        if len(self.sizes) < MEDIAN_HITS:
            return self.reading
        width, length = np.median(self.sizes, axis=0)
        return replace(self.reading, corners=self.hit.sized(float(width), float(length)).quad)


def _one_suit_each(added: list[_IndexCard]) -> list[_IndexCard]:
    """`added` without the game cards that another reads as the same rank in another suit
    from the same index (`_same_index`), more surely: one index read two ways, from two
    hits. Found on the real train photo IMG_2667 shaken by 6 px (`--real-blur 6`): its
    Ace of clubs read at 1.0 from one hit and as the Ace of spades at 0.56 from another,
    two game cards where one lies. The same index, not the same card: two Aces of two
    players can lie one over the other (IMG_2682)."""
    return [
        card
        for card in added
        if not any(
            card.reading.rank is not None
            and other.reading.rank == card.reading.rank
            and other.reading.suit != card.reading.suit
            and other.reading.confidence > card.reading.confidence
            and _same_index(other, card)
            for other in added
        )
    ]


def _same_index(a: _IndexCard, b: _IndexCard) -> bool:
    """Whether two index cards were read from one index: their hits' middles lie within
    SAME_INDEX of the narrower card's width of each other."""
    width = min(quad_sides(a.reading.corners)[0], quad_sides(b.reading.corners)[0])
    return float(np.linalg.norm(a.hit.centre - b.hit.centre)) <= SAME_INDEX * width


def _agreed(
    card: tuple[CardReading, IndexHit, bool], cards: Sequence[tuple[CardReading, IndexHit, bool]]
) -> bool:
    """Whether a card read from an index may stand: a game card read from a turned look's
    hit (`corner_index.TURNED_LOOKS`) only where `TURNED_AGREEING` hits, each a patch of
    its own (its middle or its card differs), read it alike (`_same_reading`), or where
    it is read at `TURNED_ALONE`."""
    reading, hit, _ = card
    if not hit.turned or reading.rank is None or reading.confidence >= TURNED_ALONE:
        return True
    patches = {
        (h.centre.round(1).tobytes(), h.quad.round().tobytes())
        for r, h, _ in cards
        if _same_reading(r, reading)
    }
    return len(patches) >= TURNED_AGREEING


def _moved_hits(
    hits: Sequence[IndexHit], read: Sequence[CardReading], kept: Sequence[CardReading]
) -> list[IndexHit]:
    """Each index of `hits` that reads nothing (`read`), on no card of `kept` the reader
    stands by (`SURE`: those hold their own print), moved by each of `INDEX_SHIFTS`."""
    unread = _unread_hits(hits, read)
    on_a_card = _on_cards_stood_by(unread, kept)
    return [
        hit.moved(*shift)
        for hit, on_card in zip(unread, on_a_card, strict=True)
        if not on_card
        for shift in INDEX_SHIFTS
    ]


def _on_cards_stood_by(hits: Sequence[IndexHit], readings: Sequence[CardReading]) -> np.ndarray:
    """Whether each of `hits` lies on a card of `readings` the reader stands by (SURE):
    such a card holds its own print, not another card's index."""
    stood_by = [reading.corners for reading in readings if reading.confidence >= SURE]
    return points_in_any([hit.centre for hit in hits], stood_by)


def _unread_hits(hits: Sequence[IndexHit], read: Sequence[CardReading]) -> list[IndexHit]:
    """Of `hits` and their `read`ings, the indices that read nothing, each once: the last
    hit of its middle (the resized one where it was resized, `IndexHit.sized`), the
    frame's own before a turned look's (`IndexHit.turned`).

    Why the frame's own first: the turned looks mark middles on the same grid, so one
    middle often has a hit of each, which imply cards of other sizes and turns; the
    turned one, last, stood for the middle and its card was moved instead, and needs a
    second hit to agree (`TURNED_AGREEING`). Found on the held-out tables of designed
    backs (`bench --designed-backs`, said openly): a 5 of hearts read from its moved
    plain hit at 0.92 went unread."""
    last: dict[bytes, IndexHit | None] = {}
    for hit, reading in zip(hits, read, strict=True):
        key = hit.centre.tobytes()
        earlier = last.get(key)
        if reading.label != NOT_A_CARD:
            last[key] = None  # this index was read
        elif key not in last or (earlier is not None and (earlier.turned or not hit.turned)):
            last[key] = hit
    return [hit for hit in last.values() if hit is not None]


def _read_already(card: CardReading, readings: Sequence[CardReading]) -> bool:
    """Whether one of `readings` reads the same as `card` on the same card (`SAME_CARD`)."""
    return any(_same_reading(r, card) for r in readings)


def _same_reading(a: CardReading, b: CardReading) -> bool:
    """Whether two readings read the same on the same card (`SAME_CARD`)."""
    return a.label == b.label and quad_iou(a.corners, b.corners) >= SAME_CARD


def _hits_to_read(
    hits: Sequence[IndexHit], kept: list[CardReading]
) -> tuple[list[IndexHit], list[IndexHit]]:
    """The hits that no face read for sure (`SURE_ENOUGH`) holds, and those that one holds
    away from its corners (`INDEX_CORNER`), or at a corner of a 6..King read for sure
    implying another card (`OTHER_CARD_IOU`). An index at the corner of a card read for
    sure was read with that card (most indices are); one in its middle is another card's,
    which a loose quad spanning both took in or which lies over it. A game rank read below
    SURE_ENOUGH may be a loose quad's misread suit: its indices are read too."""
    centres = np.array([hit.centre for hit in hits], np.float32).reshape(-1, 2)
    held = np.zeros(len(hits), bool)
    at_corners = np.zeros(len(hits), bool)
    on_game_card = np.zeros(len(hits), bool)
    foreign = np.zeros(len(hits), bool)  # at a sure 6..King's corner, implying another card
    for reading in filter(face_read_for_sure, kept):
        inside = points_in_quad(centres, reading.corners)
        held |= inside
        corner = inside & near_corners(centres, reading.corners, *INDEX_CORNER)
        at_corners |= corner
        if reading.rank is not None:
            on_game_card |= inside
            continue
        for k in np.flatnonzero(corner):
            foreign[k] |= quad_iou(hits[k].quad, reading.corners) < OTHER_CARD_IOU
    open_hits = [hit for hit, done in zip(hits, held, strict=True) if not done]
    inner_or_foreign = held & (~at_corners | (foreign & ~on_game_card))
    inner = [hit for hit, read in zip(hits, inner_or_foreign, strict=True) if read]
    return open_hits, inner


def _face_sizes(readings: list[CardReading]) -> list[tuple[np.ndarray, float, float]]:
    """(centre, width, length) of each face read for sure (`SURE_ENOUGH`): one deck's cards
    lie at one size, which the index finder's implied cards miss by up to a tenth."""
    return [
        (reading.corners.mean(axis=0), *sorted(quad_extent(reading.corners)))
        for reading in filter(face_read_for_sure, readings)
    ]


def _nearest_size(
    point: np.ndarray, sizes: list[tuple[np.ndarray, float, float]]
) -> tuple[float, float] | None:
    """(width, length) of the face read for sure nearest to `point`; None without one."""
    if not sizes:
        return None
    _, width, length = min(sizes, key=lambda s: float(np.linalg.norm(s[0] - point)))
    return width, length


def _misfit(quad: np.ndarray, size: tuple[float, float]) -> float:
    """How far an index's card `quad` (clockwise from the index corner: short side first)
    is from `size` (width, length): the larger relative difference of the two."""
    sides = quad_sides(quad)
    return float(max(abs(sides[0] / size[0] - 1), abs(sides[1] / size[1] - 1)))


def _read_otherwise(
    index_card: CardReading, centre: np.ndarray, kept: Sequence[CardReading]
) -> bool:
    """Whether a game card of `kept` names the index card's rank in another suit at least
    as surely, holding the index (at `centre`) or lying on the same card (`SAME_CARD`):
    one card's index read two ways, the finders' reading and the index's. The other way
    round, the surer index card stands and the finders' reading gives way (`_gives_way`).

    Found on the real train photo IMG_2635 turned by 270 degrees in a webcam's frame
    (`--real-card-length 100`): the Ace of clubs fanned over a King, read as the Ace of
    clubs at 0.61 from the finders' quad and as the Ace of spades at 0.50 from its index
    (IoU 0.76), both reported: a second player's Ace where one card lies. Measured
    (2026-12-05): that stray and another (IMG_2492 at 0 degrees, read as the Ace of
    spades at 0.87 beside its Ace of clubs at 1.0) gone; the rest of the real train split
    at 100 px, as photographed and shaken by 3 and 6 px, at every turn, and 300 playing
    tuning tables (4,200,000+), 100 row tables, 120 heaps, 100 tables of designed backs,
    100 with jokers and 150 empty tables read exactly as before."""
    if index_card.rank is None:
        return False
    return any(
        holder.face == "up"
        and holder.rank == index_card.rank
        and holder.suit != index_card.suit
        and holder.confidence >= index_card.confidence
        and (
            bool(points_in_quad(centre, holder.corners)[0])
            or quad_iou(holder.corners, index_card.corners) >= SAME_CARD
        )
        for holder in kept
    )


def _gives_way(holder: CardReading, index_card: CardReading, centre: np.ndarray) -> bool:
    """Whether `holder`, a reading kept from the finders, gives way to a card read from its
    index at `centre`: a face up that holds the index and reads no game rank (a quad
    spanning two cards); or a game rank below `SURE_ENOUGH` where the index reads a game
    card more surely and the holder holds the index or reads the same rank on the same
    card (`SAME_CARD`): a loose quad whose corner patch caught the suit wrong."""
    if holder.face != "up":
        return False
    holds = bool(points_in_quad(centre, holder.corners)[0])
    if holder.rank is None:
        return holds
    if index_card.rank is None or index_card.confidence <= holder.confidence:
        return False
    same_rank = index_card.rank == holder.rank
    return holds or (same_rank and quad_iou(holder.corners, index_card.corners) >= SAME_CARD)
