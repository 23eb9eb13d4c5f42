"""Labelled real photos (`--real-photos`, the edje-aces layout): matching readings to the
labelled boxes of the visible part of each card, and scoring them, turned or not."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.vision.types import CardReading

from .tallies import best_pairs_first
from .timing import timed_read

TURNS = (0, 90, 180, 270)  # degrees the real photos may be turned by (`--real-turn`)
GAME_RANK_TEXT = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5}
# `--real-blur`: the direction of a photo's shake turns by this many degrees from one photo
# of the manifest to the next (a step that visits every direction before it repeats one).
SHAKE_TURN = 37
# `--real-card-length`: the photo is shrunk into a webcam's frame of this size, its rest the
# photo's own edge colour, the seam blended over this many pixels so that the photo's
# border is no straight step for a finder to take for a card's side.
WEBCAM_FRAME = (1280, 720)
SEAM = 12
# A reading's quad stands for a labelled card only where its box covers this much of the
# label's box (the card's visible part, inside the card).
COVERED = 0.7
# A labelled box this close to the photo's edge (pixels) is a card the photo cuts: shrunk into
# a webcam's frame (`webcam_photo`), such a card ends in the middle of the frame, at the seam.
CUT_MARGIN = 4


def real_photo_figures(
    folder: Path,
    split: str,
    finder: str = "both",
    turn: int = 0,
    blur: float = 0.0,
    card_length: float = 0.0,
) -> dict[str, object]:
    """Find and read the labelled cards of real photos (edje-aces layout), each turned
    clockwise by `turn` degrees first (`turned_photo`), shrunk into a webcam's frame so
    that its longest card is `card_length` pixels long where that is not 0
    (`webcam_photo`), and smeared by a camera shake `blur` pixels long where it is not 0
    (`shaken_photo`)."""
    from companion.cli.detect import read_image

    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    c = Counter()
    times: list[float] = []
    for index, entry in enumerate(manifest["images"]):
        if split != "all" and entry["split"] != split:
            continue
        image = read_image(str(folder / entry["file"]))
        if image is None:
            raise ValueError(f"cannot read {entry['file']}")
        image, cards = turned_photo(image, entry["cards"], turn)
        cut = [cut_by_edge(card["box"], image.shape[:2]) for card in cards]
        if card_length:
            image, cards = webcam_photo(image, cards, card_length)
        if blur:
            image = shaken_photo(image, blur, index)
        readings, _ = timed_read("playing-cards", image, times, finder)
        matches = match_cards(cards, readings, image.shape[:2])
        c["images"] += 1
        for card, best, edge in zip(cards, matches, cut, strict=True):
            rank = GAME_RANK_TEXT.get(card["rank"])
            c["cards"] += 1
            c["game cards" if rank else "other cards"] += 1
            c["cut game cards"] += bool(rank and edge)
            if best is None:
                c["missed"] += 1
                continue
            reading = readings[best]
            if rank is None and reading.rank is not None:
                c["non-game read as 1..5"] += 1
            right = reads_label(card, reading)
            if rank and reading.rank is not None and not right:
                c["game card read as another"] += 1
            c["right"] += right
            c["game cards right"] += bool(right and rank)
            c["cut game cards right"] += bool(right and rank and edge)
        c["unmatched readings"] += len(readings) - sum(m is not None for m in matches)
        # the edje-aces photos show no face-down card (their README): a back read is a
        # phantom, most of them a patch of carpet or cloth (`fusion.outlines`)
        c["backs read"] += sum(reading.face == "down" for reading in readings)
    cards = max(1, c["cards"])
    shaken = {"shaken": f"{blur:g} px"} if blur else {}
    webcam = {"longest card": f"{card_length:g} px in a 1280x720 frame"} if card_length else {}
    return {
        "split": split,
        "turned": f"{turn} degrees",
        **webcam,
        **shaken,
        "images": c["images"],
        "cards": c["cards"],
        "found": c["cards"] - c["missed"],
        "found and read right": c["right"],
        "accuracy": round(c["right"] / cards, 4),
        "game cards right": f"{c['game cards right']}/{c['game cards']}",
        "of them cut by the photo's edge": f"{c['cut game cards right']}/{c['cut game cards']}",
        "missed": c["missed"],
        "non-game read as 1..5": c["non-game read as 1..5"],
        "game card read as another (rank or suit)": c["game card read as another"],
        "unmatched readings": c["unmatched readings"],
        "backs read (no card lies face down)": c["backs read"],
    }


def cut_by_edge(box: Sequence[float], shape: tuple[int, int]) -> bool:
    """Whether a labelled box (x0, y0, x1, y1) reaches to within `CUT_MARGIN` pixels of the
    edge of a photo `shape` (height, width) big: a card the photo cuts, boxed as far as it
    shows. Why it is counted apart: as photographed, the photo's edge is the camera's; in a
    webcam's frame (`webcam_photo`) the card ends in the middle of the frame, in a scene no
    camera over a table shows."""
    x0, y0, x1, y1 = box
    height, width = shape
    return min(x0, y0, width - x1, height - y1) < CUT_MARGIN


def turned_photo(
    image: np.ndarray, cards: Sequence[dict], turn: int
) -> tuple[np.ndarray, list[dict]]:
    """A labelled photo and its cards' boxes (x0, y0, x1, y1) turned clockwise by `turn`
    degrees (a multiple of 90)."""
    turned = [dict(card) for card in cards]
    for _ in range(turn // 90 % 4):
        height = image.shape[0]
        image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
        for card in turned:  # (x, y) -> (height - y, x), in a picture `height` high
            x0, y0, x1, y1 = card["box"]
            card["box"] = [height - y1, x0, height - y0, x1]
    return image, turned


def webcam_photo(
    image: np.ndarray, cards: Sequence[dict], length: float
) -> tuple[np.ndarray, list[dict]]:
    """A labelled photo shrunk so that its longest labelled card is `length` pixels long
    (never enlarged, and shrunk further where it would not fit), laid in the middle of a
    `WEBCAM_FRAME` whose rest is the photo's edge colour (the median of its border
    pixels), blended into it over `SEAM` pixels; and its cards' boxes moved with it.

    Why: the photos' cards are 90 to 330 pixels long in pictures of 504 or 960, which the
    finder's net sees at 320 to 416 pixels, so a card fills a quarter of what it sees. A
    webcam over a real table shows cards of about 100 pixels in 1280x720, which the net
    sees at 416: real cards as small as a table shows them."""
    longest = max(max(c["box"][2] - c["box"][0], c["box"][3] - c["box"][1]) for c in cards)
    height, width = image.shape[:2]
    frame_width, frame_height = WEBCAM_FRAME
    scale = min(1.0, length / max(longest, 1.0), frame_width / width, frame_height / height)
    small_width, small_height = max(1, round(width * scale)), max(1, round(height * scale))
    small = cv2.resize(image, (small_width, small_height), interpolation=cv2.INTER_AREA)
    border = np.concatenate([small[0], small[-1], small[:, 0], small[:, -1]])
    colour = np.median(border, axis=0).astype(np.float32)
    # how far each pixel lies inside the photo's border, as a weight 0..1 over the seam
    xs, ys = np.arange(small_width), np.arange(small_height)
    inside = np.minimum.outer(
        np.minimum(ys, small_height - 1 - ys), np.minimum(xs, small_width - 1 - xs)
    )
    weight = np.clip((inside + 0.5) / SEAM, 0.0, 1.0)[..., None]
    frame = np.empty((frame_height, frame_width, 3), np.float32)
    frame[:] = colour
    x0, y0 = (frame_width - small_width) // 2, (frame_height - small_height) // 2
    blended = weight * small + (1.0 - weight) * colour
    frame[y0 : y0 + small_height, x0 : x0 + small_width] = blended
    moved = [dict(card) for card in cards]
    for card in moved:
        bx0, by0, bx1, by1 = card["box"]
        card["box"] = [x0 + bx0 * scale, y0 + by0 * scale, x0 + bx1 * scale, y0 + by1 * scale]
    return np.round(frame).astype(np.uint8), moved


def shaken_photo(image: np.ndarray, length: float, index: int) -> np.ndarray:
    """`image` smeared as by a camera shake `length` pixels long (the renderer's motion
    blur), its direction `SHAKE_TURN` degrees further on for each photo of the manifest
    (`index`): the same photo is always shaken alike, and the photos every way."""
    from companion.vision.synth.camera import motion_kernel

    return cv2.filter2D(image, -1, motion_kernel(length, index * SHAKE_TURN % 180))


def match_cards(
    cards: Sequence[dict], readings: Sequence[CardReading], shape: tuple[int, int]
) -> list[int | None]:
    """`match_labels` for the labelled cards of a real photo (manifest entries): those a
    reading reads right (`reads_label`) first, and before them the game cards it names."""

    def reads_right(label: int, reading: int) -> bool:
        return reads_label(cards[label], readings[reading])

    def names(label: int, reading: int) -> bool:
        return readings[reading].rank is not None and reads_right(label, reading)

    return match_labels(
        [card["box"] for card in cards],
        [reading.corners for reading in readings],
        shape,
        reads_right,
        names,
    )


def reads_label(card: dict, reading: CardReading) -> bool:
    """Whether `reading` reads a labelled card of the real photos (a manifest entry) right:
    face up or down as labelled, a game card by its rank and suit, any other card as no
    game card."""
    rank = GAME_RANK_TEXT.get(card["rank"])
    face = "up" if card.get("face_up", True) else "down"
    return (reading.face, reading.rank, reading.suit if rank else None) == (
        face,
        rank,
        card["suit"] if rank else None,
    )


def match_labels(
    labels: Sequence[Sequence[float]],
    quads: Sequence[np.ndarray],
    shape: tuple[int, int],
    reads_right: Callable[[int, int], bool] | None = None,
    names: Callable[[int, int], bool] | None = None,
) -> list[int | None]:
    """For each labelled box (x0, y0, x1, y1: the visible part of a card), in order, the
    index of the reading quad that stands for it (each reading at most once), or None.

    The pairs that cover each other well enough (`_cover_score`) are taken best first, so
    the order of the labels in a manifest changes nothing; with `reads_right(label,
    reading)`, the pairs where the reading reads the labelled card right are taken first;
    with `names(label, reading)`, before them those where it names that very card (a game
    card by its rank and suit, not "no game card", which any 6..King reads as), and for
    those it is enough that the quad covers the label's box (`COVERED`), however much else
    it covers. Why: a card read from its corner index alone is reported whole, and
    its quad can cover the card lying over it as well as its own visible part: taken label
    by label, the real test photo IMG_2598's Ace of diamonds, read right under a 9 of
    hearts, stood for the 9 (listed first), as a 9 read as an Ace, and the Ace went
    unread. In a webcam's frame (`webcam_photo`) such a quad can lie mostly on the card
    over it: the real train photo IMG_2641's Ace of clubs, a strip under a 9 of diamonds,
    read right and reported whole, covered 0.3 of its box with its own strip, and stood
    for the 9 again.
    """
    parts = _shown_parts(quads, shape)
    pairs = [
        (score, label, reading)
        for label, truth in enumerate(labels)
        for reading, shown in enumerate(parts)
        if (score := _cover_score(truth, shown)) is not None
    ]
    passes = [pairs]
    if reads_right is not None:
        passes.insert(0, [pair for pair in pairs if reads_right(pair[1], pair[2])])
    if names is not None:
        named = [
            (score, label, reading)
            for label, truth in enumerate(labels)
            for reading, shown in enumerate(parts)
            if names(label, reading) and (score := _covered(truth, shown)) >= COVERED
        ]
        passes.insert(0, named)
    return best_pairs_first(passes, len(labels))


@dataclass(frozen=True)
class _Shown:
    """What a reading offers to stand for a label (`_shown_parts`): its quad's box inside
    the picture (x0, y0, x1, y1), and the part of the quad no other reading covers, as a
    mask of the picture and its count of pixels."""

    box: tuple[float, float, float, float]
    own: np.ndarray
    own_area: int


def _shown_parts(quads: Sequence[np.ndarray], shape: tuple[int, int]) -> list[_Shown | None]:
    """Per reading, what it shows (`_Shown`), None where its quad lies outside the
    picture. The labels box only the visible part of a card, and a card read from its
    corner index alone is reported whole, as if the card over it were not there."""
    wholes = []
    for quad in quads:
        mask = np.zeros(shape, np.uint8)
        cv2.fillConvexPoly(mask, np.round(quad * 4).astype(np.int32), 1, cv2.LINE_8, 2)
        wholes.append(mask)
    parts: list[_Shown | None] = []
    for index, whole in enumerate(wholes):
        box = _mask_box(whole)
        if box is None:
            parts.append(None)
            continue
        own = whole.copy()
        for other, covering in enumerate(wholes):
            if other != index:
                own[covering > 0] = 0
        parts.append(_Shown(box, own, np.count_nonzero(own)))
    return parts


def _cover_score(truth: Sequence[float], shown: _Shown | None) -> float | None:
    """How well a reading (what it shows: `_shown_parts`) stands for a labelled box, None
    where it does not: the quad's box must cover `COVERED` of the labelled box, and 0.4 of
    the quad's box, or of its own part's pixels, must lie in the labelled box (a quad over
    two cards is neither's, unless it names one: `match_labels`). The own part counts in
    pixels: its box took in slivers of the card's corners that stick out from under a card
    turned otherwise (the real train photos IMG_2617 and IMG_2664, an Ace of hearts read
    whole under a 9 and under a Jack, its part in sight left unmatched)."""
    covered = _covered(truth, shown)
    if shown is None or covered < COVERED:
        return None
    tx0, ty0, tx1, ty1 = truth
    x0, y0, x1, y1 = shown.box
    inter = covered * max(1.0, (tx1 - tx0) * (ty1 - ty0))
    height, width = shown.own.shape
    ix0, iy0 = max(0, round(tx0)), max(0, round(ty0))
    ix1, iy1 = min(width, round(tx1)), min(height, round(ty1))
    own_inside = (
        np.count_nonzero(shown.own[iy0:iy1, ix0:ix1]) / shown.own_area if shown.own_area else 0.0
    )
    inside = max(inter / max(1.0, (x1 - x0) * (y1 - y0)), own_inside)
    return min(covered, inside / 0.6) if inside >= 0.4 else None


def _covered(truth: Sequence[float], shown: _Shown | None) -> float:
    """The fraction of a labelled box (x0, y0, x1, y1) that a reading's quad's box covers
    (what it shows: `_shown_parts`); 0 where the quad lies outside the picture."""
    if shown is None:
        return 0.0
    tx0, ty0, tx1, ty1 = truth
    x0, y0, x1, y1 = shown.box
    inter = max(0.0, min(x1, tx1) - max(x0, tx0)) * max(0.0, min(y1, ty1) - max(y0, ty0))
    return inter / max(1.0, (tx1 - tx0) * (ty1 - ty0))


def _mask_box(mask: np.ndarray) -> tuple[float, float, float, float] | None:
    """The box (x0, y0, x1, y1) of a mask's set pixels, None if none is set."""
    ys, xs = np.nonzero(mask)
    if not len(xs):
        return None
    return float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1)
