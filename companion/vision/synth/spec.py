"""What a synthetic table scene is made of, and what it truly shows.

Positions are image pixels of the rendered picture (after the camera's perspective), so a
demo script can put a card on a seat anchor directly; sizes are pixels on the table plane,
which the perspective keeps at scale 1 at the image centre.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from ..types import Face

DistractorKind = Literal["coin", "chip", "phone", "pen", "note", "marker"]
DISTRACTOR_KINDS: tuple[str, ...] = ("coin", "chip", "phone", "pen", "note", "marker")


@dataclass(frozen=True)
class CardSpec:
    """One card on the table.

    `angle`: degrees, clockwise on screen, of the card's own "up" (0 = upright, 180 = upside
    down to the camera). `length`: the long side in table-plane pixels. `edition`: the
    face's edition (see `art.card_face`); `back`: the back style (see `art.card_back`),
    None for the deck's default (for animals: the edition's back). `turn`: a flip being
    made about the card's long side (the demo animates 0.25, 0.5, 0.75): the card looks
    narrower and is lifted, and past 0.5 shows its other side.
    """

    deck: str = "animals"
    rank: int = 1
    suit: str | None = None
    face: Face = "down"
    center: tuple[float, float] = (640.0, 360.0)
    angle: float = 0.0
    length: float = 150.0
    edition: str | int | None = None
    back: str | int | None = None
    turn: float = 0.0  # a flip in progress: 0 flat, 0.5 on its edge, 1 flat the other side up

    @property
    def visible_face(self) -> Face:
        """The side the camera sees: `face`, or the other one past the middle of a turn."""
        if self.turn <= 0.5:
            return self.face
        return "down" if self.face == "up" else "up"


@dataclass(frozen=True)
class DistractorSpec:
    """A thing on the table that is not a card (it must never be read as one).

    A "marker" is a printed ArUco seat marker (DICT_4X4_50, id `marker_id`) on white paper
    of side `size`, as `companion calibrate markers` prints them.
    """

    kind: DistractorKind
    center: tuple[float, float]
    size: float  # diameter (coin, chip), long side (phone, pen), side (note, marker), px
    angle: float = 0.0
    color: tuple[int, int, int] | None = None  # BGR; None picks the kind's usual colour
    marker_id: int = 0


@dataclass(frozen=True)
class HandSpec:
    """A hand reaching over the table, its sleeve running off the picture.

    `tip`: image point of the middle fingertip; `angle`: degrees, clockwise on screen, of
    the direction from wrist to fingers (90 = pointing down the image); `width`: palm width.
    `height`: how far above the table (moves its shadow away from it).
    """

    tip: tuple[float, float]
    angle: float = 90.0
    width: float = 110.0
    skin: tuple[int, int, int] = (120, 160, 210)
    sleeve: tuple[int, int, int] = (90, 60, 40)
    height: float = 1.0


@dataclass(frozen=True)
class Light:
    """The room light: colour temperature, level, a gradient, glare spots, vignetting.

    `warmth` -1 (cold, bluish) .. +1 (warm, yellow-orange); `brightness` a gain;
    `gradient` the darkening from one side (0..1) toward `gradient_angle` degrees;
    `glare`: (x, y, radius, strength 0..1) specular spots in image pixels.
    """

    warmth: float = 0.0
    brightness: float = 1.0
    gradient: float = 0.0
    gradient_angle: float = 0.0
    glare: tuple[tuple[float, float, float, float], ...] = ()
    vignette: float = 0.0


@dataclass(frozen=True)
class SceneSpec:
    """Everything needed to render one scene deterministically (`seed` drives the noise)."""

    size: tuple[int, int] = (1280, 720)  # (width, height)
    table: str = "wood-light"
    seed: int = 0
    tilt: float = 0.0  # degrees from straight down
    tilt_direction: float = 90.0  # degrees on screen, the side the camera leans toward
    light: Light = field(default_factory=Light)
    shadow: float = 0.35  # darkness of card shadows 0..1
    shadow_offset: tuple[float, float] = (3.0, 4.0)  # pixels, for something 1 unit high
    motion_blur: float = 0.0  # length in pixels
    motion_angle: float = 0.0  # degrees
    focus_blur: float = 0.0  # Gaussian sigma in pixels
    lens: float = 0.0  # radial distortion k (0..0.15: the barrel of a wide webcam lens)
    noise: float = 2.0  # sensor noise sigma, grey levels
    jpeg_quality: int | None = 90  # None: no JPEG round trip
    cards: tuple[CardSpec, ...] = ()
    distractors: tuple[DistractorSpec, ...] = ()
    hand: HandSpec | None = None


@dataclass(frozen=True)
class CardTruth:
    """What the scene truly shows of one card, in the terms of `vision.types.CardReading`.

    `corners`: (4, 2) float32 image pixels, clockwise from the card's own top-left corner
    (as the art is drawn), after perspective. `rank`: 1..5 for a game card face up, else
    None (backs, playing cards 6..King); `suit`: a face-up playing card 1..5's suit, else
    None; `label`: "bear", "A of spades", "back" or "other" (as `companion detect`
    prints). `visible`: the fraction of the card not hidden by a neighbour, a thing or a
    hand. `spec`: the card as placed (the hidden identity of a face-down card).
    """

    corners: np.ndarray
    face: Face
    rank: int | None
    suit: str | None
    label: str
    visible: float
    spec: CardSpec

    @property
    def center(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])
