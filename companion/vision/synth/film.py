"""Scripted films of one game's table: the same table and light frame after frame.

The demo turns a game script into frames: per frame, the cards lying on the table (and
optionally a hand passing over them). A `TableFilm` keeps the table, the camera and the
light fixed for the whole game, caches the empty table, and adds only small per-frame
light jitter and sensor noise, so a frame costs little more than its cards.

Seats: `seat_places(n, size)` puts n players around an oval table in clockwise order
(seen from above, starting at the bottom); `card_place(seat, k)` is where that player's
k-th card of the round lies, turned to face them (so cards across the table are upside
down to the camera).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

import numpy as np

from .render import render_scene, table_background
from .spec import CardSpec, CardTruth, HandSpec, Light, SceneSpec


@dataclass(frozen=True)
class FilmFrame:
    """What lies on the table in one frame (and what passes over it)."""

    cards: tuple[CardSpec, ...] = ()
    hand: HandSpec | None = None
    motion_blur: float = 0.0  # pixels: a camera shake or a fast hand on this frame
    brightness: float = 1.0  # times the table's light: a lamp switched on, a cloud passing


@dataclass(frozen=True)
class SeatPlace:
    """Where a player sits: `anchor` (image pixels, in front of them, where their cards
    go) and `facing`, the card angle that shows a card upright to that player."""

    anchor: tuple[float, float]
    facing: float


def seat_places(n: int, size: tuple[int, int] = (1280, 720)) -> list[SeatPlace]:
    """n seats (2..5) around an oval table, clockwise seen from above from the bottom."""
    if not 2 <= n <= 5:
        raise ValueError(f"a game has 2 to 5 players, got {n}")
    w, h = size
    cx, cy = w / 2, h / 2
    rx, ry = w * 0.34, h * 0.30
    places = []
    for i in range(n):
        a = math.pi / 2 + 2 * math.pi * i / n  # screen angle, y down: bottom first, clockwise
        ax, ay = cx + rx * math.cos(a), cy + ry * math.sin(a)
        up = (cx - ax, cy - ay)  # cards point their top toward the table centre
        places.append(SeatPlace((ax, ay), math.degrees(math.atan2(up[0], -up[1])) % 360))
    return places


def card_place(
    seat: SeatPlace, k: int, length: float = 110.0, spacing: float = 0.8
) -> tuple[tuple[float, float], float]:
    """(centre, angle) of a seat's k-th card (k = 0, 1, 2): a row across the player's view."""
    a = math.radians(seat.facing)
    across = (math.cos(a), math.sin(a))  # the card's own +x direction on screen
    offset = (k - 1) * length * spacing
    x, y = seat.anchor
    return (x + across[0] * offset, y + across[1] * offset), seat.facing


def hand_sweep(
    start: tuple[float, float], end: tuple[float, float], frames: int, **hand: object
) -> list[HandSpec]:
    """A hand moving from `start` to `end` over `frames` frames, fingers leading.

    Extra keyword arguments (width, skin, sleeve, height, angle) go to every `HandSpec`.
    """
    if frames < 1:
        raise ValueError(f"a hand sweep needs at least 1 frame, got {frames}")
    heading = math.degrees(math.atan2(end[1] - start[1], end[0] - start[0]))
    options = {"angle": heading, **hand}
    steps = np.linspace(0.0, 1.0, frames)
    return [
        HandSpec(
            tip=(start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t),
            **options,  # type: ignore[arg-type]
        )
        for t in steps
    ]


def game_table(seed: int, size: tuple[int, int] = (1280, 720), **overrides: object) -> SceneSpec:
    """A calm, plausible table for one game (moderate tilt, no heavy blur), from a seed."""
    from .sampling import random_light
    from .textures import TABLE_STYLES

    rng = np.random.default_rng(seed)
    light = random_light(rng, size)
    base = SceneSpec(
        size=size,
        table=str(rng.choice(TABLE_STYLES)),
        seed=seed,
        tilt=float(rng.uniform(0, 20)),
        tilt_direction=float(rng.uniform(60, 120)),
        light=replace(light, brightness=max(0.8, light.brightness)),
        shadow=float(rng.uniform(0.2, 0.45)),
        noise=float(rng.uniform(1, 3)),
        jpeg_quality=None,  # a JPEG round trip would double the time of a demo frame
    )
    return replace(base, **overrides)  # type: ignore[arg-type]


class TableFilm:
    """Renders the frames of one game on one fixed table.

    `base` fixes the table, camera, light and noise (its cards are ignored); `jitter` is
    the relative frame-to-frame flicker of the light. Frame n is deterministic given
    `base.seed` and n.
    """

    def __init__(self, base: SceneSpec, jitter: float = 0.02) -> None:
        self.base = base
        self.jitter = jitter
        self.background = table_background(base, np.random.default_rng(base.seed))

    def render(self, index: int, frame: FilmFrame) -> tuple[np.ndarray, list[CardTruth]]:
        """Frame `index` of the film: the picture and the truth of its cards."""
        rng = np.random.default_rng((self.base.seed, index))
        flicker = 1.0 + float(rng.normal(0.0, self.jitter))
        level = self.base.light.brightness * frame.brightness * flicker
        light: Light = replace(self.base.light, brightness=level)
        spec = replace(
            self.base,
            cards=frame.cards,
            hand=frame.hand,
            motion_blur=frame.motion_blur,
            light=light,
        )
        return render_scene(spec, rng, background=self.background)

    def frames(self, script: Iterable[FilmFrame]) -> Iterator[tuple[np.ndarray, list[CardTruth]]]:
        """Render a whole script lazily, frame after frame."""
        for index, frame in enumerate(script):
            yield self.render(index, frame)
