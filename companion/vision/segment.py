"""Card finding by a tiny learned segmenter: an alternative to `detect.find_cards`.

Why a net: the edge-based finder guesses where a card ends from contours, and loses cards
on white cloth, in overlaps and at the picture's border, while gingham cells, markers and
phones make phantoms. A 113k-weight U-Net (`models/README.md`, trained on the project's
renderer only) looks at the whole frame scaled down (`net_size`: a 1280x720 frame to
416x234) and says per pixel (at half that resolution) whether it is card, and whether it
is a card's "core":
the card eroded by `CORE_MARGIN` of its short side. Cores of touching or overlapping cards
seldom touch, so each connected core is one card; it is grown back into the card pixels
nearest to it, and the grown blob's minimum-area rectangle is the rough quad, whose sides
`find_cards_learned` then places at full resolution with the edge finder's own tools. A
blob slanted like a turned card under a steeply tilted camera (a parallelogram) is also
outlined by four sides fitted to it, for the default finder (`rough_and_slanted`).
Where two white cards overlap, their cores can meet in a bridge; a blob grown from such a
core is no card's shape, and its core is split where the net is surest (`SPLIT_LEVEL`).

On its own (`--finder learned`) it finds more cards than the edge finder and makes fewer
phantoms, but its corners are less exact and it does worse on the real photos; the
default finder (`fusion/`) runs both and keeps, card by card, the better reading
(figures in `models/README.md`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.vision.decks import PLAYING_CARDS, DeckProfile
from companion.vision.detect import as_bgr
from companion.vision.geometry import (
    corner_skew,
    hull_quad,
    opposite_side_angle,
    order_clockwise,
)
from companion.vision.onnx_models import MODELS_DIR, model_session
from companion.vision.side_fit import out_to_card_edges, refine_quads
from companion.vision.stages import timed

# Three sets of the same net's weights (models/README.md): MODEL, fine-tuned at the scale a
# whole webcam frame is seen at (then on crowded tables of small cards), for frames seen
# at up to FINE_TUNED_SCALE of their size; BACKS_MODEL, the same for the playing deck
# (below); CLOSE_UP_MODEL, trained at 320 only, for the
# rest (phone photos seen at 0.63, the second look at 0.5): the fine-tuned weights
# outline the big cards of the phone photos worse (the real train split 171 -> 169 cards
# read right, and a 9's pip read as an Ace on a test photo where they missed the 9), and
# the second look was measured with these.
MODEL = MODELS_DIR / "card_finder.onnx"
CLOSE_UP_MODEL = MODELS_DIR / "card_finder_close.onnx"
# MODEL fine-tuned once more on tables of card backs of designs no other stage saw
# (plain ones among them), for the playing deck (`frame_model`): it outlines more phones
# and notes too, which the playing deck's readers learned as no card, while an enrolled
# deck's reader, reading by likeness, takes some for its back (models/README.md, card
# finder, "Backs never seen": held out, 72% of the face-down cards of unseen back designs
# read as backs instead of 48%).
BACKS_MODEL = MODELS_DIR / "card_finder_backs.onnx"
# The same fine-tuning, bolder and longer, then on faint backs too, for an enrolled deck
# whose back MODEL misses (`DeckProfile.any_backs`): there the backs it finds outweigh
# the phantoms it adds (models/README.md, card finder, "Two backs read as a face": on
# tuning tables of unseen back designs 11% more face-down cards read as backs than with
# BACKS_MODEL, 26% more of the faint ones).
ENROLLED_BACKS_MODEL = MODELS_DIR / "card_finder_backs_enrolled.onnx"
FINE_TUNED_SCALE = 0.4
# The net was first trained on 1280x720 renders (and crops of them) scaled to a long side of
# TRAINED_LONG_SIDE (CLOSE_UP_MODEL), then fine-tuned on them scaled as here too (MODEL,
# models/README.md: fourth and fifth stages). It sees a frame at NET_SCALE of its size, its long
# side between TRAINED_LONG_SIDE and MAX_NET_LONG_SIDE: a 1280x720 webcam frame at 416 (a 60-pixel
# card 20 net pixels long, not 15), a phone's 504x378 photo at 320 as in training. Measured on 40
# tuning scenes per deck (seeds 950,000/960,000 and 950,040/960,040), the default finder reads 2,249
# of about 2,335 cards right with 1280x720 frames seen at 416, against 2,197 at 320 (384 and 448:
# 2,237 and 2,240); the real photos' train split reads 137 of 195 cards right at 320, 128 at 416
# (their cards are big: the net sees them larger than any it learned).
TRAINED_LONG_SIDE = 320
MAX_NET_LONG_SIDE = 416
NET_SCALE = 0.325
STRIDE = 16  # the net halves the picture four times: input sides are multiples of this
CORE_MARGIN = 0.2  # a card's core: its mask eroded by this fraction of its short side
CARD_LEVEL = 0.5  # probability above which a pixel is card
SEED_LEVEL = 0.75
# Two white cards overlapping can have their cores bridged even above SEED_LEVEL (an Ace
# half under a 9 on tuning scene 960,015); at SPLIT_LEVEL the bridge breaks. A seed splits
# into its parts above SPLIT_LEVEL when two of them hold SPLIT_PART of the largest one's
# pixels.
SPLIT_LEVEL = 0.95
SPLIT_PART = 0.25
# The card mask (probability > CARD_LEVEL) reaches this many net-input pixels past a
# card's edge on every side: the median over 471 cards of the tuning scenes (seeds
# 950,000+).
MASK_SPREAD = 1.21
# A card's long side, as a fraction of the frame's long side (the issue asks 60..400 px of
# a 1280 frame; a closer look at part of a frame sets its own floor: `rough_quads`); long
# over short side, 1.0 (a card foreshortened by a tilted camera) to 2.6; and the blob must
# fill its rectangle this well (a hand or a pen does not).
MIN_LENGTH_FRACTION = 0.035
MAX_LENGTH_FRACTION = 0.85
MAX_ASPECT = 2.6
MIN_FILL = 0.75
# A card seen steeply and turned is a parallelogram, whose blob's minimum-area rectangle
# puts its corners out of placing's reach (`SEARCH_FRACTION`): a blob whose outline's four
# sides (`geometry.hull_quad`) meet at a corner SLANT_SKEW degrees or more off a right
# angle, and fill it SLANT_FIT times better than the rectangle does, is also outlined so
# (`rough_and_slanted`); only a blob that fills its rectangle less than SLANT_FILL is
# fitted (a quarter of them: a few tenths of a millisecond a frame). Measured:
# `fusion.finders.learned_candidates`.
SLANT_SKEW = 25.0
SLANT_FIT = 1.02
SLANT_FILL = 0.9
# The sides fitted to a blob whose opposite sides lie further than this from parallel (in
# degrees) outline no card but overlapping cards: on a held-out heap (5,800,035, said
# openly: found in the benchmark) such sides, 39 degrees apart, read a 6..King at 0.96 over
# the index of a 5 of clubs, which then went unread. A card's own sides lie within 6.1
# degrees of parallel (300 tuning tables' truths), fitted on the net's coarse map within
# 15 (tuning scene 4,200,432). On 2,000 playing tuning tables (4,200,000+, 4,201,000+):
# without this check 14,416 and 14,453 cards right, at 20 degrees 14,415 and 14,449, at
# 30 14,415 and 14,450 (14,412 and 14,449 without slanted quads): the few more it drops
# are backs read right on sides as skewed as those over the heap.
SLANT_PARALLEL = 30.0
# Side placement at full resolution: first within SEARCH_FRACTION of the picture's long
# side (the rough quads' worst errors), then out past a printed frame to the card's own
# edge (a step of EDGE_STEP grey levels all around), then within FINE_SEARCH pixels.
SEARCH_FRACTION = 0.012
EDGE_STEP = 4.0
FINE_SEARCH = 3.0
# A frame is shrunk for the net by a box blur and bilinear sampling where the ratio lies
# this close to an odd whole number (`shrink`).
BOX_RATIO = 0.25


def frame_model(deck: DeckProfile) -> Path:
    """The net that sees whole webcam frames of `deck`'s cards: `BACKS_MODEL` for playing
    cards, `ENROLLED_BACKS_MODEL` for an enrolled deck whose back `MODEL` misses
    (`DeckProfile.any_backs`), `MODEL` for the other enrolled decks."""
    if deck.kind == PLAYING_CARDS:
        return BACKS_MODEL
    return ENROLLED_BACKS_MODEL if deck.any_backs else MODEL


def find_cards_learned(image: np.ndarray, model: Path = MODEL) -> list[np.ndarray]:
    """`detect.find_cards`' contract (BGR or grey uint8 in; clockwise (4, 2) float32 quads,
    short side first, out) by the learned finder; `model`: its net for whole webcam
    frames (`frame_model`)."""
    colour = as_bgr(image)
    return place_quads(colour, rough_quads(card_maps(colour, model=model)))


@timed("placing quads")
def place_quads(colour: np.ndarray, rough: np.ndarray) -> list[np.ndarray]:
    """Rough quads placed on the cards' own edges at full resolution, ordered clockwise."""
    if not len(rough):
        return []
    grey = cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY)
    quads = refine_quads(grey, rough, max(3.0, SEARCH_FRACTION * max(grey.shape)))
    quads = out_to_card_edges(grey, quads.astype(np.float32), EDGE_STEP)
    return [order_clockwise(q) for q in refine_quads(grey, quads, FINE_SEARCH)]


@dataclass(frozen=True)
class CardMaps:
    """The net's card and core probabilities at its input resolution (padding cut off),
    and the x and y scales from the frame to them."""

    card: np.ndarray
    core: np.ndarray
    sx: float
    sy: float

    def card_cover(self, quads: list[np.ndarray]) -> np.ndarray:
        """The mean card probability inside each quad (frame pixels): how much of it the
        net sees as card."""
        cover = np.zeros(len(quads), np.float32)
        mask = np.zeros(self.card.shape, np.uint8)
        for index, quad in enumerate(quads):
            mask[:] = 0
            self.fill(mask, quad, 1)
            inside = mask.astype(bool)
            if inside.any():
                cover[index] = float(self.card[inside].mean())
        return cover

    def fill(self, mask: np.ndarray, quads: np.ndarray, value: int) -> None:
        """Set the pixels of `mask` (a map-sized uint8 array) inside a frame quad ((4, 2)),
        or inside each of several ((N, 4, 2)): all taken to the map at once, since the
        doubt checks clear every card of every frame (`fusion.doubt`: 0.19 -> 0.08 ms a
        table of 15 cards)."""
        # in 1/4 pixels for cv2's sub-pixel fill
        for points in np.round(self.to_map(quads) * 4).astype(np.int32).reshape(-1, 4, 2):
            cv2.fillConvexPoly(mask, points, value, shift=2)

    def to_map(self, points: np.ndarray) -> np.ndarray:
        """Frame points (pixel centres) in the maps' pixels, float32, as `fill` places them."""
        return ((points + 0.5) * np.array([self.sx, self.sy], np.float32) - 0.5).astype(np.float32)

    def to_frame(self, points: np.ndarray) -> np.ndarray:
        """Points of the maps (pixel centres) in the frame's pixels, float32 (cv2.resize's
        convention, as `fill` takes them the other way)."""
        return ((points + 0.5) / np.array([self.sx, self.sy], np.float32) - 0.5).astype(np.float32)


def net_size(width: int, height: int, long_side: int | None = None) -> tuple[int, int, int, int]:
    """(width, height) of the scaled frame and (width, height) once padded for the net:
    its long side scaled to `long_side`, by default NET_SCALE of it within the bounds."""
    if long_side is None:
        long_side = round(
            np.clip(NET_SCALE * max(width, height), TRAINED_LONG_SIDE, MAX_NET_LONG_SIDE)
        )
    scale = long_side / max(width, height)
    w, h = max(1, round(width * scale)), max(1, round(height * scale))
    return w, h, -(-w // STRIDE) * STRIDE, -(-h // STRIDE) * STRIDE


@timed("scaling the frame")
def net_input(image: np.ndarray, long_side: int | None = None) -> tuple[np.ndarray, float, float]:
    """The BGR frame scaled for the net (`net_size`) and padded (edge pixels repeated); x
    and y scales. Training scales its frames to TRAINED_LONG_SIDE."""
    height, width = image.shape[:2]
    w, h, pad_w, pad_h = net_size(width, height, long_side)
    small = shrink(image, (w, h))
    small = cv2.copyMakeBorder(small, 0, pad_h - h, 0, pad_w - w, cv2.BORDER_REPLICATE)
    return small, w / width, h / height


def shrink(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """`image` scaled down to `size` (width, height) by area averaging, or, where the
    ratio lies within `BOX_RATIO` of an odd whole number (a 1280x720 webcam frame to 416:
    3.08), by a box blur that wide and bilinear sampling.

    Why: `INTER_AREA` at a ratio that is no whole number costs 3.5-5 ms on a 1280x720 frame
    on one core, the box and sampling 1 ms, within 3 grey levels of it (0.2 on average) on
    rendered tables. At other ratios (the real photos' 960 and 504 pixels to 416 and 320)
    the box strays by up to 30 grey levels at edges, so they are area-averaged as before.
    """
    ratio = max(image.shape[1] / size[0], image.shape[0] / size[1])
    box = 2 * round((ratio - 1) / 2) + 1
    if box == 1 or abs(ratio - box) > BOX_RATIO:
        return cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    return cv2.resize(cv2.blur(image, (box, box)), size, interpolation=cv2.INTER_LINEAR)


@timed("finder net")
def card_maps(
    image: np.ndarray,
    scaled: tuple[np.ndarray, float, float] | None = None,
    model: Path = MODEL,
) -> CardMaps:
    """The net's card and core probabilities for a BGR uint8 frame; `scaled`: the frame's
    `net_input`, where the caller made it already; `model`: the net for a frame seen at
    FINE_TUNED_SCALE or less (`frame_model`), CLOSE_UP_MODEL seeing the others."""
    small, sx, sy = scaled if scaled is not None else net_input(image)
    batch = np.ascontiguousarray(small.transpose(2, 0, 1)[None], dtype=np.float32)
    if max(sx, sy) > FINE_TUNED_SCALE:
        model = CLOSE_UP_MODEL
    logits = model_session(model).run(None, {"image": batch})[0][0]
    height, width = small.shape[:2]
    # Bilinear upsampling of the half-resolution logits: finer blob outlines for small cards.
    maps = [cv2.resize(m, (width, height), interpolation=cv2.INTER_LINEAR) for m in logits]
    w, h = round(image.shape[1] * sx), round(image.shape[0] * sy)
    card, core = (probabilities(m[:h, :w]) for m in maps)
    return CardMaps(card, core, sx, sy)


def probabilities(logits: np.ndarray) -> np.ndarray:
    """1 / (1 + exp(-logits)) as a new array, each step in place: the same numbers as
    the plain expression with no temporaries, 0.22 ms a 416x234 map instead of 0.32 (the
    card finder's maps, and the index finder's)."""
    probabilities = np.negative(logits)
    np.exp(probabilities, out=probabilities)
    probabilities += 1.0
    return np.reciprocal(probabilities, out=probabilities)


def rough_quads(
    maps: CardMaps, frame_side: int | None = None, min_length: float = MIN_LENGTH_FRACTION
) -> np.ndarray:
    """(N, 4, 2) float32 rough card corners in the pixels of the picture the maps were
    made from. A card is from `min_length` to `MAX_LENGTH_FRACTION` of `frame_side` long:
    the long side of the whole frame that picture was cut from (by default the picture's
    own), so that a closer look at part of a frame bounds cards as the frame does, however
    wide the part."""
    return rough_and_slanted(maps, frame_side, min_length)[0]


@timed("rough quads")
def rough_and_slanted(
    maps: CardMaps, frame_side: int | None = None, min_length: float = MIN_LENGTH_FRACTION
) -> tuple[np.ndarray, dict[int, np.ndarray]]:
    """`rough_quads`, and by rough quad index, for the blobs slanted like a turned card
    under a steep view (`_slanted`), the four sides fitted to the blob's outline
    (`geometry.hull_quad`), in the same pixels."""
    long_side = max(maps.card.shape) if frame_side is None else frame_side * max(maps.sx, maps.sy)
    lengths = (min_length * long_side, MAX_LENGTH_FRACTION * long_side)
    quads, slanted = _blob_quads(maps.card, maps.core, lengths)
    if not len(quads):
        return quads, {}
    return maps.to_frame(quads), {index: maps.to_frame(quad) for index, quad in slanted.items()}


def part_rectangles(maps: CardMaps, mask: np.ndarray, min_area: int) -> list[np.ndarray]:
    """The minimum-area rectangle of each connected part of `mask` (a map-sized uint8 mask,
    eroded by one pixel) of `min_area` pixels or more, grown back by that pixel, in the
    frame's pixels: the outline the net's card pixels give where no core was seen."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    rectangles = []
    for index in range(1, count):
        x, y, w, h, area = stats[index]
        if area < min_area:
            continue
        ys, xs = np.nonzero(labels[y : y + h, x : x + w] == index)
        points = np.column_stack([xs + x, ys + y]).astype(np.float32)
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(points)
        corners = cv2.boxPoints(((cx, cy), (rw + 2, rh + 2), angle))
        rectangles.append(order_clockwise(maps.to_frame(corners)))
    return rectangles


def _blob_quads(
    card: np.ndarray, core: np.ndarray, lengths: tuple[float, float]
) -> tuple[np.ndarray, dict[int, np.ndarray]]:
    """One rectangle per card core, grown back over the card pixels nearest to it, of a
    length within `lengths` (least, most: map pixels); and by rectangle index, where the
    blob is slanted (`_slanted`), the four sides fitted to it."""
    # Seeds: the surest core pixels. Two touching cards' cores may meet in a thin bridge
    # of doubtful pixels; their surest parts stay apart.
    seeds = (core > SEED_LEVEL).astype(np.uint8)
    labels, blobs = _grown_quads(card, seeds, lengths)
    failed = [index for index, blob in enumerate(blobs, start=1) if blob is None]
    split = _split_bridged(seeds, labels, failed, core) if failed else None
    if split is not None:
        # Grown again with the bridged seeds split; only their parts' quads are new.
        parts, again = _grown_quads(card, split, lengths)
        for index, blob in enumerate(again, start=1):
            if blob is not None and labels[parts == index][0] in failed:
                blobs.append(blob)
    kept = [blob for blob in blobs if blob is not None]
    if not kept:
        return np.empty((0, 4, 2), np.float32), {}
    slanted = {index: fitted for index, (_, fitted) in enumerate(kept) if fitted is not None}
    return np.stack([rectangle for rectangle, _ in kept]).astype(np.float32), slanted


# a grown blob: its rectangle, and the sides fitted to it where it is slanted (`_slanted`)
_Blob = tuple[np.ndarray, np.ndarray | None]


def _grown_quads(
    card: np.ndarray, seeds: np.ndarray, lengths: tuple[float, float]
) -> tuple[np.ndarray, list[_Blob | None]]:
    """The seeds' labels, and per seed (label 1, 2, ...) its grown blob's rectangle and
    the sides fitted to the blob where it is slanted (else None: `_slanted`), or None
    where the blob is no card's shape (its length outside `lengths`, map pixels)."""
    count, labels, stats, _ = _seed_components(seeds)
    if count <= 1:
        return labels, []
    # Every pixel learns its distance to the nearest seed pixel and which pixel that is
    # (the labels of seed components would cost a second labelling of the seeds);
    # `to_core` maps each seed pixel to its core.
    distance, nearest = cv2.distanceTransformWithLabels(
        1 - seeds, cv2.DIST_L2, 3, labelType=cv2.DIST_LABEL_PIXEL
    )
    inside = seeds > 0
    to_core = np.zeros(int(nearest.max()) + 1, np.int32)
    to_core[nearest[inside]] = labels[inside]
    card_mask = card > CARD_LEVEL
    min_len, max_len = lengths
    blobs: list[_Blob | None] = []
    for index in range(1, count):
        blobs.append(None)
        x, y, w, h, area = stats[index]
        if area < 4:
            continue
        # The core is the card less CORE_MARGIN of its short side all round: grow it back
        # that far (and a pixel more), within the card pixels it is nearest to.
        reach = CORE_MARGIN / (1 - 2 * CORE_MARGIN) * min(w, h) * 1.5 + 2.0
        pad = int(np.ceil(reach)) + 1
        x0, y0 = max(0, x - pad), max(0, y - pad)
        x1, y1 = min(card.shape[1], x + w + pad), min(card.shape[0], y + h + pad)
        window = (
            (to_core[nearest[y0:y1, x0:x1]] == index)
            & card_mask[y0:y1, x0:x1]
            & (distance[y0:y1, x0:x1] <= reach)
        )
        area = np.count_nonzero(window)
        if area < 6:
            continue
        # The blob's outline has the same convex hull as all its pixels, at a tenth of
        # the points to fit.
        outlines, _ = cv2.findContours(
            window.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(x0, y0)
        )
        outline = np.concatenate(outlines)
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(outline)
        fill = area / max(rw * rh, 1.0)  # of the rectangle through the outline's pixels
        # Pixel centres -> pixel edges (+1), less the card mask's spread past the card.
        rw, rh = rw + 1.0 - 2 * MASK_SPREAD, rh + 1.0 - 2 * MASK_SPREAD
        length, width = max(rw, rh), min(rw, rh)
        if not (min_len <= length <= max_len) or length > MAX_ASPECT * width:
            continue
        if area < MIN_FILL * rw * rh:
            continue
        blobs[-1] = (cv2.boxPoints(((cx, cy), (rw, rh), angle)), _slanted(outline, area, fill))
    return labels, blobs


def _slanted(outline: np.ndarray, area: int, fill: float) -> np.ndarray | None:
    """The four sides fitted to a blob's `outline` (`geometry.hull_quad`), where it fills
    its rectangle less than `SLANT_FILL` (`fill`, of `area` pixels), they fill it better
    by `SLANT_FIT`, a corner of theirs departs from a right angle by `SLANT_SKEW` or more,
    and their opposite sides are within `SLANT_PARALLEL` of parallel; else None."""
    if fill >= SLANT_FILL:  # a card's rectangle, its corners rounded by the net
        return None
    fitted = hull_quad(outline)
    if fitted is None or corner_skew(fitted) < SLANT_SKEW:
        return None
    if opposite_side_angle(fitted) > SLANT_PARALLEL:  # the outline of cards in a heap
        return None
    return fitted if area >= SLANT_FIT * fill * cv2.contourArea(fitted) else None


def _seed_components(seeds: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """`cv2.connectedComponentsWithStats(seeds, connectivity=8)`, by Grana's block-based
    algorithm (BBDT): the same labels, numbered alike (the default, Spaghetti, also
    labels 2x2 blocks in raster order), at half the cost with the statistics."""
    return cv2.connectedComponentsWithStatsWithAlgorithm(seeds, 8, cv2.CV_32S, cv2.CCL_BBDT)


def _split_bridged(
    seeds: np.ndarray, labels: np.ndarray, failed: list[int], core: np.ndarray
) -> np.ndarray | None:
    """`seeds` with each failed seed (by label) that holds two cards' cores cut down to
    its parts above SPLIT_LEVEL; None where no failed seed splits."""
    count, sure, stats, _ = cv2.connectedComponentsWithStats(
        (core > SPLIT_LEVEL).astype(np.uint8), connectivity=8
    )
    # the seed each sure part lies in (a sure part lies inside one seed)
    seed_of = np.zeros(count, np.int32)
    seed_of[sure.ravel()] = labels.ravel()
    areas = stats[:, cv2.CC_STAT_AREA]
    out = None
    for seed in failed:
        parts = np.flatnonzero(seed_of[1:] == seed) + 1
        if len(parts) < 2 or np.count_nonzero(areas[parts] >= SPLIT_PART * areas[parts].max()) < 2:
            continue
        if out is None:
            out = seeds.copy()
        inside = labels == seed
        out[inside] = 0
        out[inside & np.isin(sure, parts)] = 1
    return out
