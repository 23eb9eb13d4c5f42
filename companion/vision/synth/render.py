"""Render a `SceneSpec` into a camera picture and the truth about every card.

Order of the layers: table (warped by the camera tilt), shadows, cards in list order (later
cards lie on top), things, the hand; then light, blur, noise and JPEG. Each card is warped
only inside its own bounding box, and shadows and occlusion are worked out on reduced
grids, so a 1280x720 scene with 15 cards renders in a few tens of milliseconds.
"""

from __future__ import annotations

import math
from dataclasses import replace
from functools import lru_cache

import cv2
import numpy as np

from .art import card_back, card_face, card_mask
from .art.animals import ANIMALS
from .art.playing import RANK_TEXT
from .art.shapes import CARD_H, CARD_W
from .camera import (
    apply_homography,
    distort_points,
    finish,
    lens_maps,
    light_gain_grid,
    sensor_noise,
    tilt_homography,
)
from .props import draw_distractor, draw_hand
from .spec import CardSpec, CardTruth, DistractorSpec, HandSpec, SceneSpec
from .textures import table_surface

SHADOW_GRID = 4  # shadow map: 1/4 of the picture's resolution
OCCLUSION_GRID = 2  # occlusion map: 1/2
_ART_CORNERS = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float32)
_OCCLUDER = -2  # owner id of things and hands in the occlusion map


def truth_identity(card: CardSpec) -> tuple[int | None, str | None, str]:
    """(rank, suit, label) as `companion detect` should report this card."""
    if card.visible_face == "down":
        return None, None, "back"
    if card.deck == "animals":
        return card.rank, None, ANIMALS[card.rank]
    if 1 <= card.rank <= 5:
        return card.rank, card.suit, f"{RANK_TEXT[card.rank]} of {card.suit}"
    return None, None, "other"


def card_corners(card: CardSpec, hom: np.ndarray, hom_inv: np.ndarray) -> np.ndarray:
    """The card's four corners in image pixels, clockwise from its own top-left."""
    centre_table = apply_homography(hom_inv, np.array([card.center]))[0]
    a = math.radians(card.angle)
    right = np.array([math.cos(a), math.sin(a)])  # the card's +x on screen
    down = np.array([-math.sin(a), math.cos(a)])  # the card's +y
    hl, hw = card.length / 2.0, card.length * CARD_W / CARD_H / 2.0
    hw *= max(0.05, abs(math.cos(math.pi * card.turn)))  # foreshortened while flipping
    local = np.array([[-hw, -hl], [hw, -hl], [hw, hl], [-hw, hl]])
    table_pts = centre_table + local[:, :1] * right + local[:, 1:] * down
    return apply_homography(hom, table_pts).astype(np.float32)


def card_art(card: CardSpec) -> np.ndarray:
    """The upright picture of the side of `card` that faces the camera."""
    if card.visible_face == "up":
        return card_face(card.deck, card.rank, card.suit, card.edition)
    style = (
        card.back if card.back is not None else (card.edition if card.deck == "animals" else None)
    )
    return card_back(card.deck, style)


def table_background(spec: SceneSpec, rng: np.random.Generator) -> np.ndarray:
    """The empty table as the camera sees it (before light and noise); cacheable per game.

    The surface is drawn at half resolution and brought to full size by the same warp
    that applies the camera tilt (one pass instead of two), then given full-resolution
    grain so that it does not look smooth.
    """
    w, h = spec.size
    half = (max(2, w // 2), max(2, h // 2))
    surface = table_surface(spec.table, half, rng)
    upscale = np.diag([half[0] / w, half[1] / h, 1.0])  # full-size pixels -> half-size
    hom = tilt_homography(spec.size, spec.tilt, spec.tilt_direction)
    table = cv2.warpPerspective(
        surface,
        hom @ np.linalg.inv(upscale),
        spec.size,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REFLECT_101,
    )
    return cv2.add(table, sensor_noise(rng, (h, w, 3), 3.0), dtype=cv2.CV_8U)


def _roi(pts: np.ndarray, w: int, h: int, pad: int = 2) -> tuple[int, int, int, int] | None:
    x0 = max(0, math.floor(pts[:, 0].min()) - pad)
    y0 = max(0, math.floor(pts[:, 1].min()) - pad)
    x1 = min(w, math.ceil(pts[:, 0].max()) + pad + 1)
    y1 = min(h, math.ceil(pts[:, 1].max()) + pad + 1)
    return (x0, y0, x1, y1) if x0 < x1 and y0 < y1 else None


def _paste_rgba(
    img: np.ndarray, rgba: np.ndarray, src: np.ndarray, corners: np.ndarray, gain: float = 1.0
) -> tuple[tuple[int, int, int, int], np.ndarray] | None:
    """Warp a BGRA sprite so that its `src` corners land on `corners`, blend it in, and
    return its box and the alpha (0..1) it covered there, for the shadow and occlusion maps."""
    h, w = img.shape[:2]
    box = _roi(corners, w, h)
    if box is None:
        return None
    x0, y0, x1, y1 = box
    m = cv2.getPerspectiveTransform(
        src.astype(np.float32), (corners - np.array([x0, y0])).astype(np.float32)
    )
    warped = cv2.warpPerspective(rgba, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
    alpha = warped[..., 3].astype(np.float32) * (1.0 / 255.0)
    colour = warped[..., :3] if gain == 1.0 else cv2.convertScaleAbs(warped[..., :3], alpha=gain)
    roi = img[y0:y1, x0:x1]
    roi[:] = cv2.blendLinear(colour, roi, alpha, 1.0 - alpha)
    return box, alpha


@lru_cache(maxsize=1024)  # ~0.1 MB each on average: most cards are drawn small
def _card_sprite(card: CardSpec, level: int) -> np.ndarray:
    """The BGRA art of `card` (placement zeroed) at scale 0.75**level (`_sprite`)."""
    return _sprite(card_art(card), level)


def _sprite(art: np.ndarray, level: int) -> np.ndarray:
    """A card's BGR art (CARD_W x CARD_H) with its rounded outline as alpha, at scale
    0.75**level, area-averaged so that warping a card down to 60 pixels does not alias its
    fine print."""
    rgba = cv2.merge([*cv2.split(art), card_mask()])
    if level == 0:
        return rgba
    scale = 0.75**level
    size = (max(4, round(CARD_W * scale)), max(4, round(CARD_H * scale)))
    return cv2.resize(rgba, size, interpolation=cv2.INTER_AREA)


def _paste_card(
    img: np.ndarray,
    card: CardSpec,
    corners: np.ndarray,
    paper_gain: float,
    back_art: np.ndarray | None = None,
) -> None:
    wanted = 1.2 * float(np.linalg.norm(corners[0] - corners[3])) / CARD_H
    level = max(0, math.floor(math.log(min(1.0, wanted)) / math.log(0.75)))
    if back_art is not None and card.visible_face == "down":
        rgba = _sprite(back_art, level)
    else:
        art_only = replace(
            card, face=card.visible_face, center=(0.0, 0.0), angle=0.0, length=0.0, turn=0.0
        )
        rgba = _card_sprite(art_only, level)
    src = _ART_CORNERS * np.float32([rgba.shape[1] / CARD_W, rgba.shape[0] / CARD_H])
    _paste_rgba(img, rgba, src, corners, paper_gain)


@lru_cache(maxsize=32)
def _thing_sprite(thing: DistractorSpec) -> np.ndarray:
    """A distractor drawn flat, centred in a square BGRA sprite, as it lies on the table
    (call it with the centre zeroed, so that one sprite serves every position)."""
    side = math.ceil(thing.size * 1.5) + 4  # room for a turned square's diagonal
    flat = replace(thing, center=(side / 2.0, side / 2.0))
    colour = np.zeros((side, side, 3), np.uint8)
    mask = np.zeros((side, side), np.uint8)
    draw_distractor(colour, flat)
    draw_distractor(mask, flat, 255)
    return cv2.merge([*cv2.split(colour), mask])


def _paste_thing(
    img: np.ndarray, thing: DistractorSpec, hom: np.ndarray, hom_inv: np.ndarray
) -> tuple[tuple[int, int, int, int], np.ndarray] | None:
    """Lay a distractor on the table plane, so the camera tilt foreshortens it too."""
    sprite = _thing_sprite(replace(thing, center=(0.0, 0.0)))
    side = float(sprite.shape[0])
    centre = apply_homography(hom_inv, np.array([thing.center]))[0]
    half = side / 2.0
    square = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    corners = apply_homography(hom, centre + square)
    src = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    return _paste_rgba(img, sprite, src, corners)


class _Maps:
    """The reduced shadow and occlusion grids of one scene."""

    def __init__(self, size: tuple[int, int], spec: SceneSpec) -> None:
        w, h = size
        self.shadow = np.zeros((h // SHADOW_GRID + 1, w // SHADOW_GRID + 1), np.float32)
        self.owner = np.full((h // OCCLUSION_GRID + 1, w // OCCLUSION_GRID + 1), -1, np.int16)
        self.offset = np.array(spec.shadow_offset, np.float32)
        self.blur = max(1.0, float(np.hypot(*spec.shadow_offset)) / SHADOW_GRID)

    def claim(self, quad: np.ndarray, owner: int) -> int:
        """Mark a card's area as its own (it covers what lies below); returns the area."""
        pts = quad / OCCLUSION_GRID
        box = _roi(pts, self.owner.shape[1], self.owner.shape[0], pad=1)
        if box is None:
            return 0
        x0, y0, x1, y1 = box
        alone = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(alone, [np.round(pts - (x0, y0)).astype(np.int32)], 1)
        self.owner[y0:y1, x0:x1][alone > 0] = owner
        return int(np.count_nonzero(alone))

    def visible_area(self, quad: np.ndarray, owner: int) -> int:
        """How many cells of the card's box still show the card."""
        box = _roi(quad / OCCLUSION_GRID, self.owner.shape[1], self.owner.shape[0], pad=1)
        if box is None:
            return 0
        x0, y0, x1, y1 = box
        return int(np.count_nonzero(self.owner[y0:y1, x0:x1] == owner))

    def cast(self, draw: object, height: float) -> None:
        """Add the blurred shadow of a shape drawn by `draw(canvas, scale, offset)`."""
        layer = np.zeros_like(self.shadow)
        draw(layer, 1.0 / SHADOW_GRID, self.offset * height)  # type: ignore[operator]
        k = int(self.blur * (1 + height) * 2) | 1
        layer = cv2.GaussianBlur(layer, (k, k), 0)
        np.maximum(self.shadow, layer, out=self.shadow)

    def cast_alpha(self, box: tuple[int, int, int, int], alpha: np.ndarray, height: float) -> None:
        """Add the blurred shadow of a pasted sprite (its box and alpha in the picture)."""
        layer = np.zeros_like(self.shadow)
        x0, y0, x1, y1 = box
        dx, dy = self.offset * height
        gx0, gy0 = round((x0 + dx) / SHADOW_GRID), round((y0 + dy) / SHADOW_GRID)
        gw, gh = max(1, (x1 - x0) // SHADOW_GRID), max(1, (y1 - y0) // SHADOW_GRID)
        small = cv2.resize(alpha, (gw, gh), interpolation=cv2.INTER_AREA)
        lh, lw = layer.shape
        cx0, cy0 = max(0, gx0), max(0, gy0)
        cx1, cy1 = min(lw, gx0 + gw), min(lh, gy0 + gh)
        if cx0 >= cx1 or cy0 >= cy1:
            return
        layer[cy0:cy1, cx0:cx1] = small[cy0 - gy0 : cy1 - gy0, cx0 - gx0 : cx1 - gx0]
        k = int(self.blur * (1 + height) * 2) | 1
        np.maximum(self.shadow, cv2.GaussianBlur(layer, (k, k), 0), out=self.shadow)

    def occlude_alpha(self, box: tuple[int, int, int, int], alpha: np.ndarray) -> None:
        """Whatever a pasted sprite covers is hidden from the cards below."""
        x0, y0, x1, y1 = (v // OCCLUSION_GRID for v in box)
        h, w = self.owner.shape
        x1, y1 = min(w, max(x1, x0 + 1)), min(h, max(y1, y0 + 1))
        small = cv2.resize(alpha, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
        self.owner[y0:y1, x0:x1][small > 0.5] = _OCCLUDER

    def cover_shadow(self, pts: np.ndarray) -> None:
        """Nothing of the shadows below shows through a card lying on top."""
        cv2.fillPoly(self.shadow, [np.round(pts / SHADOW_GRID).astype(np.int32)], 0.0)


def _quad_drawer(pts: np.ndarray) -> object:
    def draw(canvas: np.ndarray, scale: float, offset: np.ndarray) -> None:
        cv2.fillPoly(canvas, [np.round((pts + offset) * scale).astype(np.int32)], 1.0, cv2.LINE_AA)

    return draw


def render_scene(
    spec: SceneSpec,
    rng: np.random.Generator | None = None,
    *,
    background: np.ndarray | None = None,
    back_art: np.ndarray | None = None,
) -> tuple[np.ndarray, list[CardTruth]]:
    """Render `spec`: a BGR uint8 picture and one `CardTruth` per card, in `spec.cards` order.

    Deterministic: `rng` defaults to one seeded by `spec.seed`. `background` (from
    `table_background`) may be passed so that the frames of one game share their table.
    `back_art` (BGR uint8, a card's back upright, any size): the picture of every card
    lying face down instead of its deck's back, such as a real deck's back photographed
    (`vision/back_check.py`).
    """
    rng = rng if rng is not None else np.random.default_rng(spec.seed)
    if back_art is not None:
        back_art = cv2.resize(back_art, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)
    w, h = spec.size
    if background is None:
        background = table_background(spec, rng)
    elif background.shape[:2] != (h, w):
        raise ValueError(
            f"background is {background.shape[1]}x{background.shape[0]}, scene is {w}x{h}"
        )
    img = background.copy()
    hom = tilt_homography(spec.size, spec.tilt, spec.tilt_direction)
    hom_inv = np.linalg.inv(hom)
    maps = _Maps(spec.size, spec)

    quads = [card_corners(card, hom, hom_inv) for card in spec.cards]
    full_area: list[int] = []
    for i, (card, quad) in enumerate(zip(spec.cards, quads, strict=True)):
        maps.cast(_quad_drawer(quad), 1.0 + 8.0 * math.sin(math.pi * min(1.0, card.turn)))
        maps.cover_shadow(quad)
        full_area.append(maps.claim(quad, i))
        _paste_card(img, card, quad, float(rng.uniform(0.94, 1.04)), back_art)

    for thing in spec.distractors:
        pasted = _paste_thing(img, thing, hom, hom_inv)
        if pasted is not None:
            maps.cast_alpha(*pasted, height=0.4)
            maps.occlude_alpha(*pasted)
    if spec.hand is not None:
        hand = spec.hand
        maps.cast(lambda c, s, o: draw_hand(c, _shifted_hand(hand, o), 1, s), 6.0 * hand.height)
        draw_hand(maps.owner, hand, _OCCLUDER, 1.0 / OCCLUSION_GRID)
        draw_hand(img, hand)

    gain = light_gain_grid(spec.size, spec.light, SHADOW_GRID)
    shade = maps.shadow[: gain.shape[0], : gain.shape[1]]
    total_gain = gain * (1.0 - spec.shadow * shade)[..., None]
    flat_quads = quads  # occlusion was measured before the lens bends the picture
    if spec.lens:
        img, total_gain, quads = _through_lens(spec, img, total_gain, quads)
    image = finish(
        img,
        spec.light,
        rng,
        motion_blur=spec.motion_blur,
        motion_angle=spec.motion_angle,
        focus_blur=spec.focus_blur,
        noise=spec.noise,
        jpeg_quality=spec.jpeg_quality,
        gain=total_gain,
    )
    truths = []
    for i, (card, quad) in enumerate(zip(spec.cards, quads, strict=True)):
        seen = maps.visible_area(flat_quads[i], i)
        visible = seen / full_area[i] if full_area[i] else 0.0
        rank, suit, label = truth_identity(card)
        truths.append(
            CardTruth(quad, card.visible_face, rank, suit, label, min(1.0, visible), card)
        )
    return image, truths


def _through_lens(
    spec: SceneSpec, img: np.ndarray, gain: np.ndarray, quads: list[np.ndarray]
) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    """Bend the picture, its light-and-shadow map and the card corners alike."""
    k = round(spec.lens, 3)
    map_x, map_y = lens_maps(spec.size, k)
    img = cv2.remap(img, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT_101)
    grid_x, grid_y = lens_maps((gain.shape[1], gain.shape[0]), k)
    gain = cv2.remap(gain, grid_x, grid_y, cv2.INTER_LINEAR, None, cv2.BORDER_REPLICATE)
    return img, gain, [distort_points(q, spec.size, k) for q in quads]


def _shifted_hand(hand: HandSpec, offset: np.ndarray) -> HandSpec:
    return replace(hand, tip=(hand.tip[0] + float(offset[0]), hand.tip[1] + float(offset[1])))
