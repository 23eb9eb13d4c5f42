"""Reader timing (run with `pytest -m bench`): 15 cards of a 1280x720 scene, one thread."""

from __future__ import annotations

import time

import cv2
import numpy as np
import pytest

from companion.vision.decks import load_deck
from companion.vision.read import CardReader
from companion.vision.synth import random_scene, render_scene


@pytest.mark.bench
@pytest.mark.parametrize(
    ("deck", "scene_deck"), [("playing-cards", "playing-cards"), ("demo-animals", "animals")]
)
def test_read_batch_speed(deck: str, scene_deck: str) -> None:
    cv2.setNumThreads(1)
    image, truths = render_scene(random_scene(np.random.default_rng(5), 15, scene_deck))
    quads = [t.corners for t in truths]
    reader = CardReader(load_deck(deck))
    for _ in range(5):
        reader.read_batch(image, quads)
    times = []
    for _ in range(50):
        start = time.perf_counter()
        reader.read_batch(image, quads)
        times.append(time.perf_counter() - start)
    print(f"\n{deck}: {len(quads)} cards read in {1000 * np.median(times):.2f} ms median")
