"""Train the whole-card reader of playing cards and export it to ONNX (the `train` extra).

Why a second reader: the corner reader reads a card's index, which on a card 60 to 100
pixels long is a few pixels high, and motion blur smears it past reading; measured on
rendered tuning scenes, only 80% of the Aces to 5s of that size read right even from their
true outlines. The pips of an Ace to 5 are large and few, and still countable when the
index is not. This net (`cards.ReaderNet`, wider than the corner reader's) sees the whole
card warped straight to `features.WHOLE_SIZE` and gives the same outputs as the corner
reader (rank: Ace..King, back, not a card; suit); `playing_views.py` combines it with the two
corner views of every card.

Samples, all from seeds below 900,000 (the benchmark's held-out scenes are 5,000,000 up):
cards cut along the finders' own quads (`card_samples.found_cards`), along true corners
with a detector's jitter (`scene_cards`), single rendered cards (`synthetic_cards`) and the
real photos' train split. Every card is also shown turned by 180°, as a card facing the
other side of the table lies.
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import torch

from companion.vision.features import WHOLE_SIZE, turned, whole_views_of

from .card_samples import found_cards, scene_cards, synthetic_cards
from .cards import ReaderNet, export, fit
from .real_photos import load_real_cards, real_card_samples

Samples = tuple[np.ndarray, np.ndarray, np.ndarray]
# Wider than the corner reader's: a whole face holds more to tell apart than an index.
WIDTHS = (16, 32, 48, 64)


def _both_ways(views: np.ndarray, ranks: np.ndarray, suits: np.ndarray) -> Samples:
    """Whole-card views, each also turned by 180°."""
    return (
        np.concatenate([views, turned(views)]),
        np.concatenate([ranks, ranks]),
        np.concatenate([suits, suits]),
    )


def _render(job: tuple[str, int, int]) -> Samples:
    kind, n, seed = job
    make = {"found": found_cards, "scene": scene_cards, "synth": synthetic_cards}[kind]
    return _both_ways(*make(n, seed, cut=whole_views_of))


# (kind, count, seed) of every rendered set: train sets, then the held-out one.
TRAIN_JOBS = (
    ("found", 700, 741),
    ("found", 700, 742),
    ("scene", 400, 841),
    ("scene", 400, 842),
    ("synth", 8000, 3),
)
HELD_OUT_JOB = ("found", 200, 10_740)


def build_datasets(workers: int = 2, real_copies: int = 24) -> dict[str, Samples]:
    """Every set, rendered on `workers` processes from the fixed seeds above; `cards.fit`
    trains on those named "*-train" and reports the others."""
    t0 = time.time()
    with ProcessPoolExecutor(workers) as pool:
        rendered = list(pool.map(_render, (*TRAIN_JOBS, HELD_OUT_JOB)))
    photos = load_real_cards()
    real_train = real_card_samples(photos, "train", real_copies, 0, cut=whole_views_of)
    train = [*rendered[:-1], _both_ways(*real_train)]
    sets = {
        "rendered-and-real-train": tuple(np.concatenate(p) for p in zip(*train, strict=True)),
        "found-heldout": rendered[-1],
        "real-test": _both_ways(
            *real_card_samples(photos, "test", 1, 1, jitter=0.0, cut=whole_views_of)
        ),
    }
    sizes = {k: len(v[0]) for k, v in sets.items()}
    print(f"data ready in {time.time() - t0:.0f}s: {sizes}", flush=True)
    return sets


def train(out: Path, epochs: int = 10, workers: int = 2) -> None:
    """Render every set, train from `torch.manual_seed(0)`, write the ONNX model to `out`."""
    torch.manual_seed(0)
    torch.set_num_threads(workers)
    sets = build_datasets(workers)
    model = ReaderNet(widths=WIDTHS, size=WHOLE_SIZE)
    fit(model, sets, epochs, seed=0, max_lr=3e-3)
    export(model, out, input_name="cards")
