"""Train the playing-card corner reader and export it to ONNX (needs the `train` extra).

The net reads one corner index patch (features.CORNER_SIZE, BGR in 0..1) and gives two
probability vectors: rank head (Ace..King, back, not a card) and suit head. Per-patch
normalisation happens inside the net, so the runtime feeds plain pixels.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from companion.vision.features import CORNER_SIZE, corner_views, to_model_input

from .card_samples import NO_SUIT, RANK_NAMES, synthetic_cards
from .real_photos import load_real_cards, real_card_samples


class CornerNet(nn.Module):
    """A small CNN over one corner index: about 60k weights, about 2 MFLOPs per patch."""

    def __init__(self, n_ranks: int = len(RANK_NAMES), n_suits: int = 4) -> None:
        super().__init__()

        def block(cin: int, cout: int) -> nn.Sequential:
            return nn.Sequential(
                nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()
            )

        self.features = nn.Sequential(
            block(3, 12), nn.MaxPool2d(2),  # 25 x 15
            block(12, 24), nn.MaxPool2d(2),  # 12 x 7
            block(24, 48), nn.MaxPool2d(2),  # 6 x 3
            block(48, 64),
        )  # fmt: skip
        self.head = nn.Sequential(
            nn.Flatten(), nn.Dropout(0.2), nn.Linear(64 * 6 * 3, 96), nn.ReLU()
        )
        self.rank = nn.Linear(96, n_ranks)
        self.suit = nn.Linear(96, n_suits)

    def logits(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        mean = x.mean(dim=(1, 2, 3), keepdim=True)
        std = x.std(dim=(1, 2, 3), keepdim=True)
        h = self.head(self.features((x - mean) / (std + 0.05)))
        return self.rank(h), self.suit(h)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        rank, suit = self.logits(x)
        return rank.softmax(dim=1), suit.softmax(dim=1)


def _views(
    cards: np.ndarray, ranks: np.ndarray, suits: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Both corner views of every card, each labelled like its card."""
    return corner_views(cards), np.repeat(ranks, 2), np.repeat(suits, 2)


def build_datasets(
    seed: int, n_synth: int, real_copies: int
) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Corner views for training and for measuring, all from fixed seeds."""
    t0 = time.time()
    photos = load_real_cards()
    sets = {
        "synth-train": _views(*synthetic_cards(n_synth, seed)),
        "synth-heldout": _views(*synthetic_cards(max(1000, n_synth // 10), seed + 10_000)),
        "real-train": _views(*real_card_samples(photos, "train", real_copies, seed)),
        "real-test": _views(*real_card_samples(photos, "test", 1, seed + 1, jitter=0.0)),
    }
    sizes = {k: len(v[0]) for k, v in sets.items()}
    print(f"data ready in {time.time() - t0:.0f}s: {sizes}", flush=True)
    return sets


def _batches(n: int, size: int, rng: np.random.Generator):
    order = rng.permutation(n)
    for i in range(0, n, size):
        yield order[i : i + size]


def evaluate(
    model: CornerNet, data: tuple[np.ndarray, np.ndarray, np.ndarray]
) -> tuple[float, float]:
    """(rank accuracy, suit accuracy where a suit applies) over single corner views."""
    views, ranks, suits = data
    model.eval()
    with torch.no_grad():
        rank_p, suit_p = model(torch.from_numpy(to_model_input(views)))
    rank_ok = (rank_p.argmax(1).numpy() == ranks).mean()
    has_suit = suits != NO_SUIT
    suit_ok = (suit_p.argmax(1).numpy()[has_suit] == suits[has_suit]).mean()
    return float(rank_ok), float(suit_ok)


def train(
    out: Path, seed: int = 0, n_synth: int = 16_000, real_copies: int = 24, epochs: int = 10
) -> None:
    """Train from fixed seeds and write the ONNX model to `out`."""
    torch.manual_seed(seed)
    torch.set_num_threads(2)
    rng = np.random.default_rng(seed)
    sets = build_datasets(seed, n_synth, real_copies)
    views = np.concatenate([sets["synth-train"][0], sets["real-train"][0]])
    ranks = np.concatenate([sets["synth-train"][1], sets["real-train"][1]])
    suits = np.concatenate([sets["synth-train"][2], sets["real-train"][2]])
    model = CornerNet()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    steps = epochs * ((len(views) + 127) // 128)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    rank_loss = nn.CrossEntropyLoss(label_smoothing=0.05)
    suit_loss = nn.CrossEntropyLoss(ignore_index=NO_SUIT)
    for epoch in range(epochs):
        model.train()
        t0, total = time.time(), 0.0
        for idx in _batches(len(views), 128, rng):
            x = torch.from_numpy(to_model_input(views[idx]))
            r, s = model.logits(x)
            loss = rank_loss(r, torch.from_numpy(ranks[idx])) + 0.5 * suit_loss(
                s, torch.from_numpy(suits[idx])
            )
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        scores = {k: evaluate(model, sets[k]) for k in ("synth-heldout", "real-test")}
        print(
            f"epoch {epoch + 1}/{epochs} loss {total / len(views):.3f} "
            + " ".join(f"{k} rank {r:.3f} suit {s:.3f}" for k, (r, s) in scores.items())
            + f" ({time.time() - t0:.0f}s)",
            flush=True,
        )
    export(model, out)


def export(model: CornerNet, out: Path) -> None:
    """One self-contained ONNX file with a free batch dimension."""
    model.eval()
    width, height = CORNER_SIZE
    example = torch.zeros(2, 3, height, width)
    batch = torch.export.Dim("batch", min=1, max=4096)
    torch.onnx.export(
        model,
        (example,),
        str(out),
        input_names=["corners"],
        output_names=["rank", "suit"],
        dynamic_shapes={"x": {0: batch}},
        external_data=False,
        opset_version=18,
    )
    print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB)")
