"""The finders' looks at a frame: the learned finder's (its net's maps, rough rectangles
and placed quads), its second, closer look where card is left unexplained, and the edge
finder's quads with whether the net sees card under each."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from ..colour_blobs import BLOB_ASPECT
from ..detect import MAX_OPPOSITE_RATIO, as_bgr, find_outlines, mean_extents, plain_card_shaped
from ..geometry import even_sides, order_clockwise, quad_iou
from ..segment import MODEL, card_maps, net_input, place_quads, rough_and_slanted
from ..types import CardReading
from .candidates import Candidates
from .doubt import left_to_look
from .levels import SAME_CARD, SETTLED, settled

# The net agrees with an edge quad when its mean card probability inside reaches this.
# Measured on tuning data (100 empty tables from seed 6,100,000, 60 scenes per deck from
# 960,000, the real train split): edge quads below it read as a back (0.26-0.87) or an
# unsure face (at most 0.24) on empty tables and scenes, never as a game rank; on the real
# photos 6 of them were Aces read at 0.96-1.0.
NET_AGREES = 0.3

# Where card is left unexplained, the learned finder's net looks again at that part of the
# frame scaled by ZOOM (a 1280x720 frame is first seen at 0.325: a 60-pixel card 20 net
# pixels long, 30 at 0.5, as in its training crops), where that enlarges it by ZOOM_GAIN
# or more. A card found so only is kept where read at SURE_ENOUGH, game cards too: the
# second look makes stray blobs on unseen textures, which read as backs at 0.66-0.75
# (with the first look's floor, 3 more phantoms on 200 animal tuning scenes, 3 more stray
# readings on the real train split), and a quad half on an Ace half on the table read as
# a second Ace at 0.5 (a real train photo). Measured on tuning data: playing cards 2,820
# -> 2,836 of 2,936 right (seed 960,100+) and 2,804 -> 2,822 of 2,919 (960,300+), animals
# 2,849 -> 2,870 of 2,916, mostly cards under 60 pixels; wrong game ranks, phantoms on
# those scenes and on 150 empty tables, the real train split and 16 of 18 rendered fans
# unchanged. With game cards kept from 0.5 like the first look's (and 64 pixels of
# context): 2,836, 2,824 and 2,868 right.
ZOOM = 0.5

ZOOM_GAIN = 1.3

# The second look sees the unexplained card's box this many net input pixels wider on
# every side (the index finder needs `INDEX_CONTEXT`, 64): on the same tuning data, with
# 64, 1 playing card and 4 animal cards fewer, and 2 ms more per frame in doubt on average.
ZOOM_CONTEXT = 32

# The second look outlines cards from this fraction of the whole frame's long side (26
# pixels of a 1280x720 frame; the first look's floor is `segment.MIN_LENGTH_FRACTION`,
# 45 pixels). Until 2026-12-02 its floor was the first look's fraction of the part looked
# at, so the wider the unexplained part, the bigger a card had to be: on a tuning table
# (animals, 4,800,019) three 38-pixel cards were outlined in a part 739 pixels wide and
# not in one 1,084 wide, which a few pixels of text drawn otherwise elsewhere (OpenCV 5.1's
# rendering of the same table) made of it. Measured on tuning tables rendered by OpenCV 5.0
# and by 5.1 (cards right; wrong game ranks, game cards on no card and phantoms unchanged
# on each): animals 300 from 4,800,000: 4,334 -> 4,335 and 4,331 -> 4,335 of 4,364; 300
# from 4,800,300: 4,356 -> 4,356 and 4,356 -> 4,357 of 4,381; playing cards 300 from
# 4,200,000: 4,340 -> 4,341 and 4,343 -> 4,344 of 4,372; 300 from 4,200,300: 4,318 ->
# 4,320 and 4,319 -> 4,322 of 4,349; 100 tables with jokers (4,900,000+) 558 -> 559 of 571
# faces; 300 tables of 60 enrolled animal decks with backs never seen (4,650,000+) 4,067
# -> 4,071 cards, backs the same; 150 empty tables (6,100,000+) none either way; 120 heaps
# (3,100,000+), 100 tables of designed backs (4,100,000+) and the real train split at
# every turn unchanged. The same from 0.005 to 0.02; at 0.025 one animal card fewer on
# the second set, at 0.035 (the first look's) 12 to 14 cards fewer a set. Time per frame
# the same (200 tuning tables read both ways in one process: median ratio 0.996).
ZOOM_MIN_LENGTH = 0.02

# A second look's quad overlapping one of the first look's this much (IoU) outlines the
# card as that one does, and would read as it did: it is left out (`_new_quads`). Until
# 2026-12-04 every second look's quad overlapping a first look's at SAME_CARD was: but in
# a row whose cards touch or overlap, the first look outlines two or three cards as one
# (their cores meet at its scale), that quad reads no card, and the second look, seeing
# the row 1.5 times larger, outlines each card, which then overlaps the merged quad at
# IoU 0.4-0.6 and was dropped. Now only those on a card the first look read (`settled` at
# SETTLED) are. Measured on the tuning sets (cards right): rows (`--rows`, 100 tables a
# deck from 4,450,000) playing 1,148 -> 1,166 of 1,227, animals 1,244 -> 1,256 of 1,272,
# and 150 more from 4,450,100 1,778 -> 1,801 of 1,908 and 1,869 -> 1,880 of 1,898, wrong
# game ranks, game cards on no card and phantoms unchanged, in the same time (median
# ratio 0.99 and 1.00, both ways frame by frame in one process); 300 playing tables
# (4,200,000+) 4,344 -> 4,345, 300 animal tables (4,800,000+) 4,335 -> 4,336; 100 tables
# with jokers (4,900,000+) 556 -> 557 of 571 faces, a game card on a joker as before; the
# real train split at a webcam's 100 px 160 -> 163 (game cards 80 -> 81 of 92), as
# photographed at every turn unchanged; 100 tables of designed backs, 60 heaps and 150
# empty tables unchanged. At 0.8 or 0.85 rows read 1,171-1,172, but a quad over a 2 and
# a Jack under a hand read as a 4 of spades at 0.94; at 0.5, 1,161 and 1,244.
ZOOM_TWIN = 0.7


def find_candidates(image: np.ndarray, model: Path = MODEL) -> Candidates:
    """Both finders' quads for `image` (BGR or grey uint8), in `detect.find_cards`' form;
    `model`: the learned finder's net for whole webcam frames (`segment.frame_model`)."""
    colour = as_bgr(image)
    return with_edges(colour, learned_candidates(colour, model))


def learned_candidates(colour: np.ndarray, model: Path = MODEL) -> Candidates:
    """The learned finder's quads for a BGR frame, with the net's maps: no edge quads yet;
    and for its slanted blobs (`segment.rough_and_slanted`) the four sides fitted to them,
    placed too (`Candidates.slanted`), which `fusion._with_slanted` reads where the
    rectangle's quads read unsure.

    Why: tuning scene 4,200,432, an Ace of spades 76 px long near the far edge of a steep
    view, turned: a parallelogram, its corners 29 degrees off right angles. Its blob's
    rectangle, placed, read no card, and no side moved by the side search reached the
    card's corners. Measured (2026-12-06, sixty-second stop; OpenCV 5.0): 2,000 playing
    tuning tables (4,200,000+ and 4,201,000+) 14,412 -> 14,415 and 14,449 -> 14,450 cards
    right (14,416 and 14,453 with the side search moving the fitted sides too:
    `sides._moved_quads`), wrong game ranks (1 and 3), game cards on no card (none) and
    phantoms (12 and 8) as before; 100 row tables (4,450,000+) 1,215 -> 1,216 and a wrong
    game rank fewer (1 -> 0); 150 more row tables, tables of designed backs, with jokers,
    heaps, empty tables, the real train split as photographed and at 100 px at every quarter
    turn and the animal deck's tuning sets exactly as before (at 150 px, turned 0 degrees, a
    card more right and a back more read on carpet). Time: 1% more per frame (median ratio
    1.010 on 100 playing tuning tables, 1.013 on 60 animal ones, frame by frame both ways in
    one process). Tried: the fitted sides in place of the rectangle, 300 tables 4,339 ->
    4,333 (a partly hidden card's blob is no card's shape, and fits badly); as a quad of
    their own, each such card read twice (48 game cards "on no card" on the 2,000 tables);
    their reading standing unsure, a blob of two touching cards read as one of them at 0.69
    (4,201,099)."""
    scaled = net_input(colour)
    maps = card_maps(colour, scaled, model)
    rough, slanted = rough_and_slanted(maps)
    placed, fitted = _placed(colour, rough, slanted)
    rough_list = [order_clockwise(q) for q in rough]
    return Candidates([], [], placed, rough_list, maps, scaled[0], slanted=fitted)


def _placed(
    colour: np.ndarray, rough: np.ndarray, slanted: dict[int, np.ndarray]
) -> tuple[list[np.ndarray], dict[int, np.ndarray]]:
    """The `rough` quads and the `slanted` ones (by rough index) placed on the cards' edges
    (`segment.place_quads`), in one call: it converts the frame to grey once."""
    if not slanted:
        return place_quads(colour, rough), {}
    placed = place_quads(colour, np.concatenate([rough, np.stack(list(slanted.values()))]))
    return placed[: len(rough)], dict(zip(slanted, placed[len(rough) :], strict=True))


def zoomed(colour: np.ndarray, found: Candidates, kept: list[CardReading]) -> Candidates:
    """`found` with the quads of the learned finder's second look (`ZOOM`) at the part of
    the frame where its net sees card that `kept` leaves unexplained, or faintly sees card
    away from it (`doubt.left_to_look`): small cards it saw too small to outline, and
    cards of a row it outlined together. A quad on a card the first look read (`settled`
    at SETTLED: `SAME_CARD`), or outlined as the first look did (`ZOOM_TWIN`), is left
    out (`_new_quads`)."""
    region = left_to_look(found, kept, ZOOM_CONTEXT)
    if region is None or found.maps is None or ZOOM_GAIN * found.maps.sx > ZOOM:
        return found
    # the region's box, net input pixels -> frame pixels
    x0, y0, x1, y1 = region
    sx, sy = found.maps.sx, found.maps.sy
    fx0, fy0 = int(x0 / sx), int(y0 / sy)
    fx1 = min(colour.shape[1], int(np.ceil(x1 / sx)))
    fy1 = min(colour.shape[0], int(np.ceil(y1 / sy)))
    part = np.ascontiguousarray(colour[fy0:fy1, fx0:fx1])
    maps = card_maps(part, net_input(part, round(ZOOM * max(part.shape[:2]))))
    rough, slanted = rough_and_slanted(maps, max(colour.shape[:2]), ZOOM_MIN_LENGTH)
    if not len(rough):
        return found
    offset = np.float32([fx0, fy0])
    placed, fitted = _placed(part, rough, slanted)
    looks = [
        (quad + offset, order_clockwise(rectangle + offset), index)
        for index, (quad, rectangle) in enumerate(zip(placed, rough, strict=True))
    ]
    new = _new_quads(looks, found.learned, kept)
    if not new:
        return found
    slanted = dict(found.slanted)
    for learned_index, (_, _, index) in enumerate(new, start=len(found.learned)):
        if index in fitted:
            slanted[learned_index] = fitted[index] + offset
    return replace(
        found,
        learned=found.learned + [placed for placed, _, _ in new],
        rough=found.rough + [quad for _, quad, _ in new],
        zoomed=len(new),
        slanted=slanted,
    )


def _new_quads(
    looks: list[tuple[np.ndarray, np.ndarray, int]],
    first_look: list[np.ndarray],
    kept: list[CardReading],
) -> list[tuple[np.ndarray, np.ndarray, int]]:
    """Of the second look's (placed, rough, index) quads, those on no card the first look read
    (`settled` at SETTLED, overlapping it at `SAME_CARD`) and outlining no card as one of
    the first look's quads does (`ZOOM_TWIN`): a first-look quad that reads no card may
    hold two cards of a row, which the second look tells apart."""
    read = [reading.corners for reading in kept if settled(reading, SETTLED)]
    return [
        look
        for look in looks
        if not any(quad_iou(look[0], quad) >= SAME_CARD for quad in read)
        and not any(quad_iou(look[0], quad) >= ZOOM_TWIN for quad in first_look)
    ]


def with_edges(
    colour: np.ndarray, learned: Candidates, plain_back: np.ndarray | None = None
) -> Candidates:
    """`learned` with the edge finder's quads of the same frame, whether the net sees card
    under each, and where the deck's enrolled back is plain inside (`plain_back`, its
    colour: `detect.find_cards`) whether each may be such a back (`may_be_plain_backs`);
    and the small whole outlines the edge finder found nested in its quads
    (`detect.EdgeQuads.nested`, read by `nested.nested_cards`)."""
    outlines = find_outlines(colour, plain_back)
    edges = outlines.cards
    maps = learned.maps
    agrees = (maps.card_cover(edges) >= NET_AGREES).tolist() if edges and maps is not None else []
    plain = may_be_plain_backs(edges, max(colour.shape[:2])) if plain_back is not None else []
    return replace(
        learned, edges=edges, net_agrees=agrees, plain_shaped=plain, nested=outlines.nested
    )


def may_be_plain_backs(quads: list[np.ndarray], long_side: int) -> list[bool]:
    """For each quad of a picture `long_side` pixels long, whether it may be a back of the
    deck's plain enrolled back: the shape and size asked of a plain card
    (`detect.plain_card_shaped`), no longer than the blobs of a plain back's colour may be
    (`colour_blobs.BLOB_ASPECT`), opposite sides as alike as one card's under a tilted
    camera (`detect.MAX_OPPOSITE_RATIO`). Its back stands from
    `picking.PLAIN_BACK_WITHOUT_NET`. Why the last two: the edge finder closed a quad of
    three sides on a hand (one side 17 px, its opposite 91), which an enrolled grey back's
    reader read as that back at 0.83 (a tuning table of an enrolled animal deck,
    4,161,002), and outlined a phone 2.0 times as long as wide that a dark back's read at
    0.82 (4,650,892)."""
    if not quads:
        return []
    stacked = np.stack(quads)
    length, width = mean_extents(stacked)
    shaped = plain_card_shaped(stacked, long_side) & (length < BLOB_ASPECT[1] * width)
    return (shaped & even_sides(stacked, MAX_OPPOSITE_RATIO)).tolist()
