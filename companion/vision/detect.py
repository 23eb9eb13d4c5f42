"""Find every card lying on the table: image -> list of (4, 2) corner quads.

Why edges and not a brightness threshold: the classic detector thresholds the image and
keeps bright blobs, so it fails as soon as the table is lighter than the cards (and it
merges touching cards). A card's outline is a straight-sided contour whatever the colour
of the table, so this finder works on the edge map of a copy downscaled to
`WORK_LONG_SIDE`, and goes back to full resolution only to place the sides:

1. Canny on the blurred lightness, thresholds scaled to the table's own gradient level;
2. card hypotheses: every contour (outer boundaries and holes) that is four-sided,
   filled, of card size and aspect, its sides refitted to the contour's pixels; and,
   where cards touch or overlap and their outlines merged (or an outline broke up on a
   coarse carpet), parallelograms spanned by two long straight runs meeting at a corner
   of a larger contour, their sides then moved onto the nearest edges; and, for a deck
   whose back is plain inside its margin, the card-shaped blobs of that back's colour,
   which show no outline where the back is as light as the table (`colour_blobs.py`);
3. checks that reject what is not a card: the outline must stand out of the table all
   around with one sign per side (contrast support, tolerant of gaps), the inside must
   carry print (or, for a deck whose enrolled back is plain inside its margin, be that
   back's colour: `plain_back`), and a cell of a grid (gingham, tiles: lines that run on
   past every corner) is not a card. Chips and coins fail the four-sided test, hands
   and sleeves the shape and support tests;
4. overlap resolution: duplicates and a card's printed frame give way to the card, a
   quad that holds two cards (their union) and a card-with-its-shadow give way too; a
   whole outline much smaller than the quad holding it is returned apart
   (`find_outlines`: a card in a shadow or on a mat the quad outlines);
5. at full resolution (`side_fit.py`, which the learned finder shares), each quad is
   moved out past a printed frame to the card's own edge when an even outer outline
   shows on all four sides (not a quad kept for its plain back's colour: there the even
   outline is its shadow), then each side is refitted on the gradient along its normal;
   corners are the intersections of the side lines (exact even with rounded corners).

Every size limit is a fraction of the image, so the same code serves a 378x504 phone
photo and a 1280x720 webcam frame. Known weak spots (see companion/vision/bench/ for the
figures): cards cut by the picture's border, a white card on a white cloth lit evenly,
heavy overlaps, and table patterns (gingham, tiles) that still yield a phantom now and
then; the reader's "not a card" answer removes some of those in the pipeline.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.back_colour import INSIDE_BOX, back_coloured
from companion.vision.colour_blobs import back_coloured_quads
from companion.vision.geometry import even_sides, order_clockwise, scaled_about_centre
from companion.vision.side_fit import NEXT, intersections, out_to_card_edges, refine_quads, sample
from companion.vision.stages import timed

# The finder works on a copy whose long side is at most this many pixels: at 800 a
# 60-pixel card of a 1280-wide frame (the smallest the issue asks for) is 37 pixels long.
# Measured on rendered scenes: 640 misses about a sixth more cards, 960 finds no more
# and costs half as much time again.
WORK_LONG_SIDE = 800
# Card length (long side) limits, as fractions of the image's long side; a 1280-wide
# camera frame thus accepts cards from about 51 to 1100 pixels (the issue asks 60..400).
MIN_LENGTH_FRACTION = 0.04
MAX_LENGTH_FRACTION = 0.85
# Long over short side: 1.4 (poker) to 1.56 (bridge) seen straight down; a wide-angle
# camera tilted by 35 degrees foreshortens a card near the far edge of the picture to
# anything from about 1.0 to 2.4 (measured on the renderer's camera model).
MIN_ASPECT = 1.0
MAX_ASPECT = 2.5
# Opposite sides of one card differ by less than this under such a camera.
MAX_OPPOSITE_RATIO = 1.3
# The shape must fill its quad this well (a disc fills pi/4 = 0.79 of its square).
MIN_FILL = 0.88
# A quad mostly inside another one (by this fraction of its own area) is nested in it.
NESTED = 0.75
# Two cards lying on each other share less than this fraction of the smaller one.
MAX_SHARED = 0.4
# Two outlines overlapping this much (IoU) or more are one card's: the outer boundary of
# its outline and the hole inside it.
SAME_OUTLINE = 0.5
# A whole outline nested in a larger quad under this fraction of its area may be no
# printed frame of it (a card's frame holds most of the card) but a card, where the larger
# quad outlines a rectangle of the table round it (a shadow, a mat). Such outlines are
# returned apart (`EdgeQuads.nested`), for the pipeline to read where they lie on no card
# read for sure (`fusion.nested`). The rendered tuning tables hold such outlines (held at
# 0.1-0.25) on cards of rows outlined with their neighbours and on cards' print.
NESTED_CARD = 0.25
# Edge map: Gaussian blur (small-image pixels), TEXTURE_BLUR instead on a table whose
# median gradient reaches TEXTURED; Canny's low threshold is NOISE_FACTOR x the median
# gradient, between LOW and 4 x LOW (high = 2.5 x low).
BLUR = 1.0
TEXTURE_BLUR = 2.0
TEXTURED = 30.0
LOW = 20
NOISE_FACTOR = 3.0
CLOSE_GAPS = True  # also look for outlines in the edge map with 1-pixel gaps closed
# Contrast support: this fraction of a quad's outline must show a step between card and
# table (outlines have gaps where a card barely differs from the table); the rough quad,
# before its sides are fitted to the contour, already ROUGH_SUPPORT.
MIN_SUPPORT = 0.75
ROUGH_SUPPORT = 0.5
SUPPORT_SAMPLES = 16  # per side
PROBE = 1.5  # probes sit this many small-image pixels either side of a side
STEP_FACTOR = 3.0  # a step must reach this many times the table's noise ...
MIN_STEP = 3.0  # ... and this many grey levels
# Grid cells: a side whose line runs on along an edge for CONTINUED of the probes past a
# corner is continued; 3 continued sides, GRID_BOTH of them at both ends, make a cell.
CONTINUED = 0.7
GRID_BOTH = 1
# The inside of a card (print) must spread by PRINT_FACTOR x a noise step at least.
PRINT_FACTOR = 1.0
# A quad whose inside shares this much of its colours with a band SURROUNDING_BAND x
# its size around it is a patch of the table (a gingham's cells, a tile).
MAX_LIKENESS = 0.4
# An enrolled back plain inside its margin (`back_colour.plain_inside`) has no print to
# tell it from a blank thing; a quad with no print inside is still a card where its inside
# is that back's colour under the table's light, it shares under PLAIN_LIKENESS of its
# colours with the band around it, it is no square (PLAIN_MIN_ASPECT: a card is 1.4) and
# it is PLAIN_MIN_LENGTH of the picture's long side or longer (64 px of a 1280 frame; the
# issue's cards are 60 to 400 px). Measured on tuning designs (4,100,000+; 26 of the 120
# plain inside at `back_colour.PLAIN_INSIDE` 8, where these were set), 3 tables each from
# 4,650,000 + 10 x design, and 10, 30 and 60 empty tables from 6,100,150, 6,100,300 and
# 6,100,500 read with every plain one (models/README.md, card finder, "Backs plain
# inside"): of the plain quads the finder kept on those tables, 773 of 813 on backs share
# under 0.2 with their band, 1,938 of 6,317 elsewhere (under 0.4: 809 and 3,624); a
# gingham's square cell the colour of design 4,100,067 read as its back at 1.0, which 1.15
# leaves out (two backs fewer on the faint designs' tables; 93% of the plain quads on
# backs are at 1.15 or more); the spots on a chip's rim (54-60 px) read as the backs of
# two light designs at 1.0, 16 readings, and a small phone as ten dark designs' backs,
# which the length leaves out (two backs fewer on the faint designs' tables, two on the
# other plain ones').
PLAIN_LIKENESS = 0.2
PLAIN_MIN_ASPECT = 1.15
PLAIN_MIN_LENGTH = 0.05
SURROUNDING_BAND = 0.25
# Corner hypotheses: contours simplified to CORNER_EPSILON x the smallest card length
# (real card edges bow a little, a lens bends them, a finer polygon breaks a side into
# runs too short to span a card); two sides meet at 90 degrees seen straight down,
# 55..125 under a tilted camera. Tuned on the real photos' train split and rendered
# tables (seeds 950,000+): 0.04 -> 0.2 (with CORNER_SNAP) reads 57 of 92 Aces instead of
# 50 and 2% more rendered cards; a support of 0.75 read 60 but took a hand for cards.
CORNER_EPSILON = 0.2
CORNER_SUPPORT = 0.85  # the contrast support a corner hypothesis needs
CORNER_GAP = 0.3  # short segments (a rounded corner) between two sides, at most
MERGED_OUTLINE = 4.0  # contours shorter than this x the smallest card length are skipped
MAX_CORNER_COSINE = 0.57
CORNER_SNAP = 0.5  # guessed sides move onto an edge within this x the smallest card length

_ALONG = np.linspace(0.12, 0.88, SUPPORT_SAMPLES, dtype=np.float32)
_BEYOND = np.concatenate(
    [np.linspace(-0.35, -0.1, 8, dtype=np.float32), np.linspace(1.1, 1.35, 8, dtype=np.float32)]
)
_INSIDE = np.stack(
    np.meshgrid(
        np.linspace(INSIDE_BOX[0], INSIDE_BOX[2], 6), np.linspace(INSIDE_BOX[1], INSIDE_BOX[3], 7)
    ),
    axis=-1,
).reshape(-1, 2)  # (u, v) points inside a quad, away from its margin
_RING = np.concatenate(
    [
        np.stack([np.linspace(0, 1, 10), np.zeros(10)], axis=1),
        np.stack([np.ones(10), np.linspace(0, 1, 10)], axis=1),
        np.stack([np.linspace(1, 0, 10), np.ones(10)], axis=1),
        np.stack([np.zeros(10), np.linspace(1, 0, 10)], axis=1),
    ]
)  # points along the border of a quad
_SQUARE = np.ones((3, 3), np.uint8)
_CROSS = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))


@dataclass(frozen=True, slots=True)
class _Candidate:
    """A card-shaped contour found on the small image."""

    quad: np.ndarray  # (4, 2) float32, small-image pixels, clockwise
    area: float
    support: float  # the fraction of its outline that stands out of the table
    one_way: bool = True  # lighter (or darker) than the table on all four sides
    guessed: bool = False  # spanned from one corner of a larger contour
    plain: bool = False  # no print inside, but an enrolled plain back's colour


@dataclass(frozen=True)
class EdgeQuads:
    """What the edge finder outlined (`find_outlines`): one quad per card, and apart from
    them the whole outlines nested in a larger quad under `NESTED_CARD` of its area,
    which `_resolve_overlaps` took for part of it (its print, or a card's strip of a
    row it outlines together) but which may be a card lying in a rectangle of the table
    it outlines (a shadow, a tray). Both as `find_cards` gives its quads."""

    cards: list[np.ndarray]
    nested: list[np.ndarray]


def find_cards(
    image: np.ndarray,
    plain_back: np.ndarray | None = None,
    *,
    plain_only: bool = False,
    any_plain: bool = False,
) -> list[np.ndarray]:
    """Return the corners of every card in `image` (BGR or grey, uint8).

    Each card is a (4, 2) float32 array in the image's pixels, ordered as
    `geometry.order_clockwise` does (clockwise, first edge a short side). `plain_back`:
    the mean BGR of an enrolled back's inside where it carries no print there
    (`back_colour.plain_inside`); a quad whose inside is that colour under the table's
    light is then a card without print, and with `plain_only` only such quads are
    returned. With `any_plain`, a quad with no print inside is a card whatever its
    colour: a photo of the one card to enroll, whose colour is what is to be learned.
    """
    return find_outlines(image, plain_back, plain_only=plain_only, any_plain=any_plain).cards


@timed("edge finder")
def find_outlines(
    image: np.ndarray,
    plain_back: np.ndarray | None = None,
    *,
    plain_only: bool = False,
    any_plain: bool = False,
) -> EdgeQuads:
    """`find_cards`' quads, with the small whole outlines nested in them apart
    (`EdgeQuads`)."""
    colour = as_bgr(image)
    height, width = colour.shape[:2]
    scale = min(1.0, WORK_LONG_SIDE / max(height, width))
    # Bilinear, not area averaging: 8 times cheaper at 1280 -> 800, and the edge map
    # blurs the copy anyway.
    size = (round(width * scale), round(height * scale))
    small = colour if scale == 1.0 else cv2.resize(colour, size, interpolation=cv2.INTER_LINEAR)
    grey_small, edges, floor = _edge_map(small)
    # A step across a side counts when it stands out of the table's own gradient level
    # (a 3x3 Sobel sums about 8 times the step it sees).
    step = max(MIN_STEP, STEP_FACTOR * floor / 8)
    candidates = _card_shaped_contours(small, grey_small, edges, step, plain_back, any_plain)
    if plain_back is not None:
        candidates += _colour_candidates(small, edges, plain_back)
    if plain_only:
        candidates = [c for c in candidates if c.plain]
    kept, nested = _resolve_overlaps(candidates)
    if not kept:
        return EdgeQuads([], [])
    placed = kept + nested
    quads = (np.stack([c.quad for c in placed]) / scale).astype(np.float32)
    grey = cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY)
    # A plain inside has no printed frame to step out past; the even outline around it is
    # its shadow (a dark back on a light table), which would take the card a tenth wider.
    printed = np.array([not c.plain for c in placed])
    if printed.any():
        quads[printed] = out_to_card_edges(grey, quads[printed], step)
    search = max(3.0, 2.0 / scale)
    refined = [order_clockwise(q) for q in refine_quads(grey, quads, search)]
    return EdgeQuads(refined[: len(kept)], refined[len(kept) :])


def as_bgr(image: np.ndarray) -> np.ndarray:
    """`image` as BGR uint8 (grey and BGRA accepted), or a ValueError saying what was expected.

    Public with `refine_quads` and `out_to_card_edges`: the learned finder (segment.py)
    places its rough quads with the same full-resolution side fitting.
    """
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8:
        raise ValueError("expected an image as a uint8 numpy array (BGR or grey)")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim == 3 and image.shape[2] == 3:
        return image
    if image.ndim == 3 and image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    raise ValueError(f"expected an H x W or H x W x 3 image, got shape {image.shape}")


def _edge_map(small: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Blurred lightness, its Canny edges and its noise level (median gradient).

    The blur removes sensor noise and JPEG specks; the thresholds rise with the median
    gradient of the picture, so a grainy cloth needs a clearer outline than a plain one.
    A coarse texture (carpet, rough wood) is blurred harder first: its speckle would
    otherwise cling to every card's outline, while a card's long straight edges survive.
    """
    plain = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    for sigma in (BLUR, TEXTURE_BLUR):
        grey = cv2.GaussianBlur(plain, (0, 0), sigma)
        gx = cv2.Sobel(grey, cv2.CV_16S, 1, 0)
        gy = cv2.Sobel(grey, cv2.CV_16S, 0, 1)
        magnitude = cv2.add(cv2.convertScaleAbs(gx), cv2.convertScaleAbs(gy))
        floor = float(np.median(magnitude[::3, ::3]))
        if floor < TEXTURED:
            break
    low = float(np.clip(NOISE_FACTOR * floor, LOW, 4 * LOW))
    return grey, cv2.Canny(gx, gy, low, 2.5 * low), floor


def _card_shaped_contours(
    small: np.ndarray,
    grey: np.ndarray,
    edges: np.ndarray,
    step: float,
    plain_back: np.ndarray | None = None,
    any_plain: bool = False,
) -> list[_Candidate]:
    """Every card the edge map shows: whole card-shaped contours, and cards seen as two
    full sides meeting at a corner of a larger contour (cards touching, overlapping or
    touched by a hand, whose outlines merge into one contour).

    The tests run in batches (one `remap` per test for every candidate of the frame):
    per-candidate Python calls would cost more than the image processing itself.
    """
    long_side = max(grey.shape)
    min_len = MIN_LENGTH_FRACTION * long_side
    max_len = MAX_LENGTH_FRACTION * long_side
    min_area = 0.7 * min_len * min_len / MAX_ASPECT
    min_points = 2 * min_len  # a card's outline has at least this many pixels
    whole: list[tuple[np.ndarray, _Candidate]] = []
    others: list[np.ndarray] = []
    # The edge map as it is, and with one-pixel gaps closed: an outline broken at a
    # rounded corner or where a neighbour's corner crosses it closes in the second.
    maps = [edges, cv2.morphologyEx(edges, cv2.MORPH_CLOSE, _SQUARE)] if CLOSE_GAPS else [edges]
    for edge_map in maps:
        for contour in cv2.findContours(edge_map, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)[0]:
            if len(contour) < min_points:
                continue
            _, _, width, height = cv2.boundingRect(contour)
            if width * height < min_area or min(width, height) < min_len / MAX_ASPECT:
                continue  # too small, or a thin line
            candidate = _quad_of(contour, min_len, max_len)
            if candidate is None:
                if edge_map is edges:
                    others.append(contour)
            else:
                whole.append((contour, candidate))
    quads, areas = [], []
    if whole:
        # Cheap test on the rough quads first: most contours of the table end here.
        rough, _ = _contrast_support_many(grey, np.stack([c.quad for _, c in whole]), step)
        centres = np.stack([c.quad.mean(axis=0) for _, c in whole])
        sizes = np.array([c.area for _, c in whole])
        fitted: list[int] = []
        for index, ((contour, candidate), value) in enumerate(zip(whole, rough, strict=True)):
            if value < ROUGH_SUPPORT:
                others.append(contour)
                continue
            # The outer and inner boundaries of one outline, and the same outline in both
            # edge maps, give the same card several times: fit it once.
            if fitted and np.any(
                (np.abs(centres[fitted] - centres[index]).max(axis=1) < 2.0)
                & (np.abs(sizes[fitted] - sizes[index]) < 0.08 * sizes[fitted])
            ):
                continue
            fitted.append(index)
            points = contour.reshape(-1, 2)[::3].astype(np.float32)
            sides = _fit_sides(points, candidate.quad)
            quads.append(candidate.quad if sides is None else sides)
            areas.append(candidate.area)
    whole_count = len(quads)  # the rest are guessed from corners
    needed = [MIN_SUPPORT] * whole_count
    guessed = [
        _corner_quads(contour, min_len, max_len)
        for contour in others
        if len(contour) >= MERGED_OUTLINE * min_len  # long enough for a side and a half
    ]
    guessed = [g for g in guessed if len(g)]
    if guessed:
        # A guessed quad ends where the straight runs of the contour ended, short of the
        # card's corners when its outline broke up: its sides are moved onto the nearest
        # edges before their support is measured.
        for quad in refine_quads(grey, np.concatenate(guessed), CORNER_SNAP * min_len):
            quads.append(quad)
            areas.append(_area(quad))
            needed.append(CORNER_SUPPORT)  # half of it is guessed: ask for more
    if not quads:
        return []
    stacked = np.stack(quads).astype(np.float32)
    support, one_way = _contrast_support_many(grey, stacked, step)
    printed = _printed(grey, stacked, step)
    plain = np.zeros(len(stacked), bool)
    if plain_back is not None or any_plain:
        plain = ~printed
        if plain_back is not None:
            plain &= _plain_back_inside(small, stacked, plain_back)
        plain &= plain_card_shaped(stacked, long_side)
    keep = (support >= np.array(needed)) & (printed | plain)
    likeness = _likeness_to_surroundings(small, stacked)
    keep &= likeness < np.where(plain, PLAIN_LIKENESS, MAX_LIKENESS)
    keep &= ~_grid_cells(cv2.dilate(edges, _CROSS), stacked)
    return [
        _Candidate(
            stacked[i],
            areas[i],
            float(support[i]),
            bool(one_way[i]),
            i >= whole_count,
            bool(plain[i]),
        )
        for i in np.flatnonzero(keep)
    ]


def _corner_quads(contour: np.ndarray, min_len: float, max_len: float) -> np.ndarray:
    """Card hypotheses from corners of a contour, (K, 4, 2): two long straight runs that
    meet (across a rounded corner, a few short segments) at about a right angle, each as
    long as a card side, span a parallelogram: the card, if its outline then stands out
    of the table all around (checked by the caller)."""
    epsilon = max(1.0, CORNER_EPSILON * min_len)
    poly = cv2.approxPolyDP(contour, epsilon, True).reshape(-1, 2).astype(np.float32)
    ends = np.roll(poly, -1, axis=0)
    lengths = np.sqrt(((ends - poly) ** 2).sum(axis=1))
    a = np.flatnonzero(lengths >= min_len / MAX_ASPECT)  # runs that may be card sides
    if len(a) < 2:
        return np.empty((0, 4, 2), np.float32)
    b = np.roll(a, -1)  # the next run along the contour
    # Length of the short segments between two runs (a rounded corner, a small dent).
    cumulative = np.concatenate([[0.0], np.cumsum(lengths)])
    gap = np.where(
        b > a, cumulative[b] - cumulative[a + 1], cumulative[-1] - cumulative[a + 1] + cumulative[b]
    )
    d, e = ends[a] - poly[a], ends[b] - poly[b]
    cross = d[:, 0] * e[:, 1] - d[:, 1] * e[:, 0]
    offset = poly[b] - poly[a]
    t = (offset[:, 0] * e[:, 1] - offset[:, 1] * e[:, 0]) / np.where(cross == 0, np.nan, cross)
    corner = poly[a] + t[:, None] * d
    first, second = poly[a] - corner, ends[b] - corner  # along each side, away from it
    long_a = np.sqrt((first**2).sum(axis=1))
    long_b = np.sqrt((second**2).sum(axis=1))
    longer, shorter = np.maximum(long_a, long_b), np.minimum(long_a, long_b)
    cosine = (first * second).sum(axis=1) / np.maximum(long_a * long_b, 1e-6)
    with np.errstate(invalid="ignore"):
        usable = (
            (gap <= CORNER_GAP * np.minimum(lengths[a], lengths[b]))
            & (np.abs(cosine) <= MAX_CORNER_COSINE)
            & (longer >= min_len)
            & (longer <= max_len)
            & (longer <= MAX_ASPECT * shorter)
        )
    quads = np.stack([corner + first, corner, corner + second, corner + first + second], axis=1)
    return quads[usable & np.isfinite(quads).all(axis=(1, 2))].astype(np.float32)


def _area(quad: np.ndarray) -> float:
    """Shoelace area of a (4, 2) quad."""
    x, y = quad[:, 0], quad[:, 1]
    return float(abs(x @ y[NEXT] - y @ x[NEXT]) / 2)


def _contrast_support_many(
    grey: np.ndarray, quads: np.ndarray, step: float
) -> tuple[np.ndarray, np.ndarray]:
    """(M,) the fraction of each quad's outline where card and table differ, side by side,
    and (M,) whether the quad's inside is lighter (or darker) than outside on all sides.

    Each side is probed at a few points: lightness just outside minus just inside. A card
    edge keeps one sign along a side (a white card on a white cloth is still a little
    brighter, or shadowed, all along), texture and noise do not, so a side counts the
    points whose step has the side's majority sign and clears `step`.
    """
    ends = quads[:, NEXT]
    vectors = ends - quads
    lengths = np.sqrt((vectors**2).sum(axis=2, keepdims=True))
    normals = np.stack([vectors[..., 1], -vectors[..., 0]], axis=-1) / np.maximum(lengths, 1e-6)
    centre = quads.mean(axis=1, keepdims=True)
    outward = np.sign((((quads + ends) / 2 - centre) * normals).sum(axis=2, keepdims=True))
    normals = normals * np.where(outward == 0, 1.0, outward)
    points = quads[:, :, None, :] + _ALONG[None, None, :, None] * vectors[:, :, None, :]
    offset = normals[:, :, None, :] * PROBE
    probes = np.concatenate([points + offset, points - offset], axis=2).astype(np.float32)
    flat = probes.reshape(-1, 2 * SUPPORT_SAMPLES, 2)
    values = sample(grey, flat).astype(np.float32)
    values = values.reshape(len(quads), 4, 2 * SUPPORT_SAMPLES)
    difference = values[..., :SUPPORT_SAMPLES] - values[..., SUPPORT_SAMPLES:]
    sign = np.sign(difference.sum(axis=2, keepdims=True))
    support = ((difference * sign) >= step).mean(axis=(1, 2))
    # Paper against one table differs the same way on every side; an outline that takes
    # in a shadow sees paper on two sides and shadow (darker than the table) on two.
    one_way = np.abs(sign[..., 0].sum(axis=1)) == 4
    return support, one_way


def plain_card_shaped(quads: np.ndarray, long_side: float) -> np.ndarray:
    """(M,) booleans: has each quad the shape and size a card with no print inside must
    have to be taken for one: no square (`PLAIN_MIN_ASPECT`), and `PLAIN_MIN_LENGTH` of
    the picture's `long_side` long or longer. The reader asks the same of a quad it reads
    as a playing deck's own plain back (`read.CardReader._read_own_back`)."""
    length, width = mean_extents(quads)
    return (length >= PLAIN_MIN_ASPECT * width) & (length >= PLAIN_MIN_LENGTH * long_side)


def mean_extents(quads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(M,) each quad's mean long side and (M,) its mean short side: `geometry.quad_extent`
    for a batch of quads."""
    sides = np.linalg.norm(quads - quads[:, NEXT], axis=2)  # (M, 4)
    across, along = (sides[:, 0] + sides[:, 2]) / 2, (sides[:, 1] + sides[:, 3]) / 2
    return np.maximum(across, along), np.minimum(across, along)


def _likeness_to_surroundings(small: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """(M,) how much the colours inside each quad are those of a band around it (0..1)?

    A card is paper and ink laid on a table; a patch cut out of a patterned cloth (the
    cells of a gingham, a tile) holds the same colours as the cloth around it. Coarse
    colour histograms of points inside and of a band outside are compared.
    """
    outer = scaled_about_centre(quads, 1.0 + SURROUNDING_BAND)
    inside = _points_in(quads, _INSIDE)  # (M, P, 2)
    ring = _points_in(outer, _RING)
    samples = np.concatenate([inside, ring], axis=1).astype(np.float32)
    colours = sample(small, samples, cv2.INTER_NEAREST)  # (M, P + R, 3)
    bins = (colours // 32).astype(np.int32)
    codes = bins[..., 0] * 64 + bins[..., 1] * 8 + bins[..., 2]  # 8 x 8 x 8 colour bins
    count_inside = len(_INSIDE)
    a = _histograms(codes[:, :count_inside]) / count_inside
    b = _histograms(codes[:, count_inside:]) / (codes.shape[1] - count_inside)
    return np.minimum(a, b).sum(axis=1)


def _histograms(codes: np.ndarray) -> np.ndarray:
    """(M, 512) counts of each row's colour codes (M, K): one bincount for all rows, each
    row's codes moved to bins of its own."""
    rows = len(codes)
    moved = codes + 512 * np.arange(rows)[:, None]
    return np.bincount(moved.ravel(), minlength=512 * rows).reshape(rows, 512)


def _points_in(quads: np.ndarray, uv: np.ndarray) -> np.ndarray:
    """Bilinear points at (u, v) in [0, 1]^2 of each quad (corner 0 at (0, 0), clockwise)."""
    u = uv[:, 0][None, :, None]
    v = uv[:, 1][None, :, None]
    q = quads[:, None, :, :]
    return (
        (1 - u) * (1 - v) * q[:, :, 0]
        + u * (1 - v) * q[:, :, 1]
        + u * v * q[:, :, 2]
        + (1 - u) * v * q[:, :, 3]
    )


def _printed(grey: np.ndarray, quads: np.ndarray, step: float) -> np.ndarray:
    """(M,) booleans: does the inside of each quad carry print (pips, art, a pattern)?

    Every card face has its indices and every back its pattern or logo, while a cell of a
    gingham cloth, a tile or a phone's dark screen is plain: the lightness of a grid of
    points inside the quad must spread by more than a step of the table's noise.
    """
    points = _points_in(quads, _INSIDE).astype(np.float32)  # (M, P, 2)
    values = sample(grey, points).astype(np.float32)
    return values.std(axis=1) >= PRINT_FACTOR * step


def _colour_candidates(small: np.ndarray, edges: np.ndarray, back: np.ndarray) -> list[_Candidate]:
    """The blobs of a plain back's colour (`colour_blobs.back_coloured_quads`) in `small`
    that share little of their colours with the band around them (`PLAIN_LIKENESS`) and
    are no cell of a grid in the edge map `edges` (a gingham's cells of the back's colour
    are card-shaped blobs too), as plain candidates: backs as light as the table, whose
    outline the edge map misses."""
    quads = back_coloured_quads(small, back, PLAIN_MIN_LENGTH * max(small.shape[:2]))
    if not len(quads):
        return []
    keep = _likeness_to_surroundings(small, quads) < PLAIN_LIKENESS
    keep &= ~_grid_cells(cv2.dilate(edges, _CROSS), quads)
    return [_Candidate(quad, _area(quad), 1.0, plain=True) for quad in quads[keep]]


def _plain_back_inside(small: np.ndarray, quads: np.ndarray, back: np.ndarray) -> np.ndarray:
    """(M,) booleans: is the inside of each quad, on average, the colour of an enrolled
    back whose inside carries no print (`back`, mean BGR) under the table's light?"""
    colours = sample(small, _points_in(quads, _INSIDE).astype(np.float32))  # (M, P, 3)
    return back_coloured(colours.astype(np.float32).mean(axis=1), back)


def _grid_cells(near_edges: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """(M,) booleans: is each quad a cell of a grid (gingham, tiles) and not a card?

    A card's outline stops at its corners; the lines of a gingham cloth or of a tiled
    table run on through every cell. Past each end of each side a few points are looked
    up in `near_edges` (the edge map, dilated by a pixel); a side is continued when most
    of them lie on an edge, and three continued sides (one of them at both ends) make a
    cell. Points outside the picture count as on an edge: a cell cut by the border of
    the picture is still a cell.
    """
    ends = quads[:, NEXT]
    points = quads[:, :, None, :] + _BEYOND[None, None, :, None] * (ends - quads)[:, :, None, :]
    xs = points[..., 0].round().astype(np.int32)
    ys = points[..., 1].round().astype(np.int32)
    height, width = near_edges.shape
    outside = (xs < 0) | (ys < 0) | (xs >= width) | (ys >= height)
    on = outside | (near_edges[np.clip(ys, 0, height - 1), np.clip(xs, 0, width - 1)] > 0)
    half = len(_BEYOND) // 2
    before, after = on[..., :half].mean(axis=2), on[..., half:].mean(axis=2)  # (M, 4)
    either = ((before >= CONTINUED) | (after >= CONTINUED)).sum(axis=1)
    both = ((before >= CONTINUED) & (after >= CONTINUED)).sum(axis=1)
    return (either >= 3) & (both >= GRID_BOTH)


def _quad_of(contour: np.ndarray, min_len: float, max_len: float) -> _Candidate | None:
    """The rough card quad of a contour, or None when the contour is not card-shaped."""
    hull = cv2.convexHull(contour)
    hull_area = cv2.contourArea(hull)
    if hull_area <= 0:
        return None
    poly = cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True)
    if len(poly) == 4:
        quad = poly.reshape(4, 2).astype(np.float32)
    else:  # a corner hidden by a neighbour, or not a card: the enclosing rectangle
        quad = cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32)
    quad_area = abs(float(cv2.contourArea(quad)))
    # The simplified polygon cuts the corners a little, so the hull may exceed it.
    if quad_area <= 0 or not MIN_FILL * quad_area <= hull_area <= 1.2 * quad_area:
        return None
    sides = np.sqrt(((quad - quad[NEXT]) ** 2).sum(axis=1))
    a, b = sides[0] + sides[2], sides[1] + sides[3]
    short, long = min(a, b) / 2, max(a, b) / 2
    if not (min_len <= long <= max_len and MIN_ASPECT * short <= long <= MAX_ASPECT * short):
        return None
    if not even_sides(quad[None], MAX_OPPOSITE_RATIO)[0]:
        return None
    return _Candidate(quad=quad, area=max(quad_area, hull_area), support=0.0)


def _fit_sides(points: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """Refit each side of a rough quad to the contour points along it; new corners.

    The rough quad's sides come from a few polygon vertices and can be skewed by a
    rounded corner; a line through all the contour points of the middle of each side
    is straight and true, also under perspective (the quad need not be a rectangle).
    """
    starts = quad.astype(np.float32)
    vectors = starts[NEXT] - starts
    lengths = np.sqrt((vectors**2).sum(axis=1))
    if lengths.min() < 1e-3:
        return None
    directions = vectors / lengths[:, None]
    normals = np.stack([-directions[:, 1], directions[:, 0]], axis=1)
    rel = points[:, None, :] - starts[None, :, :]  # (M, 4, 2)
    t = np.einsum("mkd,kd->mk", rel, directions) / lengths
    distance = np.abs(np.einsum("mkd,kd->mk", rel, normals))
    distance[(t < 0.12) | (t > 0.88)] = np.inf
    nearest = distance.argmin(axis=1)
    near = distance[np.arange(len(points)), nearest] <= np.maximum(2.0, 0.1 * lengths[nearest])
    lines = np.empty((4, 4), np.float32)  # per side: direction x, y, point x, y
    for k in range(4):
        side = points[near & (nearest == k)]
        if len(side) < 5:
            lines[k] = (*directions[k], *(starts[k] + vectors[k] / 2))
        else:
            lines[k] = cv2.fitLine(side, cv2.DIST_L2, 0, 0.01, 0.01).ravel()
    corners = intersections(lines[None, :, 2:], lines[None, :, :2])[0]
    if not np.isfinite(corners).all() or np.abs(corners - quad).max() > 0.25 * lengths.max():
        return None
    return corners.astype(np.float32)


def _resolve_overlaps(candidates: list[_Candidate]) -> tuple[list[_Candidate], list[_Candidate]]:
    """Keep one quad per card: drop duplicates, inner frames and unions of cards.

    The same card is usually found twice (the outer boundary of its outline and the hole
    inside it), a back's printed frame looks like a smaller card inside it, and two
    overlapping cards can be outlined together. Largest first: a quad that holds two
    distinct cards is their union and goes; otherwise what it holds is itself again.

    Returned apart: the whole, one-way outlines dropped only as held by a quad
    `NESTED_CARD` times their area or more (`EdgeQuads.nested`), one per card.
    """
    ordered = sorted(candidates, key=lambda c: c.area, reverse=True)
    count = len(ordered)
    inter = _intersections_matrix([c.quad for c in ordered])
    areas = np.array([c.area for c in ordered])
    union = areas[:, None] + areas[None, :] - inter
    iou = inter / np.maximum(union, 1e-6)
    keep = np.ones(count, bool)
    small = np.zeros(count, bool)  # dropped only as held by a much larger quad
    for i in range(count):
        if not keep[i]:
            continue
        held = [j for j in range(i + 1, count) if keep[j] and inter[i, j] >= NESTED * areas[j]]
        distinct: list[int] = []  # one per card among those held (duplicates merged)
        for a in held:
            # A guess from a corner may be half a card (a side and a printed line): only
            # whole outlines prove that the container is two cards.
            if not ordered[a].guessed and all(iou[a, b] < SAME_OUTLINE for b in distinct):
                distinct.append(a)
        # Two cards outlined together are each outlined as well as their union is; two
        # pieces of one card (split by a line of its print) are not.
        outlined = min((ordered[a].support for a in distinct), default=0.0)
        if len(distinct) >= 2 and outlined >= ordered[i].support - 0.1:
            keep[i] = False  # two touching or overlapping cards outlined together
        elif not ordered[i].one_way and any(ordered[j].one_way for j in held):
            keep[i] = False  # the card with its shadow: the card itself is held
        else:
            keep[held] = False  # the same card again, or its inner frame
            small[held] = areas[held] < NESTED_CARD * areas[i]
    # Two cards may overlap a little; quads that share much more are one card and a
    # shape made of its side and a line of the table: the better outlined one stays.
    for i, j in zip(
        *np.nonzero(np.triu(inter > MAX_SHARED * np.minimum.outer(areas, areas), 1)), strict=True
    ):
        if keep[i] and keep[j]:
            dropped = j if ordered[i].support >= ordered[j].support else i
            keep[dropped] = False
            small[dropped] = areas[dropped] < NESTED_CARD * areas[i + j - dropped]
    # the nested ones, whole and one-way, one per card (largest first)
    nested: list[int] = []
    for j in np.flatnonzero(small):
        whole = not ordered[j].guessed and ordered[j].one_way
        if whole and all(iou[j, k] < SAME_OUTLINE for k in nested):
            nested.append(j)
    return [c for c, k in zip(ordered, keep, strict=True) if k], [ordered[j] for j in nested]


def _intersections_matrix(quads: list[np.ndarray]) -> np.ndarray:
    """Pairwise intersection areas (only pairs whose bounding boxes meet are computed)."""
    count = len(quads)
    inter = np.zeros((count, count))
    if count == 0:
        return inter
    boxes = np.array([[*q.min(axis=0), *q.max(axis=0)] for q in quads])
    meet = (
        (boxes[:, None, 0] < boxes[None, :, 2])
        & (boxes[None, :, 0] < boxes[:, None, 2])
        & (boxes[:, None, 1] < boxes[None, :, 3])
        & (boxes[None, :, 1] < boxes[:, None, 3])
    )
    for i, j in zip(*np.nonzero(np.triu(meet, 1)), strict=True):
        area, _ = cv2.intersectConvexConvex(quads[i], quads[j])
        inter[i, j] = inter[j, i] = area
    return inter
