"""Train the whole-card reader of playing cards and export it to ONNX (the `train` extra).

Why a second reader: the corner reader reads a card's index, which on a card 60 to 100
pixels long is a few pixels high, and motion blur smears it past reading; measured on
rendered tuning scenes, only 80% of the Aces to 5s of that size read right even from their
true outlines. The pips of an Ace to 5 are large and few, and still countable when the
index is not. This net sees the whole card shrunk to `features.WHOLE_SIZE` and gives the
same outputs as the corner reader (rank: Ace..King, back, not a card; suit); `read.py`
combines it with the two corner views of every card.

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
from torch import nn

from companion.vision.features import WHOLE_SIZE, to_model_input, turned, whole_views_of

from .card_samples import NO_SUIT, RANK_NAMES, found_cards, scene_cards, synthetic_cards
from .real_photos import load_real_cards, real_card_samples

Samples = tuple[np.ndarray, np.ndarray, np.ndarray]


class WholeCardNet(nn.Module):
    """A small CNN over a whole card at 40x56: about 264k weights (most in the dense
    layer), about 7 MFLOPs a card."""

    def __init__(
        self,
        n_ranks: int = len(RANK_NAMES),
        n_suits: int = 4,
        widths: tuple[int, int, int, int] = (16, 32, 48, 64),
        hidden: int = 96,
    ) -> None:
        super().__init__()
        c1, c2, c3, c4 = widths

        def block(cin: int, cout: int) -> nn.Sequential:
            return nn.Sequential(
                nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()
            )

        self.features = nn.Sequential(
            block(3, c1), nn.MaxPool2d(2),  # 28 x 20
            block(c1, c2), nn.MaxPool2d(2),  # 14 x 10
            block(c2, c3), nn.MaxPool2d(2),  # 7 x 5
            block(c3, c4),
        )  # fmt: skip
        width, height = WHOLE_SIZE
        cells = (height // 8) * (width // 8)
        self.head = nn.Sequential(
            nn.Flatten(), nn.Dropout(0.2), nn.Linear(c4 * cells, hidden), nn.ReLU()
        )
        self.rank = nn.Linear(hidden, n_ranks)
        self.suit = nn.Linear(hidden, n_suits)

    def logits(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        # Each card normalised by its own mean and spread: the light level does not matter.
        mean = x.mean(dim=(1, 2, 3), keepdim=True)
        std = x.std(dim=(1, 2, 3), keepdim=True)
        h = self.head(self.features((x - mean) / (std + 0.05)))
        return self.rank(h), self.suit(h)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        rank, suit = self.logits(x)
        return rank.softmax(dim=1), suit.softmax(dim=1)


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
    """Every set, rendered on `workers` processes from the fixed seeds above."""
    t0 = time.time()
    with ProcessPoolExecutor(workers) as pool:
        rendered = list(pool.map(_render, (*TRAIN_JOBS, HELD_OUT_JOB)))
    photos = load_real_cards()
    real_train = real_card_samples(photos, "train", real_copies, 0, cut=whole_views_of)
    train = [*rendered[:-1], _both_ways(*real_train)]
    sets = {
        "train": tuple(np.concatenate(part) for part in zip(*train, strict=True)),
        "found-heldout": rendered[-1],
        "real-test": _both_ways(
            *real_card_samples(photos, "test", 1, 1, jitter=0.0, cut=whole_views_of)
        ),
    }
    sizes = {k: len(v[0]) for k, v in sets.items()}
    print(f"data ready in {time.time() - t0:.0f}s: {sizes}", flush=True)
    return sets


def evaluate(model: WholeCardNet, data: Samples) -> tuple[float, float]:
    """(rank accuracy, suit accuracy where a suit applies)."""
    views, ranks, suits = data
    model.eval()
    with torch.no_grad():
        rank_p, suit_p = model(torch.from_numpy(to_model_input(views)))
    rank_ok = (rank_p.argmax(1).numpy() == ranks).mean()
    has_suit = suits != NO_SUIT
    suit_ok = (suit_p.argmax(1).numpy()[has_suit] == suits[has_suit]).mean()
    return float(rank_ok), float(suit_ok)


def fit(model: WholeCardNet, sets: dict[str, Samples], epochs: int, max_lr: float = 3e-3) -> None:
    """Train on `sets["train"]`, reporting the other sets after each epoch."""
    rng = np.random.default_rng(0)
    views, ranks, suits = sets["train"]
    batch = 128
    opt = torch.optim.AdamW(model.parameters(), lr=max_lr, weight_decay=1e-4)
    steps = epochs * ((len(views) + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=max_lr, total_steps=steps)
    rank_loss = nn.CrossEntropyLoss(label_smoothing=0.05)
    suit_loss = nn.CrossEntropyLoss(ignore_index=NO_SUIT)
    for epoch in range(epochs):
        model.train()
        t0, total = time.time(), 0.0
        order = rng.permutation(len(views))
        for start in range(0, len(views), batch):
            idx = order[start : start + batch]
            r, s = model.logits(torch.from_numpy(to_model_input(views[idx])))
            loss = rank_loss(r, torch.from_numpy(ranks[idx])) + suit_loss(
                s, torch.from_numpy(suits[idx])
            )
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        scores = {k: evaluate(model, v) for k, v in sets.items() if k != "train"}
        print(
            f"epoch {epoch + 1}/{epochs} loss {total / len(views):.3f} "
            + " ".join(f"{k} rank {r:.3f} suit {s:.3f}" for k, (r, s) in scores.items())
            + f" ({time.time() - t0:.0f}s)",
            flush=True,
        )


def train(out: Path, epochs: int = 10, workers: int = 2) -> None:
    """Render every set, train from `torch.manual_seed(0)`, write the ONNX model to `out`."""
    torch.manual_seed(0)
    torch.set_num_threads(workers)
    sets = build_datasets(workers)
    model = WholeCardNet()
    fit(model, sets, epochs)
    export(model, out)


def export(model: WholeCardNet, out: Path) -> None:
    """One self-contained ONNX file with a free batch dimension."""
    model.eval()
    width, height = WHOLE_SIZE
    example = torch.zeros(2, 3, height, width)
    batch = torch.export.Dim("batch", min=1, max=4096)
    torch.onnx.export(
        model,
        (example,),
        str(out),
        input_names=["cards"],
        output_names=["rank", "suit"],
        dynamic_shapes={"x": {0: batch}},
        external_data=False,
        opset_version=18,
    )
    print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB)")
