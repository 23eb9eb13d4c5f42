"""Things on the table that are not cards: coins, poker chips, a phone, a pen, a hand.

Each prop draws either in colour onto the picture or, for the occlusion and shadow maps, as
a plain silhouette (`silhouette=value`) at a scale; one drawing function per prop keeps
the picture and its masks in exact agreement.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from .spec import DistractorSpec, HandSpec

AA = cv2.LINE_AA

_DEFAULT_COLORS = {
    "coin": (60, 160, 205),
    "chip": (40, 40, 190),
    "phone": (25, 25, 28),
    "pen": (150, 60, 20),
    "note": (120, 235, 250),  # a yellow sticky note: paper, but square
    "marker": (245, 245, 245),  # the white paper of a printed seat marker
}


def _pt(x: float, y: float, scale: float) -> tuple[int, int]:
    return round(x * scale), round(y * scale)


def _rotated_box(cx: float, cy: float, length: float, width: float, angle: float) -> np.ndarray:
    a = math.radians(angle)
    u = np.array([math.cos(a), math.sin(a)]) * length / 2
    v = np.array([-math.sin(a), math.cos(a)]) * width / 2
    c = np.array([cx, cy])
    return np.array([c - u - v, c + u - v, c + u + v, c - u + v])


def _fill(canvas: np.ndarray, pts: np.ndarray, color: object, scale: float) -> None:
    cv2.fillPoly(canvas, [np.round(pts * scale).astype(np.int32)], color, AA)  # type: ignore[call-overload]


def draw_distractor(
    canvas: np.ndarray, d: DistractorSpec, silhouette: int | None = None, scale: float = 1.0
) -> None:
    """Draw `d` in colour, or only its outline filled with `silhouette` (masks)."""
    if d.kind not in _DEFAULT_COLORS:
        raise ValueError(
            f"unknown distractor kind {d.kind!r}: expected one of {', '.join(_DEFAULT_COLORS)}"
        )
    x, y = d.center
    base = d.color or _DEFAULT_COLORS[d.kind]
    s = d.size
    if d.kind == "marker":
        paper = _rotated_box(x, y, s, s, d.angle)
        if silhouette is not None:
            _fill(canvas, paper, silhouette, scale)
            return
        _fill(canvas, paper, base, 1.0)
        _draw_aruco(canvas, d)
        return
    if d.kind in ("coin", "chip"):
        r = max(1, round(s / 2 * scale))
        c = _pt(x, y, scale)
        if silhouette is not None:
            cv2.circle(canvas, c, r, silhouette, -1, AA)
            return
        dark = tuple(int(v * 0.65) for v in base)
        light = tuple(min(255, int(v * 1.25) + 20) for v in base)
        cv2.circle(canvas, c, r, base, -1, AA)
        if d.kind == "coin":
            cv2.circle(canvas, c, r, dark, max(1, r // 8), AA)
            cv2.circle(canvas, c, max(1, int(r * 0.7)), dark, 1, AA)
            cv2.ellipse(canvas, c, (int(r * 0.5), int(r * 0.3)), d.angle, 200, 320, light, 2, AA)
        else:
            for k in range(8):
                a = math.radians(d.angle + k * 45)
                p = (c[0] + 0.82 * r * math.cos(a), c[1] + 0.82 * r * math.sin(a))
                box = _rotated_box(p[0], p[1], r * 0.34, r * 0.2, d.angle + k * 45 + 90)
                _fill(canvas, box, (235, 235, 235), 1.0)
            cv2.circle(canvas, c, int(r * 0.62), (235, 235, 235), max(1, r // 14), AA)
            cv2.circle(canvas, c, int(r * 0.55), dark, -1, AA)
        return
    if d.kind == "phone":
        body = _rotated_box(x, y, s, s * 0.48, d.angle)
        if silhouette is not None:
            _fill(canvas, body, silhouette, scale)
            return
        _fill(canvas, body, base, 1.0)
        screen = _rotated_box(x, y, s * 0.9, s * 0.42, d.angle)
        _fill(canvas, screen, (45, 40, 38), 1.0)
        glint = _rotated_box(x - s * 0.1, y, s * 0.25, s * 0.4, d.angle + 30)
        _fill(canvas, glint, (70, 66, 62), 1.0)
        return
    if d.kind == "pen":
        body = _rotated_box(x, y, s, max(3.0, s * 0.07), d.angle)
        if silhouette is not None:
            _fill(canvas, body, silhouette, scale)
            return
        _fill(canvas, body, base, 1.0)
        a = math.radians(d.angle)
        tip = (x + math.cos(a) * s * 0.42, y + math.sin(a) * s * 0.42)
        _fill(
            canvas, _rotated_box(*tip, s * 0.16, max(3.0, s * 0.07), d.angle), (200, 200, 200), 1.0
        )
        return
    # What is left is a sticky note: paper, but square.
    paper = _rotated_box(x, y, s, s, d.angle)
    if silhouette is not None:
        _fill(canvas, paper, silhouette, scale)
        return
    _fill(canvas, paper, base, 1.0)
    a = math.radians(d.angle)
    along, across = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    for k in range(3):  # a few handwritten lines
        start = np.array([x, y]) + across * s * (k - 1) * 0.25 - along * s * 0.32
        end = start + along * s * (0.45 + 0.2 * (k % 2))
        cv2.line(canvas, _pt(*start, 1.0), _pt(*end, 1.0), (90, 60, 40), max(1, round(s / 40)), AA)


def _draw_aruco(canvas: np.ndarray, d: DistractorSpec) -> None:
    """The marker's black-and-white code, 3/4 of the paper, turned with it."""
    side = max(6, round(d.size * 0.75))
    code = cv2.aruco.generateImageMarker(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), d.marker_id, side
    )
    x, y = d.center
    turn = cv2.getRotationMatrix2D((side / 2, side / 2), -d.angle, 1.0)
    turn[:, 2] += (x - side / 2, y - side / 2)
    size = (canvas.shape[1], canvas.shape[0])
    ink = cv2.warpAffine(code, turn, size, flags=cv2.INTER_LINEAR, borderValue=255)
    inside = cv2.warpAffine(np.full_like(code, 255), turn, size, flags=cv2.INTER_NEAREST) > 0
    canvas[inside] = ink[inside][:, None]


def _hand_shapes(
    hand: HandSpec,
) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray, float]], tuple]:
    """Sleeve polygon, finger segments (start, end, thickness) and the palm ellipse."""
    a = math.radians(hand.angle)
    fwd = np.array([math.cos(a), math.sin(a)])
    side = np.array([-fwd[1], fwd[0]])
    tip = np.array(hand.tip, float)
    w = hand.width
    palm_c = tip - fwd * 1.0 * w
    wrist = tip - fwd * 1.45 * w
    far = wrist - fwd * 4000.0
    sleeve = np.array(
        [wrist + side * 0.5 * w, wrist - side * 0.5 * w, far - side * 0.7 * w, far + side * 0.7 * w]
    )
    fingers = []
    for k, (offset, length) in enumerate(((-0.33, 0.85), (-0.11, 1.0), (0.11, 0.95), (0.33, 0.75))):
        base = palm_c + fwd * 0.35 * w + side * offset * w
        end = base + fwd * (length * 0.65 * w) + side * (k - 1.5) * 0.04 * w
        fingers.append((base, end, 0.2 * w))
    thumb_base = palm_c - fwd * 0.1 * w + side * 0.42 * w
    fingers.append((thumb_base, thumb_base + (fwd * 0.35 + side * 0.45) * w, 0.22 * w))
    palm = (palm_c, (0.55 * w, 0.5 * w), hand.angle)
    return sleeve, fingers, palm


def draw_hand(
    canvas: np.ndarray, hand: HandSpec, silhouette: int | None = None, scale: float = 1.0
) -> None:
    """Draw a hand and its sleeve, or their silhouette for the masks."""
    sleeve, fingers, (pc, axes, ang) = _hand_shapes(hand)
    skin = silhouette if silhouette is not None else hand.skin
    sleeve_col = silhouette if silhouette is not None else hand.sleeve
    _fill(canvas, sleeve, sleeve_col, scale)
    cv2.ellipse(
        canvas,
        _pt(*pc, scale),
        (max(1, round(axes[0] * scale)), max(1, round(axes[1] * scale))),
        ang,
        0,
        360,
        skin,
        -1,
        AA,
    )
    for start, end, thick in fingers:
        t = max(1, round(thick * scale))
        cv2.line(canvas, _pt(*start, scale), _pt(*end, scale), skin, t, AA)
        cv2.circle(canvas, _pt(*end, scale), max(1, t // 2), skin, -1, AA)
    if silhouette is None:
        crease = tuple(int(v * 0.8) for v in hand.skin)
        for start, end, thick in fingers[:4]:
            mid = (start + end) / 2
            cv2.circle(canvas, _pt(*mid, 1.0), max(1, round(thick * 0.25)), crease, 1, AA)
