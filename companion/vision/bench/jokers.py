"""A deck's jokers among the cards (`--jokers`): no game card may be read on a joker."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .scenes import FRAME_SIZE, SCENE_CARDS
from .tallies import VISIBLE, Tally
from .timing import timed_read

# Tables with jokers (`--jokers`): table k from JOKER_SEED + k, its face-down cards (a share
# of JOKER_TABLES_FACE_UP up) the jokers of edition JOKER_EDITION + k.
JOKER_SEED = 5_600_000
JOKER_EDITION = 500
JOKER_TABLES_FACE_UP = 0.4


def joker_figures(count: int, finder: str = "both") -> dict[str, object]:
    """`count` tables of 15 playing cards, the face-down ones a deck's jokers (edition
    `JOKER_EDITION` + k on table k): how many game cards are read on a joker (lying on one
    or mostly on one), and how many of the faces among them are read right (a reading on
    a joker is no phantom)."""
    from companion.vision.synth import random_scene, render_scene
    from companion.vision.synth.art import joker_face

    jokers, as_game, faces = 0, 0, Tally()
    for index in range(count):
        rng = np.random.default_rng(JOKER_SEED + index)
        spec = random_scene(
            rng,
            SCENE_CARDS,
            "playing-cards",
            size=FRAME_SIZE,
            face_up_rate=JOKER_TABLES_FACE_UP,
            one_deck=True,
        )
        image, truths = render_scene(spec, back_art=joker_face(JOKER_EDITION + index))
        readings, _ = timed_read("playing-cards", image, [], finder)
        on_jokers = [t.corners for t in truths if t.face == "down"]
        jokers += sum(t.face == "down" and t.visible >= VISIBLE for t in truths)
        joker_readings = [_lies_on(r.corners, on_jokers) for r in readings]
        as_game += sum(
            r.rank is not None and on for r, on in zip(readings, joker_readings, strict=True)
        )
        faces.add_scene(
            [r for r, on in zip(readings, joker_readings, strict=True) if not on],
            [],
            [t for t in truths if t.face == "up"],
        )
    summary = faces.summary()
    return {
        "jokers": jokers,
        "game cards read on a joker": as_game,
        "faces among them read right": f"{summary['found and read right']} of {summary['cards']}",
        "misread as a game rank": summary["misread as a game rank"],
        "phantoms": summary["phantoms"],
    }


def _lies_on(quad: np.ndarray, cards: Sequence[np.ndarray]) -> bool:
    """Whether `quad` is one of `cards` (IoU 0.3) or lies mostly on one (half its area)."""
    from companion.vision.geometry import quad_cover, quad_iou

    return any(quad_iou(quad, card) >= 0.3 or quad_cover(quad, card) >= 0.5 for card in cards)
