"""The project's own animal deck (1 bear … 5 mouse), in several editions.

Every edition of the real game has its own art, so the reader must learn a deck from one
enrolled set. Two named editions are fixed ("classic", shipped as the demo deck, and
"woodland", an unseen edition for enrollment tests); any integer seed generates another
edition with its own palette, frame, number font, layout and animal proportions, so that
an embedding can be trained on many editions.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .shapes import AA, CARD_H, CARD_W, Color, blank_card, put_text_centered, rounded_frame

ANIMALS = {1: "bear", 2: "wolf", 3: "lynx", 4: "owl", 5: "mouse"}
NAMED_EDITIONS = ("classic", "woodland")
Edition = str | int


@dataclass(frozen=True)
class AnimalStyle:
    """Everything that differs between two editions of the animal deck."""

    paper: Color
    frame: Color
    frame_inset: int
    double_frame: bool
    ink: Color  # numbers and names
    font: int
    name_on_top: bool
    art_scale: float
    art_dy: int
    fur: dict[int, Color]  # main colour of each animal
    accent: Color  # eyes, noses
    panel: Color | None  # a coloured panel behind the animal, or none
    back_base: Color
    back_ink: Color
    back_pattern: str  # lattice, rings, stripes, dots, checker
    # Variations used by generated editions (the named ones keep the defaults).
    art_tilt: float = 0.0  # degrees the animal is turned on the card
    outline: int = 0  # pixels of outline around the animal, 0 for none
    outline_color: Color = (30, 30, 30)
    panel_shape: str = "circle"  # circle, diamond or square
    badge: Color | None = None  # numbers printed in a filled disc of this colour
    paper_pattern: str = "plain"  # plain, dots or stripes (faint)


def _classic() -> AnimalStyle:
    return AnimalStyle(
        paper=(225, 240, 248),
        frame=(40, 90, 30),
        frame_inset=10,
        double_frame=False,
        ink=(30, 40, 40),
        font=cv2.FONT_HERSHEY_DUPLEX,
        name_on_top=False,
        art_scale=1.0,
        art_dy=0,
        fur={
            1: (30, 60, 110),
            2: (130, 130, 125),
            3: (80, 150, 200),
            4: (60, 100, 140),
            5: (150, 150, 160),
        },
        accent=(20, 20, 20),
        panel=None,
        back_base=(50, 90, 30),
        back_ink=(150, 210, 190),
        back_pattern="lattice",
    )


def _woodland() -> AnimalStyle:
    return AnimalStyle(
        paper=(200, 230, 240),
        frame=(40, 40, 140),
        frame_inset=7,
        double_frame=True,
        ink=(30, 30, 120),
        font=cv2.FONT_HERSHEY_TRIPLEX,
        name_on_top=True,
        art_scale=0.85,
        art_dy=14,
        fur={
            1: (20, 30, 60),
            2: (90, 90, 95),
            3: (60, 120, 180),
            4: (110, 150, 180),
            5: (120, 130, 150),
        },
        accent=(10, 60, 10),
        panel=(170, 210, 190),
        back_base=(40, 30, 110),
        back_ink=(120, 190, 230),
        back_pattern="rings",
    )


def _seeded(seed: int) -> AnimalStyle:
    rng = np.random.default_rng(seed)

    def color(lo: int, hi: int) -> Color:
        return tuple(int(v) for v in rng.integers(lo, hi, 3))  # type: ignore[return-value]

    fonts = (
        cv2.FONT_HERSHEY_DUPLEX,
        cv2.FONT_HERSHEY_TRIPLEX,
        cv2.FONT_HERSHEY_SIMPLEX,
        cv2.FONT_HERSHEY_COMPLEX,
    )
    return AnimalStyle(
        paper=color(170, 256),
        frame=color(0, 160),
        frame_inset=int(rng.integers(4, 16)),
        double_frame=bool(rng.random() < 0.5),
        ink=color(0, 110),
        font=int(fonts[rng.integers(len(fonts))]),
        name_on_top=bool(rng.random() < 0.5),
        art_scale=float(rng.uniform(0.75, 1.1)),
        art_dy=int(rng.integers(-12, 16)),
        fur={r: color(20, 200) for r in ANIMALS},
        accent=color(0, 90),
        panel=color(120, 240) if rng.random() < 0.5 else None,
        back_base=color(0, 200),
        back_ink=color(60, 256),
        back_pattern=("lattice", "rings", "stripes", "dots", "checker")[rng.integers(5)],
        art_tilt=float(rng.uniform(-15, 15)) if rng.random() < 0.5 else 0.0,
        outline=int(rng.choice([0, 0, 2, 3])),
        outline_color=color(0, 80),
        panel_shape=("circle", "diamond", "square")[rng.integers(3)],
        badge=color(150, 256) if rng.random() < 0.3 else None,
        paper_pattern=("plain", "plain", "dots", "stripes")[rng.integers(4)],
    )


def animal_style(edition: Edition) -> AnimalStyle:
    """The style of a named edition, or of the edition generated from an integer seed."""
    if edition == "classic":
        return _classic()
    if edition == "woodland":
        return _woodland()
    if isinstance(edition, int | np.integer) and not isinstance(edition, bool):
        return _seeded(int(edition))
    raise ValueError(
        f"unknown animal deck edition {edition!r}: expected one of {NAMED_EDITIONS} or an int seed"
    )


# --- the five animals, drawn around (0, 0) in a 200x200 box, then placed -----------------


def _p(c: tuple[float, float], s: float, x: float, y: float) -> tuple[int, int]:
    return round(c[0] + x * s), round(c[1] + y * s)


def _r(s: float, r: float) -> int:
    return max(1, round(r * s))


def _bear(img: np.ndarray, c: tuple[float, float], s: float, st: AnimalStyle) -> None:
    fur = st.fur[1]
    dark = tuple(max(0, v - 30) for v in fur)
    for ex in (-55, 55):
        cv2.circle(img, _p(c, s, ex, -55), _r(s, 24), fur, -1, AA)
        cv2.circle(img, _p(c, s, ex, -55), _r(s, 12), dark, -1, AA)
    cv2.circle(img, _p(c, s, 0, 0), _r(s, 72), fur, -1, AA)
    cv2.ellipse(img, _p(c, s, 0, 25), (_r(s, 34), _r(s, 26)), 0, 0, 360, (150, 190, 215), -1, AA)
    cv2.ellipse(img, _p(c, s, 0, 12), (_r(s, 13), _r(s, 9)), 0, 0, 360, st.accent, -1, AA)
    cv2.line(img, _p(c, s, 0, 20), _p(c, s, 0, 35), st.accent, _r(s, 3), AA)
    for ex in (-28, 28):
        cv2.circle(img, _p(c, s, ex, -18), _r(s, 8), st.accent, -1, AA)


def _wolf(img: np.ndarray, c: tuple[float, float], s: float, st: AnimalStyle) -> None:
    fur = st.fur[2]
    light = tuple(min(255, v + 60) for v in fur)
    for side in (-1, 1):
        ear = np.array(
            [_p(c, s, side * 30, -40), _p(c, s, side * 62, -95), _p(c, s, side * 70, -20)]
        )
        cv2.fillPoly(img, [ear], fur, AA)
    head = np.array(
        [
            _p(c, s, -72, -30),
            _p(c, s, 72, -30),
            _p(c, s, 45, 40),
            _p(c, s, 0, 85),
            _p(c, s, -45, 40),
        ]
    )
    cv2.fillPoly(img, [head], fur, AA)
    snout = np.array([_p(c, s, -25, 20), _p(c, s, 25, 20), _p(c, s, 0, 82)])
    cv2.fillPoly(img, [snout], light, AA)
    cv2.circle(img, _p(c, s, 0, 72), _r(s, 9), st.accent, -1, AA)
    for side in (-1, 1):
        eye = np.array([_p(c, s, side * 18, -8), _p(c, s, side * 42, -16), _p(c, s, side * 36, -2)])
        cv2.fillPoly(img, [eye], (40, 200, 230), AA)
        cv2.circle(img, _p(c, s, side * 32, -8), _r(s, 4), st.accent, -1, AA)


def _lynx(img: np.ndarray, c: tuple[float, float], s: float, st: AnimalStyle) -> None:
    fur = st.fur[3]
    for side in (-1, 1):
        ear = np.array(
            [_p(c, s, side * 25, -50), _p(c, s, side * 52, -100), _p(c, s, side * 68, -35)]
        )
        cv2.fillPoly(img, [ear], fur, AA)
        cv2.line(img, _p(c, s, side * 52, -100), _p(c, s, side * 50, -125), st.accent, _r(s, 5), AA)
    cv2.ellipse(img, _p(c, s, 0, 5), (_r(s, 70), _r(s, 62)), 0, 0, 360, fur, -1, AA)
    for side in (-1, 1):  # cheek ruffs
        ruff = np.array([_p(c, s, side * 55, 10), _p(c, s, side * 95, 50), _p(c, s, side * 40, 55)])
        cv2.fillPoly(img, [ruff], fur, AA)
    for x, y in ((-35, -30), (35, -30), (-50, 10), (50, 10), (-20, -48), (20, -48)):
        cv2.circle(img, _p(c, s, x, y), _r(s, 5), st.accent, -1, AA)
    for side in (-1, 1):
        cv2.ellipse(
            img, _p(c, s, side * 25, -5), (_r(s, 12), _r(s, 8)), 0, 0, 360, (60, 200, 120), -1, AA
        )
        cv2.line(img, _p(c, s, side * 25, -12), _p(c, s, side * 25, 2), st.accent, _r(s, 3), AA)
        for dy in (25, 35):
            cv2.line(
                img,
                _p(c, s, side * 15, dy),
                _p(c, s, side * 70, dy + (dy - 30) * 2),
                st.accent,
                1,
                AA,
            )
    nose = np.array([_p(c, s, -9, 18), _p(c, s, 9, 18), _p(c, s, 0, 28)])
    cv2.fillPoly(img, [nose], (110, 110, 200), AA)


def _owl(img: np.ndarray, c: tuple[float, float], s: float, st: AnimalStyle) -> None:
    fur = st.fur[4]
    light = tuple(min(255, v + 70) for v in fur)
    cv2.ellipse(img, _p(c, s, 0, 15), (_r(s, 65), _r(s, 85)), 0, 0, 360, fur, -1, AA)
    cv2.ellipse(img, _p(c, s, 0, 45), (_r(s, 38), _r(s, 45)), 0, 0, 360, light, -1, AA)
    for side in (-1, 1):
        tuft = np.array(
            [_p(c, s, side * 25, -50), _p(c, s, side * 60, -95), _p(c, s, side * 58, -40)]
        )
        cv2.fillPoly(img, [tuft], fur, AA)
        cv2.circle(img, _p(c, s, side * 28, -25), _r(s, 25), (240, 245, 245), -1, AA)
        cv2.circle(img, _p(c, s, side * 28, -25), _r(s, 14), (30, 160, 230), -1, AA)
        cv2.circle(img, _p(c, s, side * 28, -25), _r(s, 8), st.accent, -1, AA)
    beak = np.array([_p(c, s, -10, -8), _p(c, s, 10, -8), _p(c, s, 0, 16)])
    cv2.fillPoly(img, [beak], (30, 140, 220), AA)
    for x in (-20, 0, 20):
        cv2.ellipse(img, _p(c, s, x, 40), (_r(s, 7), _r(s, 5)), 0, 0, 180, fur, 2, AA)


def _mouse(img: np.ndarray, c: tuple[float, float], s: float, st: AnimalStyle) -> None:
    fur = st.fur[5]
    pts = [_p(c, s, 40 + 10 * k, 50 - 12 * np.sin(k / 1.5)) for k in range(7)]
    cv2.polylines(img, [np.array(pts)], False, fur, _r(s, 4), AA)
    cv2.ellipse(img, _p(c, s, 5, 40), (_r(s, 55), _r(s, 35)), -10, 0, 360, fur, -1, AA)
    cv2.ellipse(img, _p(c, s, -45, 0), (_r(s, 38), _r(s, 30)), -20, 0, 360, fur, -1, AA)
    for ex, ey in ((-62, -35), (-20, -40)):
        cv2.circle(img, _p(c, s, ex, ey), _r(s, 24), fur, -1, AA)
        cv2.circle(img, _p(c, s, ex, ey), _r(s, 14), (170, 160, 235), -1, AA)
    cv2.circle(img, _p(c, s, -82, 8), _r(s, 6), (120, 100, 220), -1, AA)
    cv2.circle(img, _p(c, s, -50, -5), _r(s, 5), st.accent, -1, AA)
    for dy in (-4, 6):
        cv2.line(img, _p(c, s, -80, 10), _p(c, s, -110, 10 + dy * 2), st.accent, 1, AA)


_DRAWERS = {1: _bear, 2: _wolf, 3: _lynx, 4: _owl, 5: _mouse}


_KEY = (1, 254, 2)  # a colour no animal uses: marks "nothing drawn" on the art layer


def _draw_animal(card: np.ndarray, rank: int, centre: tuple[float, float], st: AnimalStyle) -> None:
    """Draw the animal on its own layer, then turn it, outline it and lay it on the card
    (straight onto the card when it is neither turned nor outlined: crisper edges)."""
    if not st.art_tilt and not st.outline:
        _DRAWERS[rank](card, centre, 0.95 * st.art_scale, st)
        return
    layer = np.empty_like(card)
    layer[:] = _KEY
    _DRAWERS[rank](layer, centre, 0.95 * st.art_scale, st)
    mask = (np.abs(layer.astype(np.int16) - _KEY).sum(axis=2) > 24).astype(np.uint8) * 255
    if st.art_tilt:
        turn = cv2.getRotationMatrix2D(centre, st.art_tilt, 1.0)
        size = (card.shape[1], card.shape[0])
        layer = cv2.warpAffine(layer, turn, size, flags=cv2.INTER_LINEAR)
        mask = cv2.warpAffine(mask, turn, size, flags=cv2.INTER_LINEAR)
    if st.outline:
        k = 2 * st.outline + 1
        ring = cv2.dilate(mask, np.ones((k, k), np.uint8)) > 127
        card[ring] = st.outline_color
    inside = mask > 127
    card[inside] = layer[inside]


def _panel(card: np.ndarray, c: tuple[float, float], r: float, st: AnimalStyle) -> None:
    x, y = round(c[0]), round(c[1])
    if st.panel_shape == "diamond":
        pts = np.array([[x, y - r * 1.1], [x + r, y], [x, y + r * 1.1], [x - r, y]])
        cv2.fillPoly(card, [np.round(pts).astype(np.int32)], st.panel, AA)
    elif st.panel_shape == "square":
        cv2.rectangle(
            card, (round(x - r), round(y - r)), (round(x + r), round(y + r)), st.panel, -1
        )
    else:
        cv2.circle(card, (x, y), round(r), st.panel, -1, AA)


def _paper_pattern(card: np.ndarray, st: AnimalStyle) -> None:
    """A faint print on the paper, as some editions have."""
    faint = tuple(int(v * 0.93) for v in st.paper)
    if st.paper_pattern == "dots":
        for y in range(12, CARD_H, 16):
            for x in range(12 + (y // 16 % 2) * 8, CARD_W, 16):
                cv2.circle(card, (x, y), 2, faint, -1, AA)
    elif st.paper_pattern == "stripes":
        for x in range(-CARD_H, CARD_W, 14):
            cv2.line(card, (x, 0), (x + CARD_H, CARD_H), faint, 3, AA)


def animal_face(rank: int, edition: Edition = "classic") -> np.ndarray:
    """The face of animal card `rank` (1 bear … 5 mouse) of an edition, 250x350 BGR."""
    if rank not in ANIMALS:
        raise ValueError(f"animal cards have ranks 1..5, got {rank!r}")
    st = animal_style(edition)
    card = blank_card(st.paper)
    rounded_frame(card, st.frame_inset, 10, st.frame, 3)
    if st.double_frame:
        rounded_frame(card, st.frame_inset + 6, 8, st.frame, 1)
    _paper_pattern(card, st)
    art_center = (CARD_W / 2, CARD_H / 2 + st.art_dy)
    if st.panel is not None:
        _panel(card, art_center, 92 * st.art_scale, st)
    _draw_animal(card, rank, art_center, st)
    name = ANIMALS[rank].upper()
    name_y = 56 if st.name_on_top else CARD_H - 44
    put_text_centered(card, name, (CARD_W / 2, name_y), 18, st.ink, st.font, 2)
    number = np.zeros((60, 44, 3), np.uint8)
    mask = np.zeros((60, 44), np.uint8)
    if st.badge is not None:
        cv2.circle(number, (22, 30), 21, st.badge, -1, AA)
        cv2.circle(mask, (22, 30), 21, 255, -1, AA)
    put_text_centered(number, str(rank), (22, 30), 34, st.ink, st.font)
    put_text_centered(mask, str(rank), (22, 30), 34, 255, st.font)  # type: ignore[arg-type]
    x0 = y0 = st.frame_inset + 8
    card[y0 : y0 + 60, x0 : x0 + 44][mask > 0] = number[mask > 0]
    rnum, rmask = cv2.rotate(number, cv2.ROTATE_180), cv2.rotate(mask, cv2.ROTATE_180)
    card[CARD_H - y0 - 60 : CARD_H - y0, CARD_W - x0 - 44 : CARD_W - x0][rmask > 0] = rnum[
        rmask > 0
    ]
    return card
