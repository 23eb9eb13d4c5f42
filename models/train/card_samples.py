"""Training crops for the playing-card reader: synthetic cards seen as a camera sees them.

Each sample is a card face (or a back, or something that is not a card) laid on a
procedural table at a random angle, size and tilt, lit unevenly, blurred, noised and
JPEG-compressed; then the quad a detector would hand over (the true corners, jittered as a
detector's error) is rectified exactly as at run time (`companion.vision.features`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import cv2
import numpy as np

from companion.vision.features import rectify_cards
from companion.vision.geometry import (
    index_points,
    order_clockwise,
    points_in_any,
    quad_iou,
    scaled_from_corner,
)
from companion.vision.synth import CardTruth, DistractorSpec
from companion.vision.synth.art import (
    PLAYING_BACK_STYLES,
    card_back,
    card_face,
    card_mask,
    joker_face,
    random_design_style,
)
from companion.vision.synth.props import draw_distractor
from companion.vision.synth.textures import TABLE_STYLES, table_surface
from companion.vision.types import SUITS

# Classes of the rank head: 0..12 = Ace..King, then a card back, then "not a card".
RANK_NAMES: tuple[str, ...] = (
    "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "back", "none",
)  # fmt: skip
BACK_CLASS = 13
NONE_CLASS = 14
NO_SUIT = -1  # suit target ignored for backs and non-cards
NO_OVERLAP = 0.05  # a finder's quad overlapping no card more than this is not a card
# A finder's quad overlapping no card by this is at most a scrap of a covered one: what the
# benchmark counts as a phantom (`bench.tallies.Tally`), and "none" where a set asks for it.
FRAGMENT_IOU = 0.3
# Tables whose deck has a procedural back design, most cards face down: the draw of both
# readers' sets of designed backs (`cards.designed_samples`, `whole.DESIGNED_JOBS`).
DESIGNED_TABLES = {"designed_backs": 1.0, "face_up_rate": 0.4}
NO_CARD = "no card"  # what such a quad lies on (`_under`)
# An index finder's hit is that index's from INDEX_NEAR of a card's length from its middle,
# no index's from INDEX_FAR (`_hit_label`).
INDEX_NEAR = 0.12
INDEX_FAR = 0.3
# With `index_hit_views(true_patches=True)` (measured, not shipped): this share of the
# playing tables lay their face-down cards as jokers, of editions drawn from JOKER_EDITIONS
# on (the benchmark's held-out jokers are editions 500..599, the tuning ones below).
JOKER_RATE = 0.3
# How a sample is cut from its picture along a quad: `features.rectify_cards` (the corner
# reader's READ_SIZE card) or `features.whole_views_of` (the whole-card reader's view).
Cut = Callable[[np.ndarray, Sequence[np.ndarray]], np.ndarray]


def _card_art(rng: np.random.Generator) -> tuple[np.ndarray, int, int]:
    """An upright 250x350 card picture with its (rank class, suit class)."""
    kind = rng.random()
    if kind < 0.72:
        rank = int(rng.integers(1, 14))
        suit = int(rng.integers(4))
        face = card_face("playing-cards", rank, SUITS[suit], int(rng.integers(0, 12)))
        return np.array(face), rank - 1, suit
    if kind < 0.84:
        if rng.random() < 0.6:
            back = card_back("playing-cards", PLAYING_BACK_STYLES[rng.integers(3)])
        else:
            back = card_back("animals", int(rng.integers(0, 300)))
        return np.array(back), BACK_CLASS, NO_SUIT
    if kind < 0.93:  # an animal card is not a playing card
        face = card_face("animals", int(rng.integers(1, 6)), None, int(rng.integers(0, 300)))
        return np.array(face), NONE_CLASS, NO_SUIT
    return _clutter(rng), NONE_CLASS, NO_SUIT


def designed_back_art(rng: np.random.Generator) -> tuple[np.ndarray, int, int]:
    """The back of a new procedural design (`art.designed_back`), as `_card_art` returns
    a card: a back never seen is still a back."""
    back = card_back("playing-cards", random_design_style(rng))
    return np.array(back), BACK_CLASS, NO_SUIT


# Jokers to train on are drawn from these editions up; those below are left for the
# tests and for measuring (`joker_face`).
JOKER_EDITIONS = 1_000


# A joker's rank target with `label=JOKER_AS_FACE`: a face that is no rank of the deck, its
# probability spread evenly over 6..King (`cards.rank_targets`), where "none" says no card.
JOKER_AS_FACE = -2
# A joker's rank class with `label=JOKER_CLASS`: a class of its own, after "none", which a
# reader trained with it folds into "none" (as shipped) or the 6..King classes when
# exported (`cards.FoldedJokers`), so that the runtime needs no class more.
JOKER_CLASS = NONE_CLASS + 1


def joker_art(rng: np.random.Generator, label: int = NONE_CLASS) -> tuple[np.ndarray, int, int]:
    """A joker (`art.joker_face`), as `_card_art` returns a card, labelled `label` ("none"
    by default, `JOKER_AS_FACE` or `JOKER_CLASS`): no game card. Its corners spell JOKER
    or show a star, which the readers, never shown one, took for an Ace's index now and
    then (a joker on a table read as an Ace)."""
    edition = int(rng.integers(JOKER_EDITIONS, 1_000_000))
    return np.array(joker_face(edition)), label, NO_SUIT


def plain_thing_art(rng: np.random.Generator) -> tuple[np.ndarray, int, int]:
    """A phone (its rim any colour) or a sticky note or seat marker, filling a card's
    picture as a finder's quad on it is read: "none". A reader that learned plain backs
    took a dark phone with a coloured rim for one."""
    if rng.random() < 0.4:
        return square_thing(rng), NONE_CLASS, NO_SUIT
    length = 350
    canvas = np.zeros((length, length, 3), np.uint8)
    phone = DistractorSpec(
        "phone",
        (length / 2, length / 2),
        float(length),
        90.0,
        tuple(int(v) for v in rng.integers(0, 256, 3)),
        0,
    )
    draw_distractor(canvas, phone)
    body = canvas[:, round(length * 0.26) : round(length * 0.74)]  # the phone, 0.48 wide
    return cv2.resize(body, (250, 350), interpolation=cv2.INTER_LINEAR), NONE_CLASS, NO_SUIT


def _clutter(rng: np.random.Generator) -> np.ndarray:
    """Something card-sized that is no card: a patch of table, a phone, a coin, a hand."""
    art = table_surface(TABLE_STYLES[rng.integers(len(TABLE_STYLES))], (250, 350), rng)
    for _ in range(int(rng.integers(0, 4))):
        color = tuple(int(v) for v in rng.integers(0, 256, 3))
        center = (int(rng.integers(0, 250)), int(rng.integers(0, 350)))
        if rng.random() < 0.5:
            cv2.circle(art, center, int(rng.integers(15, 90)), color, -1, cv2.LINE_AA)
        else:
            size = (int(rng.integers(20, 200)), int(rng.integers(20, 250)))
            cv2.rectangle(art, center, (center[0] + size[0], center[1] + size[1]), color, -1)
    return art


def square_thing(rng: np.random.Generator) -> np.ndarray:
    """A seat marker or a sticky note filling a card's picture, stretched as a finder's
    square quad on it is when it is read as a card: the phantoms an animal reader met."""
    side = 250
    canvas = np.zeros((side, side, 3), np.uint8)
    thing = DistractorSpec(
        "marker" if rng.random() < 0.7 else "note",
        (side / 2, side / 2),
        float(side),
        float(rng.choice([0.0, 90.0, 180.0, 270.0])),
        tuple(int(v) for v in rng.integers(0, 256, 3)),
        int(rng.integers(0, 50)),
    )
    draw_distractor(canvas, thing)
    return cv2.resize(canvas, (250, 350), interpolation=cv2.INTER_LINEAR)


def _light(image: np.ndarray, rng: np.random.Generator, motion_rate: float = 0.15) -> np.ndarray:
    """Uneven, tinted light, a glare spot now and then, blur, sensor noise and JPEG."""
    h, w = image.shape[:2]
    gx, gy = rng.uniform(-0.6, 0.6, 2)
    level = rng.uniform(0.45, 1.25)
    corners = (
        np.float32(
            [[1 - gx / 2 - gy / 2, 1 + gx / 2 - gy / 2], [1 - gx / 2 + gy / 2, 1 + gx / 2 + gy / 2]]
        )
        * level
    )
    gain = cv2.resize(corners, (w, h), interpolation=cv2.INTER_LINEAR)
    tint = rng.uniform(0.8, 1.15, 3)
    out = cv2.merge(
        [
            cv2.multiply(c, gain, scale=float(t), dtype=cv2.CV_32F)
            for c, t in zip(cv2.split(image), tint, strict=True)
        ]
    )
    if rng.random() < 0.15:
        spot = np.zeros((h, w), np.float32)
        cx, cy, r = int(rng.uniform(0, w)), int(rng.uniform(0, h)), rng.uniform(10, w / 2)
        cv2.circle(spot, (cx, cy), int(r / 2), float(rng.uniform(60, 200)), -1)
        spot = cv2.GaussianBlur(spot, (0, 0), r / 2)
        out += spot[..., None]
    if rng.random() < 0.5:
        k = 5 if w > 240 and rng.random() < 0.5 else 3
        out = cv2.GaussianBlur(out, (k, k), 0)
    if rng.random() < motion_rate:
        length = int(rng.integers(3, 7))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2] = 1.0 / length
        rot = cv2.getRotationMatrix2D((length / 2, length / 2), rng.uniform(0, 180), 1)
        kernel = cv2.warpAffine(kernel, rot, (length, length))
        out = cv2.filter2D(out, -1, kernel / max(kernel.sum(), 1e-6))
    noise = np.empty_like(out)
    cv2.randn(noise, 0, float(rng.uniform(1, 8)))
    out = cv2.convertScaleAbs(out + noise)  # saturates to 0..255
    quality = int(rng.integers(35, 95))
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else out


def _placed(
    art: np.ndarray, rng: np.random.Generator, min_length: float = 60.0, max_squeeze: float = 0.18
) -> tuple[np.ndarray, np.ndarray]:
    """The card laid on a table, seen at a random size, turn and tilt: (scene, corners)."""
    length = float(np.exp(rng.uniform(np.log(min_length), np.log(320))))
    width = length * 5 / 7
    side = int(length * 1.5) + 8
    table = table_surface(TABLE_STYLES[rng.integers(len(TABLE_STYLES))], (side, side), rng)
    angle = rng.uniform(0, 2 * np.pi)
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    half = np.array([[-width, -length], [width, -length], [width, length], [-width, length]]) / 2
    # a tilted camera: the far side of the card looks shorter
    squeeze = rng.uniform(0.0, max_squeeze)
    half[:2, 0] *= 1 - squeeze
    half[:2, 1] *= 1 - squeeze / 2
    corners = (half @ rot.T + side / 2 + rng.normal(0, 0.03 * length, 2)).astype(np.float32)
    src = np.array([[0, 0], [249, 0], [249, 349], [0, 349]], np.float32)
    matrix = cv2.getPerspectiveTransform(src, corners)
    warped = cv2.warpPerspective(art, matrix, (side, side), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(card_mask(), matrix, (side, side), flags=cv2.INTER_LINEAR)
    alpha = mask[..., None].astype(np.float32) / 255.0
    if rng.random() < 0.5:  # a soft shadow under the card
        shadow = cv2.GaussianBlur(mask, (0, 0), max(1.0, length / 60)).astype(np.float32) / 255
        offset = np.float32([[1, 0, rng.uniform(-4, 4)], [0, 1, rng.uniform(-4, 4)]])
        shadow = cv2.warpAffine(shadow, offset, (side, side))
        table = (table * (1 - 0.35 * shadow[..., None])).astype(np.uint8)
    scene = (warped * alpha + table * (1 - alpha)).astype(np.uint8)
    return scene, corners


def _occlude(card: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Cover part of one long edge or one corner, as an overlapping neighbour does."""
    out = card.copy()
    h, w = out.shape[:2]
    color = rng.integers(0, 256, 3)
    if rng.random() < 0.5:
        depth = int(rng.uniform(0.05, 0.3) * w)
        x0 = 0 if rng.random() < 0.5 else w - depth
        out[:, x0 : x0 + depth] = color
    else:
        dx, dy = int(rng.uniform(0.1, 0.3) * w), int(rng.uniform(0.1, 0.35) * h)
        if rng.random() < 0.5:
            out[:dy, :dx] = color
        else:
            out[h - dy :, w - dx :] = color
    return out


def synthetic_card(
    rng: np.random.Generator, cut: Cut = rectify_cards, art_of: Callable = _card_art
) -> tuple[np.ndarray, int, int]:
    """One card cut as the reader sees it, with (rank class, suit class); `art_of` draws
    its picture and classes."""
    art, rank, suit = art_of(rng)
    # down to 40 px long and steeper tilts: the held-out scenes hold cards that small
    scene, corners = _placed(art, rng, min_length=40.0, max_squeeze=0.3)
    scene = _light(scene, rng, motion_rate=0.3)
    jitter = rng.normal(0, 0.012 * np.linalg.norm(corners[0] - corners[2]), corners.shape)
    card = cut(scene, [order_clockwise(corners + jitter.astype(np.float32))])[0]
    if rng.random() < 0.1:
        card = _occlude(card, rng)
    return card, rank, suit


def synthetic_cards(
    n: int, seed: int, cut: Cut = rectify_cards, art_of: Callable = _card_art
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`n` samples from one seed: (cards (n, H, W, 3), rank classes, suit classes), each
    drawn by `art_of` (`_card_art`: any card or clutter; `designed_back_art`,
    `plain_thing_art`)."""
    rng = np.random.default_rng(seed)
    samples = [synthetic_card(rng, cut, art_of) for _ in range(n)]
    return _as_arrays(
        [s[0] for s in samples], [s[1] for s in samples], [s[2] for s in samples], cut
    )


def scene_cards(
    n_scenes: int,
    seed: int,
    cut: Cut = rectify_cards,
    designed_backs: float = 0.0,
    face_up_rate: float = 0.75,
    jokers: int | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cards cut from whole rendered table scenes (`synth.random_scene`, seeds below 900,000).

    The scene renderer's camera tilt, lens, motion and focus blur, shadows and light are
    what the reader meets in the benchmark, so these samples close the gap the per-card
    renderer above leaves (small, blurred, steeply tilted cards). One scene in five shows
    the animal deck (its faces are "none", its backs "back"). Each card at least 90%
    visible is rectified from its true corners jittered as a detector's error.
    `designed_backs`: the share of scenes whose deck has a procedural back design. With
    `jokers` (a rank class: `NONE_CLASS`, `JOKER_AS_FACE` or `JOKER_CLASS`), every scene is
    of playing cards and its face-down cards show a joker (`joker_art`) instead of a back,
    labelled so.
    """
    from companion.vision.synth import random_scene, render_scene

    rng = np.random.default_rng(seed)
    cards, ranks, suits = [], [], []
    for _ in range(n_scenes):
        deck = "animals" if jokers is None and rng.random() < 0.2 else "playing-cards"
        spec = random_scene(
            rng,
            int(rng.integers(6, 16)),
            deck,
            face_up_rate=face_up_rate,
            hand_rate=0.1,
            designed_backs=designed_backs,
        )
        joker = joker_art(rng)[0] if jokers is not None else None
        image, truths = render_scene(spec, back_art=joker)
        for t in truths:
            if t.visible < 0.9:
                continue
            joker = jokers is not None and t.face == "down"
            rank, suit = (jokers, NO_SUIT) if joker else _truth_classes(t)
            # the true corners, from the card's own top-left (or bottom-right: upside
            # down), not `order_clockwise`: under a steep tilt a card's short side can
            # look the longer one, and a sideways rectification would teach a wrong label
            quad = np.roll(np.asarray(t.corners, np.float32), 2 * int(rng.integers(2)), axis=0)
            jitter = rng.normal(0, 0.012 * np.linalg.norm(quad[0] - quad[2]), quad.shape)
            cards.append(cut(image, [quad + jitter.astype(np.float32)])[0])
            ranks.append(rank)
            suits.append(suit)
    return _as_arrays(cards, ranks, suits, cut)


def _truth_classes(truth: CardTruth) -> tuple[int, int]:  # (rank class, suit class)
    """The reader's classes for what a rendered card truly shows."""
    if truth.face == "down":
        return BACK_CLASS, NO_SUIT
    if truth.spec.deck != "playing-cards":
        return NONE_CLASS, NO_SUIT
    return truth.spec.rank - 1, SUITS.index(truth.spec.suit)


def found_cards(
    n_scenes: int,
    seed: int,
    min_iou: float = 0.7,
    cut: Cut = rectify_cards,
    designed_backs: float = 0.0,
    face_up_rate: float = 0.75,
    none_below: float = NO_OVERLAP,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cards cut from rendered scenes along the quads the card finders really return.

    Why: the reader used to learn from true corners with a small jitter, and then met the
    finders' quads, whose sides can sit 3 to 5% of a card's length off (a shadow, a blurred
    edge, two merged outlines): such a card read as "other" although its true quad read
    right. Here every quad of both finders (`detect.find_cards`, `segment.find_cards_learned`)
    that overlaps a truth by `min_iou` is rectified as `CardReader.read_batch` rectifies it
    (`order_clockwise`) and labelled with that truth. A quad ordered sideways (the truth's
    corners one step round from it: a steeply tilted card) is left out: the reader turns
    those itself. A quad that overlaps no card at all (a phone, a note, a seat marker, a
    patch of gingham) is a hard negative, labelled "none"; one scene in six is an empty
    table with such things and hands. One card scene in five shows the animal deck (faces
    "none", backs "back"). `designed_backs`: the share of card scenes whose deck has a
    procedural back design. `none_below`: a quad whose best overlap with a card is under
    it is "none"; at FRAGMENT_IOU that takes in scraps of covered cards.
    """
    from companion.vision.detect import find_cards
    from companion.vision.segment import find_cards_learned
    from companion.vision.synth import random_scene, render_scene

    rng = np.random.default_rng(seed)
    cards, ranks, suits = [], [], []
    for _ in range(n_scenes):
        if rng.random() < 1 / 6:
            things = int(rng.integers(2, 6))
            spec = random_scene(rng, 0, distractors=things, hand_rate=0.5)
        else:
            deck = "animals" if rng.random() < 0.2 else "playing-cards"
            n_cards = int(rng.integers(6, 16))
            spec = random_scene(
                rng,
                n_cards,
                deck,
                face_up_rate=face_up_rate,
                hand_rate=0.1,
                designed_backs=designed_backs,
            )
        image, truths = render_scene(spec)
        for finder in (find_cards, find_cards_learned):
            for quad in finder(image):
                quad = order_clockwise(quad)
                under = _under(quad, truths, min_iou, none_below)
                if under is None:
                    continue  # part of a card, or two, or a card ordered sideways
                rank, suit = (NONE_CLASS, NO_SUIT) if under is NO_CARD else _truth_classes(under)
                cards.append(cut(image, [quad])[0])
                ranks.append(rank)
                suits.append(suit)
    return _as_arrays(cards, ranks, suits, cut)


def _as_arrays(
    cards: list[np.ndarray], ranks: list[int], suits: list[int], cut: Cut
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Samples collected in lists as (cards (N, H, W, 3), rank classes, suit classes)."""
    return (
        np.stack(cards) if cards else cut(np.zeros((1, 1, 3), np.uint8), []),
        np.array(ranks, np.int64),
        np.array(suits, np.int64),
    )


def found_animal_views(
    editions: range, scenes_per_edition: int, empty_tables: int, seed: int
) -> tuple[dict[tuple[int, int], list[np.ndarray]], list[np.ndarray]]:
    """Cards cut along the quads the card finders really return, and hard negatives.

    For the enrolled-deck embedding (`embed.py`): views keyed by (edition, card key:
    0..4 for the ranks 1..5, 5 for the back), and negatives. Why: the finders' quads sit
    2 to 4 pixels off on small, blurred or glared cards, and a card cut that way looked
    like none of its deck to an embedding trained on true corners; the quads on phones,
    notes and seat markers are the phantoms to keep away.
    Scenes of each edition are rendered and read by both finders (`fusion.find_candidates`:
    the edge quads, the placed learned quads and their rough rectangles); a quad on a card
    (IoU 0.7 or more, not sideways) is a view of that (edition, key); one overlapping no
    card is a negative, as is every quad on the empty tables.
    """
    from companion.vision.fusion import find_candidates
    from companion.vision.synth import random_scene, render_scene

    rng = np.random.default_rng(seed)
    views: dict[tuple[int, int], list[np.ndarray]] = {}
    negatives: list[np.ndarray] = []
    jobs = [edition for edition in editions for _ in range(scenes_per_edition)]
    jobs += [None] * empty_tables
    for edition in jobs:
        if edition is None:
            things = int(rng.integers(2, 6))
            spec = random_scene(rng, 0, distractors=things, hand_rate=0.5)
        else:
            n_cards = int(rng.integers(8, 16))
            spec = random_scene(rng, n_cards, "animals", edition=edition, face_up_rate=0.6)
        image, truths = render_scene(spec)
        found = find_candidates(image)
        for quad in found.edges + found.learned + found.rough:
            quad = order_clockwise(quad)
            under = _under(quad, truths, 0.7)
            if under is NO_CARD:
                negatives.append(rectify_cards(image, [quad])[0])
            elif under is not None and edition is not None:
                key = under.rank - 1 if under.face == "up" else 5  # 1..5, back
                views.setdefault((edition, key), []).append(rectify_cards(image, [quad])[0])
    return views, negatives


def _under(
    quad: np.ndarray, truths: list[CardTruth], min_iou: float, none_below: float = NO_OVERLAP
) -> CardTruth | str | None:
    """What a finder's clockwise quad lies on: the card it overlaps by `min_iou` (None if it
    is ordered sideways against it: the reader turns those itself), NO_CARD where it
    overlaps no card by `none_below`, None for part of a card or two."""
    overlaps = [quad_iou(quad, t.corners) for t in truths] or [0.0]
    best = int(np.argmax(overlaps))
    if overlaps[best] < none_below:
        return NO_CARD
    if overlaps[best] < min_iou:
        return None
    truth = truths[best]
    errors = [np.abs(np.roll(quad, k, 0) - truth.corners).max() for k in range(4)]
    return None if int(np.argmin(errors)) % 2 else truth


def index_hit_views(
    n_scenes: int,
    seed: int,
    scales: Sequence[float] = (1.0, 0.9, 1.1),
    true_patches: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Corner patches cut where the index finder (`corner_index.find_indices`) marks an
    index, as `read.CardReader.read_index` cuts them (the hit's top-left patch, its quad
    scaled by each of `scales` about the index corner).

    Why: a card fanned under others is read from its index alone, and the corner reader
    learned its patches from true or finder quads, where the index sits where it should;
    a hit's implied card is off by up to a tenth in size and a few degrees in turn, so its
    patch shows the index shifted and scaled, with a neighbour's edge or print beside it,
    and clear indices read below the index floors. A hit whose centre lies near the middle
    of a face-up card's index that no later card covers, and whose quad lies on that card
    turned as it is, is labelled with the card; a hit near no index at all (a pip, print
    of the art, the table) is "none"; the rest (near a covered index, or turned another
    way) are left out. Half the scenes are close-up heaps (`layout="pile"`, a 1280x720
    frame or a 504x378 photo), the rest tables as in a game; one in five of the tables
    shows the animal deck, whose cards carry no index.

    With `true_patches` (`cards.index_tune`'s, measured and not shipped), each index
    in sight is also cut along its card's true outline moved and scaled a little
    (`_true_index_quads`), labelled with the card: the first stage read clear indices of
    cards mostly under others unlike at each of `scales`. And `JOKER_RATE` of the playing
    tables lay their face-down cards as a deck's jokers (editions from `JOKER_EDITIONS`),
    whose corners, cut so too, are "none": a joker's corner reads as an index otherwise.
    """
    from companion.vision.corner_index import PATCH_HEIGHT, PATCH_WIDTH, find_indices
    from companion.vision.features import top_left_views_of
    from companion.vision.segment import net_input
    from companion.vision.synth import random_scene, render_scene

    rng = np.random.default_rng(seed)
    jitter = np.random.default_rng(seed + 99)  # true_patches' own draws
    views, ranks, suits = [], [], []
    middle = np.array([PATCH_WIDTH / 2, PATCH_HEIGHT / 2])

    def add(quads: list[np.ndarray], classes: tuple[int, int]) -> None:
        views.extend(top_left_views_of(image, quads))
        ranks.extend([classes[0]] * len(quads))
        suits.extend([classes[1]] * len(quads))

    for _ in range(n_scenes):
        if rng.random() < 0.5:
            size = ((1280, 720), (504, 378), (378, 504))[int(rng.integers(3))]
            low = 150.0 if size[0] == 1280 else 200.0
            spec = random_scene(
                rng, int(rng.integers(2, 7)), "playing-cards", size=size, face_up_rate=0.9,
                layout="pile", length_range=(low, 420.0), hand_rate=0.05,
            )  # fmt: skip
        else:
            deck = "animals" if rng.random() < 0.2 else "playing-cards"
            spec = random_scene(rng, int(rng.integers(6, 16)), deck, face_up_rate=0.75)
        playing = bool(spec.cards) and spec.cards[0].deck == "playing-cards"
        if true_patches and playing and jitter.random() < JOKER_RATE:
            edition = JOKER_EDITIONS + int(jitter.integers(100_000))
            image, truths = render_scene(spec, back_art=joker_face(edition))
            for truth in truths:
                if truth.face == "down" and truth.visible >= 0.5:
                    for turn in (0, 2):
                        quad = np.roll(np.asarray(truth.corners, np.float32), -turn, axis=0)
                        add(_true_index_quads(quad, jitter, scales), (NONE_CLASS, NO_SUIT))
        else:
            image, truths = render_scene(spec)
        hits = find_indices(*net_input(image))
        if not hits and not true_patches:
            continue
        indices = _visible_indices(truths, middle)
        if true_patches:
            for _, quad, _, classes in indices:
                if classes is not None:
                    add(_true_index_quads(np.asarray(quad, np.float32), jitter, scales), classes)
        for hit in hits:
            label = _hit_label(hit, indices)
            if label is not None:
                add([scaled_from_corner(hit.quad, s) for s in scales], label)
    if not views:
        return (
            top_left_views_of(np.zeros((8, 8, 3), np.uint8), []),
            np.zeros(0, np.int64),
            (np.zeros(0, np.int64)),
        )
    return np.stack(views), np.array(ranks, np.int64), np.array(suits, np.int64)


def _true_index_quads(
    quad: np.ndarray, jitter: np.random.Generator, scales: Sequence[float]
) -> list[np.ndarray]:
    """A card's quad from one index corner (`_visible_indices`), scaled by 0.88..1.12
    about that corner and moved by up to 4% of each side, as an index finder's hit would
    imply it; then at each of `scales`, as `read_index` reads it."""
    right, down = quad[1] - quad[0], quad[3] - quad[0]
    size = float(jitter.uniform(0.88, 1.12))
    shift = jitter.uniform(-0.04, 0.04) * right + jitter.uniform(-0.04, 0.04) * down
    moved = (scaled_from_corner(quad, size) + shift).astype(np.float32)
    return [scaled_from_corner(moved, s) for s in scales]


def _visible_indices(
    truths: Sequence[CardTruth], middle: np.ndarray
) -> list[tuple[np.ndarray, np.ndarray, float, tuple[int, int] | None]]:
    """Each face-up playing card's two index middles, as (middle, the card's quad from
    that index's corner, card length, its classes, or None where a later card covers it)."""
    out = []
    for k, truth in enumerate(truths):
        if truth.face != "up" or truth.spec.deck != "playing-cards":
            continue
        corners = np.asarray(truth.corners, np.float32)
        length = float(np.linalg.norm(corners[3] - corners[0]))
        points = index_points(corners, *middle)
        covered = points_in_any(points, [later.corners for later in truths[k + 1 :]])
        for turn, point, hidden in zip((0, 2), points, covered, strict=True):
            quad = np.roll(corners, -turn, axis=0)
            out.append((point, quad, length, None if hidden else _truth_classes(truth)))
    return out


def _hit_label(hit, indices) -> tuple[int, int] | None:  # hit: corner_index.IndexHit
    """The classes a hit's patch shows (`index_hit_views`), or None to leave it out: a hit
    a little off an index (`INDEX_NEAR` to `INDEX_FAR` of a card's length) shows part of
    it, neither that card for sure nor none."""
    distances = [np.linalg.norm(hit.centre - point) / length for point, _, length, _ in indices]
    if all(d >= INDEX_FAR for d in distances):
        return NONE_CLASS, NO_SUIT
    for (_, quad, length, classes), distance in zip(indices, distances, strict=True):
        if distance >= INDEX_NEAR:
            continue
        if classes is None:
            return None  # a covered index: what shows there is the card over it
        if np.linalg.norm(hit.quad[0] - quad[0]) > 0.15 * length or quad_iou(hit.quad, quad) < 0.5:
            return None  # turned another way: the patch does not frame this index
        return classes
    return None
