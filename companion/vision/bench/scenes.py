"""The benchmark's rendered tables: card scenes, empty tables, close-up heaps and tables of
backs never seen, each from seeds of its own that no training or tuning uses (the seeds
are listed in `companion.vision.bench`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from companion.vision.synth import SceneSpec

HELD_OUT_SEED = 5_000_000
EMPTY_SEED = 6_000_000
FRAME_SIZE = (1280, 720)
SCENE_CARDS = 15
# The benchmark's animal scenes use the edition the shipped demo profile was enrolled from.
ANIMAL_DECK, ANIMAL_EDITION = "demo-animals", "classic"
HEAP_SEED = 5_800_000
# Heaps: a third each of webcam frames and of phone photos either way up, cards this long.
HEAP_SIZES = ((1280, 720), (504, 378), (378, 504))
HEAP_LENGTHS = {(1280, 720): (150.0, 400.0)}
PHOTO_LENGTHS = (200.0, 420.0)
DESIGN_SEED = 5_900_000
# Tables whose rows of cards touch or overlap (`--rows`): the playing cards' from ROW_SEED,
# the animals' ROW_ANIMAL_OFFSET further on.
ROW_SEED = 5_650_000
ROW_ANIMAL_OFFSET = 20_000
DESIGN_FACE_UP_RATE = 0.4  # tables of designed backs: most cards face down
# An animal deck's card scenes are seeded this much further on than the playing cards'
# from the same first seed: the two decks' tables are never the same layout.
ANIMAL_SEED_OFFSET = 500_000


def seed_offset(deck: str) -> int:
    """How much further on than `first_seed` `synthetic_scenes` seeds `deck`'s tables."""
    return 0 if deck == "playing-cards" else ANIMAL_SEED_OFFSET


def row_seed_offset(deck: str) -> int:
    """How much further on than `first_seed` `row_scenes` seeds `deck`'s tables."""
    return 0 if deck == "playing-cards" else ROW_ANIMAL_OFFSET


def table_specs(
    deck: str, count: int, first_seed: int, *, rows: bool = False, one_deck: bool = True
) -> Iterator[SceneSpec]:
    """The tables `synthetic_scenes` renders (with `rows`, those `row_scenes` renders), as
    specs: a table's light, blur and cards say why its cards are hard to read."""
    from companion.vision.synth import random_scene

    offset = row_seed_offset(deck) if rows else seed_offset(deck)
    edition = ANIMAL_EDITION if deck == "animals" else None
    for index in range(count):
        rng = np.random.default_rng(first_seed + offset + index)
        yield random_scene(
            rng,
            SCENE_CARDS,
            deck,
            size=FRAME_SIZE,
            edition=edition,
            layout="rows" if rows else None,
            one_deck=one_deck,
        )


def synthetic_scenes(
    deck: str, count: int, first_seed: int, *, one_deck: bool = True
) -> Iterator[tuple[np.ndarray, list]]:
    """`count` 1280x720 scenes of 15 cards of `deck`, with their truths, seeded from
    `first_seed` (the benchmark's from HELD_OUT_SEED; an animal deck's ANIMAL_SEED_OFFSET
    further on). `one_deck` False: playing cards drawn as until 2026-12-06, a card
    sometimes twice (the tables the figures recorded until then were measured on)."""
    for image, truths, _ in rendered_tables(deck, count, first_seed, one_deck=one_deck):
        yield image, truths


def rendered_tables(
    deck: str, count: int, first_seed: int, *, rows: bool = False, one_deck: bool = True
) -> Iterator[tuple[np.ndarray, list, float]]:
    """The tables `table_specs` draws, rendered: each frame, its truths and its motion
    blur in pixels (a shaken camera, which the benchmark counts apart)."""
    from companion.vision.synth import render_scene

    for spec in table_specs(deck, count, first_seed, rows=rows, one_deck=one_deck):
        image, truths = render_scene(spec)
        yield image, truths, spec.motion_blur


def empty_tables(count: int, first_seed: int = EMPTY_SEED) -> Iterator[tuple[np.ndarray, list]]:
    """Tables with coins, chips, phones, pens and hands, but no card."""
    from companion.vision.synth import random_scene, render_scene

    for index in range(count):
        rng = np.random.default_rng(first_seed + index)
        things = int(rng.integers(1, 6))
        spec = random_scene(rng, 0, size=FRAME_SIZE, distractors=things, hand_rate=0.5)
        yield render_scene(spec)


def row_scenes(
    deck: str, count: int, first_seed: int, *, one_deck: bool = True
) -> Iterator[tuple[np.ndarray, list]]:
    """`count` 1280x720 tables of up to 15 cards of `deck` laid in rows before 2 to 5
    players, each row's cards touching or overlapping their neighbour by up to 30% of a
    card's width (`random_scene(..., layout="rows")`), with their truths; an animal deck's
    ROW_ANIMAL_OFFSET further on. `one_deck` as for `synthetic_scenes`."""
    for image, truths, _ in rendered_tables(deck, count, first_seed, rows=True, one_deck=one_deck):
        yield image, truths


def heap_scenes(count: int, first_seed: int) -> Iterator[tuple[np.ndarray, list]]:
    """`count` close-up heaps of 2 to 5 playing cards, each covering much of the one
    under it, with their truths (`HEAP_SIZES`, `HEAP_LENGTHS`)."""
    from companion.vision.synth import random_scene, render_scene

    for index in range(count):
        rng = np.random.default_rng(first_seed + index)
        size = HEAP_SIZES[index % len(HEAP_SIZES)]
        spec = random_scene(
            rng,
            int(rng.integers(2, 6)),
            "playing-cards",
            size=size,
            face_up_rate=0.9,
            layout="pile",
            length_range=HEAP_LENGTHS.get(size, PHOTO_LENGTHS),
            hand_rate=0.0,
            distractors=0,
            one_deck=True,
        )
        yield render_scene(spec)


def designed_back_scenes(count: int, first_seed: int) -> Iterator[tuple[np.ndarray, list]]:
    """`count` 1280x720 tables of 15 playing cards, most face down, each scene's deck with
    a procedural back design of its own (`random_scene(..., designed_backs=1.0)`)."""
    for image, truths, _ in designed_back_tables(count, first_seed):
        yield image, truths


def designed_back_tables(count: int, first_seed: int) -> Iterator[tuple[np.ndarray, list, str]]:
    """`designed_back_scenes`, with each table's back style (``"design-N"``)."""
    from companion.vision.synth import random_scene, render_scene

    for index in range(count):
        rng = np.random.default_rng(first_seed + index)
        spec = random_scene(
            rng,
            SCENE_CARDS,
            "playing-cards",
            size=FRAME_SIZE,
            face_up_rate=DESIGN_FACE_UP_RATE,
            designed_backs=1.0,
            one_deck=True,
        )
        yield *render_scene(spec), str(spec.cards[0].back)
