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

import functools
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import torch

from companion.vision.features import WHOLE_SIZE, turned, whole_views_of
from companion.vision.playing_views import NON_GAME_FACES

from .card_samples import (
    DESIGNED_TABLES,
    FRAGMENT_IOU,
    JOKER_AS_FACE,
    JOKER_CLASS,
    NONE_CLASS,
    designed_back_art,
    found_cards,
    joker_art,
    plain_thing_art,
    scene_cards,
    synthetic_cards,
)
from .cards import ReaderNet, Samples, export, fit, report_sizes
from .real_photos import load_real_cards, real_card_samples

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
    if kind == "designed-synth":
        return _both_ways(*synthetic_cards(n, seed, whole_views_of, designed_back_art))
    if kind == "designed-scene":
        return _both_ways(*scene_cards(n, seed, cut=whole_views_of, **DESIGNED_TABLES))
    if kind == "designed-found":
        return _both_ways(
            *found_cards(n, seed, cut=whole_views_of, none_below=FRAGMENT_IOU, **DESIGNED_TABLES)
        )
    if kind == "things":
        return _both_ways(*synthetic_cards(n, seed, whole_views_of, plain_thing_art))
    if kind.startswith(tuple(f"{prefix}-" for prefix in JOKER_LABELS)):
        label = JOKER_LABELS[kind.rsplit("-", 1)[0]]
        if kind.endswith("-synth"):
            art = functools.partial(joker_art, label=label)
            return _both_ways(*synthetic_cards(n, seed, whole_views_of, art))
        return _both_ways(*scene_cards(n, seed, whole_views_of, face_up_rate=0.4, jokers=label))
    if kind == "fragments":
        return _both_ways(*found_cards(n, seed, cut=whole_views_of, none_below=FRAGMENT_IOU))
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
# The second stage (`backs_tune`): tables whose deck has a procedural back design,
# most cards face down, cut along the finders' quads and along true corners, and single
# backs; tables of the usual decks along the finders' quads, scraps of covered cards "none";
# phones, notes and markers filling a card's picture. The corner reader's seeds
# (`cards.designed_samples`), its found-quad tables in two streams of 300 for the two
# processes.
DESIGNED_JOBS = (
    ("designed-found", 300, 760),
    ("designed-found", 300, 761),
    ("designed-scene", 300, 860),
    ("designed-synth", 3000, 5),
    ("fragments", 300, 780),
    ("fragments", 300, 781),
    ("things", 3000, 6),
)
DESIGNED_HELD_OUT_JOB = ("designed-found", 100, 10_760)
# The third stage (`jokers_tune`): jokers, single and on tables, as the corner reader's
# (`cards.joker_samples`), the tables in two streams of 150.
JOKER_JOBS = (("jokers-synth", 3000, 7), ("jokers-scene", 150, 870), ("jokers-scene", 150, 871))
JOKER_HELD_OUT_JOB = ("jokers-scene", 60, 10_870)
# The same jokers taught as "none" (no card), as faces of no rank
# (`card_samples.JOKER_AS_FACE`) or as a class of their own (`card_samples.JOKER_CLASS`):
# each teaching's jobs are those above, their kind named by its prefix.
JOKER_LABELS = {"jokers": NONE_CLASS, "joker-faces": JOKER_AS_FACE, "joker-class": JOKER_CLASS}


def joker_jobs(label: int) -> tuple[tuple, tuple]:
    """The jokers' training jobs and held-out job (`JOKER_JOBS`), labelled `label`."""
    prefix = next(name for name, value in JOKER_LABELS.items() if value == label)
    jobs = [(kind.replace("jokers", prefix), n, seed) for kind, n, seed in JOKER_JOBS]
    held_kind, held_n, held_seed = JOKER_HELD_OUT_JOB
    return tuple(jobs), (held_kind.replace("jokers", prefix), held_n, held_seed)


def build_datasets(
    workers: int = 2,
    real_copies: int = 24,
    designed: bool = False,
    jokers: tuple[tuple, tuple] | None = None,
) -> dict[str, Samples]:
    """Every set, rendered on `workers` processes from the fixed seeds above, with the
    `designed` backs' sets too, and `jokers` (their training jobs and held-out job);
    `cards.fit` trains on those named "*-train" and reports the others."""
    t0 = time.time()
    designed_jobs = (*DESIGNED_JOBS, DESIGNED_HELD_OUT_JOB) if designed else ()
    joker_jobs = (*jokers[0], jokers[1]) if jokers else ()
    with ProcessPoolExecutor(workers) as pool:
        rendered = list(pool.map(_render, (*TRAIN_JOBS, HELD_OUT_JOB)))
        designed_sets = list(pool.map(_render, designed_jobs))
        joker_sets = list(pool.map(_render, joker_jobs))
    photos = load_real_cards()
    real_train = real_card_samples(photos, "train", real_copies, 0, cut=whole_views_of)
    train = [*rendered[:-1], _both_ways(*real_train), *designed_sets[:-1], *joker_sets[:-1]]
    sets = {
        "rendered-and-real-train": tuple(np.concatenate(p) for p in zip(*train, strict=True)),
        "found-heldout": rendered[-1],
        "real-test": _both_ways(
            *real_card_samples(photos, "test", 1, 1, jitter=0.0, cut=whole_views_of)
        ),
    }
    if designed:
        sets["designed-heldout"] = designed_sets[-1]
    if jokers:
        sets["jokers-heldout"] = joker_sets[-1]
    report_sizes(sets, t0)
    return sets


def train(out: Path, epochs: int = 10, workers: int = 2) -> None:
    """Render every set, train from `torch.manual_seed(0)`, write the ONNX model to `out`."""
    torch.manual_seed(0)
    torch.set_num_threads(workers)
    sets = build_datasets(workers)
    model = ReaderNet(widths=WIDTHS, size=WHOLE_SIZE)
    fit(model, sets, epochs, seed=0, max_lr=3e-3)
    export(model, out, input_name="cards")


def backs_tune(out: Path, init: Path, epochs: int = 4, workers: int = 2) -> None:
    """The second stage: the exported model `init` fine-tuned on every set above and the
    designed backs' (`DESIGNED_JOBS`), as the corner reader's fourth stage
    (`cards.backs_tune`) and for the same reason. One-cycle lr 5e-4 from
    `torch.manual_seed(0)`, `workers` threads: about 9.5 minutes on 2 cores, 3.5 of them
    rendering."""
    from .cards import load_onnx

    torch.manual_seed(0)
    torch.set_num_threads(workers)
    sets = build_datasets(workers, designed=True)
    model = load_onnx(init, sets["rendered-and-real-train"][0][:1024], WIDTHS, WHOLE_SIZE)
    fit(model, sets, epochs, seed=0, max_lr=5e-4)
    export(model, out, input_name="cards")


def jokers_tune(
    out: Path, init: Path, epochs: int = 4, workers: int = 2, label: int = NONE_CLASS
) -> None:
    """A third stage: `init` (the second) fine-tuned on every set of the second stage and
    the jokers' (`joker_jobs`), as the corner reader's fifth stage (`cards.jokers_tune`)
    and for the same reason. `label`: what the jokers are taught to be ("none", a face of
    no rank, or a class of their own, which the export folds into the 6..King classes:
    `cards.FoldedJokers`). One-cycle lr 5e-4 from `torch.manual_seed(0)`, `workers`
    threads."""
    from .cards import FoldedJokers, load_onnx

    torch.manual_seed(0)
    torch.set_num_threads(workers)
    sets = build_datasets(workers, designed=True, jokers=joker_jobs(label))
    n_ranks = JOKER_CLASS + 1 if label == JOKER_CLASS else NONE_CLASS + 1
    sample = sets["rendered-and-real-train"][0][:1024]
    model = load_onnx(init, sample, WIDTHS, WHOLE_SIZE, n_ranks=n_ranks)
    fit(model, sets, epochs, seed=0, max_lr=5e-4)
    if label == JOKER_CLASS:  # measured so: a joker read as a face of no game rank
        model = FoldedJokers(model, into=NON_GAME_FACES)
    export(model, out, input_name="cards")


def joker_row_tune(
    out: Path, init: Path, workers: int = 2, into: Sequence[int] = (NONE_CLASS,)
) -> None:
    """The third stage, shipped: the second stage `init` given a class of jokers
    (`card_samples.JOKER_CLASS`) of which only the row is learned, on the frozen reader's
    features (`cards.fit_last_rank_class`), from the same sets as `jokers_tune`; exported
    with the jokers' probability folded into the classes `into` ("none": no card;
    `cards.FoldedJokers`). Why: each fine-tuning of the whole reader with jokers, as
    "none", as faces of no rank or as a class of their own, read a few cards fewer on the
    tuning tables and lost a fanned Ace; a row learned alone leaves every other class's
    logits as they were. About 5 minutes on 2 cores, 3 of them rendering."""
    from .cards import FoldedJokers, fit_last_rank_class, load_onnx

    torch.manual_seed(0)
    torch.set_num_threads(workers)
    sets = build_datasets(workers, designed=True, jokers=joker_jobs(JOKER_CLASS))
    sample = sets["rendered-and-real-train"][0][:1024]
    model = load_onnx(init, sample, WIDTHS, WHOLE_SIZE, n_ranks=JOKER_CLASS + 1)
    fit_last_rank_class(model, sets)
    export(FoldedJokers(model, into), out, input_name="cards")
