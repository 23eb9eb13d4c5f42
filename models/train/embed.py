"""Train the card embedding used to read enrolled decks, and export it to ONNX.

The task at run time: given the enrolled pictures of one deck (a flat scan or a photo of
each card 1..5 and of the back), say which of them a card seen on the table is, or that it
is none of them. So training mimics exactly that, over hundreds of procedurally generated
animal editions (`synth.art`, integer seeds; the named editions "classic" and "woodland"
are never used, so they measure how the embedding does on art it has not seen):
each query (a card as the camera sees it) must be nearer its own card's template than the
deck's other five, and things that are no card of the deck (playing cards, table,
clutter, seat markers) must stay far from every template. Up to half the queries are cut
along the quads the card finders really return on rendered scenes, and the finders' quads
on no card are negatives (`card_samples.found_animal_views`): the reader meets those, not
true corners.
"""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from companion.vision.features import EMBED_SIZE, READ_SIZE, embed_input, turned
from companion.vision.synth.art import PLAYING_BACK_STYLES, card_back, card_face
from companion.vision.types import SUITS

from .card_samples import (
    _clutter,
    _light,
    _placed,
    found_animal_views,
    order_clockwise,
    rectify_cards,
    square_thing,
)
from .speed_graph import rewrite

KEYS = 6  # 1..5 and back
NEGATIVES = 4  # negatives per edition in a training step


def _art(edition: int, key: int) -> np.ndarray:
    if key < 5:
        return np.array(card_face("animals", key + 1, None, edition))
    return np.array(card_back("animals", edition))


# Corner error of the rendered single cards' quads: each coordinate's standard deviation,
# as a fraction of the card's diagonal, drawn per card between these two. The finders are
# off by a fraction of a pixel on a big sharp card, and by 2 to 4 pixels (3-5% of the
# diagonal) on a 60-pixel card, a glared or a blurred one (tuning scenes, seeds 950,000+);
# the views cut along the finders' own quads (`found_animal_views`) bring the rest.
QUAD_JITTER = (0.005, 0.025)
# Scenes rendered per edition, and empty tables, for the finders' own quads.
FOUND_SCENES = 2
FOUND_EMPTY_TABLES = 300
# Cards from this long (pixels) to 320: the finders hand the reader cards down to about 50.
MIN_LENGTH = 45.0


def _seen(art: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The card as the reader sees it on a table (rectified, maybe upside down)."""
    scene, corners = _placed(art, rng, min_length=MIN_LENGTH)
    scene = _light(scene, rng)
    spread = rng.uniform(*QUAD_JITTER) * np.linalg.norm(corners[0] - corners[2])
    jitter = rng.normal(0, spread, corners.shape)
    return rectify_cards(scene, [order_clockwise(corners + jitter.astype(np.float32))])[0]


def _enrolled(art: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The card as enrolled: mostly a flat scan, sometimes a photo."""
    if rng.random() < 0.3:
        return _seen(art, rng)
    flat = cv2.resize(art, READ_SIZE, interpolation=cv2.INTER_AREA)
    gain = rng.uniform(0.8, 1.15, 3)
    return np.clip(flat * gain, 0, 255).astype(np.uint8)


def _negative(rng: np.random.Generator) -> np.ndarray:
    """Something that is no card of an animal deck."""
    kind = rng.random()
    if kind < 0.55:
        art = np.array(
            card_face(
                "playing-cards",
                int(rng.integers(1, 14)),
                SUITS[rng.integers(4)],
                int(rng.integers(0, 12)),
            )
        )
    elif kind < 0.7:
        art = np.array(card_back("playing-cards", PLAYING_BACK_STYLES[rng.integers(3)]))
    elif kind < 0.85:
        art = square_thing(rng)
    else:
        art = _clutter(rng)
    return _seen(art, rng)


def build_pool(
    editions: range, queries: int, negatives: int, seed: int, found_share: float = 0.5
) -> dict[str, np.ndarray]:
    """Templates (E, 6, H, W, 3), queries (E, 6, Q, H, W, 3) and negatives (N, H, W, 3).

    Up to `found_share` of each card's queries are cut along the finders' own quads
    (`card_samples.found_animal_views`), the rest are rendered single cards; the
    negatives are rendered things plus the finders' quads on no card.
    """
    rng = np.random.default_rng(seed)
    width, height = READ_SIZE
    n = len(editions)
    found, hard = found_animal_views(editions, FOUND_SCENES, FOUND_EMPTY_TABLES, seed + 1)
    print(f"{sum(map(len, found.values()))} found views, {len(hard)} hard negatives", flush=True)
    templates = np.empty((n, KEYS, height, width, 3), np.uint8)
    seen = np.empty((n, KEYS, queries, height, width, 3), np.uint8)
    for i, edition in enumerate(editions):
        for key in range(KEYS):
            art = _art(edition, key)
            templates[i, key] = _enrolled(art, rng)
            cut = found.get((edition, key), [])
            picked = rng.permutation(len(cut))[: int(found_share * queries)]
            for q in range(queries):
                seen[i, key, q] = cut[picked[q]] if q < len(picked) else _seen(art, rng)
    negs = np.stack([_negative(rng) for _ in range(negatives)] + hard)
    return {"templates": templates, "queries": seen, "negatives": negs}


class EmbedNet(nn.Module):
    """A small CNN from a whole card (EMBED_SIZE) to a unit 64-d vector."""

    def __init__(self, dim: int = 64) -> None:
        super().__init__()

        def block(cin: int, cout: int) -> nn.Sequential:
            return nn.Sequential(
                nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(),
                nn.MaxPool2d(2),
            )  # fmt: skip

        self.features = nn.Sequential(block(3, 12), block(12, 24), block(24, 32), block(32, 48))
        width, height = EMBED_SIZE
        flat = 48 * (height // 16) * (width // 16)
        self.head = nn.Sequential(
            nn.Flatten(), nn.Linear(flat, 128), nn.ReLU(), nn.Linear(128, dim)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        mean = x.mean(dim=(2, 3), keepdim=True)
        std = x.std(dim=(1, 2, 3), keepdim=True)
        z = self.head(self.features((x - mean) / (std + 0.05)))
        return z / (z.norm(dim=1, keepdim=True) + 1e-6)


def _embed(model: EmbedNet, cards: np.ndarray) -> torch.Tensor:
    return model(torch.from_numpy(embed_input(cards)))


def _step_loss(
    model: EmbedNet, pool: dict[str, np.ndarray], rng: np.random.Generator, decks: int
) -> torch.Tensor:
    """The matching loss over `decks` random editions of the pool."""
    n_ed, _, n_q = pool["queries"].shape[:3]
    eds = rng.choice(n_ed, decks, replace=False)
    templates = pool["templates"][eds].reshape(-1, *pool["templates"].shape[2:])
    q_idx = rng.integers(n_q, size=(decks, KEYS))
    queries = pool["queries"][eds[:, None], np.arange(KEYS)[None], q_idx].reshape(
        -1, *pool["queries"].shape[3:]
    )
    negs = pool["negatives"][rng.choice(len(pool["negatives"]), decks * NEGATIVES, replace=False)]
    t_up = _embed(model, templates).view(decks, KEYS, -1)
    t_down = _embed(model, turned(templates)).view(decks, KEYS, -1)
    q = _embed(model, queries).view(decks, KEYS, -1)
    z_neg = _embed(model, negs).view(decks, NEGATIVES, -1)
    # similarity of each query to each template of its own deck, the better way up
    sim = torch.maximum(
        torch.einsum("dqe,dke->dqk", q, t_up), torch.einsum("dqe,dke->dqk", q, t_down)
    )
    target = torch.arange(KEYS).repeat(decks)
    match = nn.functional.cross_entropy(sim.reshape(-1, KEYS) / 0.07, target)
    positive = sim.diagonal(dim1=1, dim2=2)
    neg_sim = torch.maximum(
        torch.einsum("dne,dke->dnk", z_neg, t_up), torch.einsum("dne,dke->dnk", z_neg, t_down)
    )
    apart = torch.relu(0.8 - positive).mean() + torch.relu(neg_sim.amax(dim=2) - 0.4).mean()
    return match + apart


# The shipped file joins two nets of the same shape (`join`): (editions, training steps)
# of each. The first is the embedding shipped alone until 2026-11-30; the second, from
# 2.5 times the editions and steps, reads more cards (the unseen woodland edition 489 ->
# 502 of 505 game cards) but took phones, green notes and half-hidden backs for backs
# more often; their mean similarity keeps most of its gain and the first's caution.
NETS = ((160, 1200), (400, 3000))


def train(out: Path, seed: int = 0) -> None:
    """Train each of NETS from fixed seeds and write their joined ONNX embedding to `out`."""
    parts = []
    for editions, steps in NETS:
        t0 = time.time()
        pool = build_pool(range(1, editions + 1), queries=8, negatives=1000, seed=seed)
        print(f"pool of {editions} editions ready in {time.time() - t0:.0f}s", flush=True)
        part = out.with_name(f"{out.stem}.{editions}{out.suffix}")
        export(fit(pool, seed, steps), part)
        parts.append(part)
    join(parts, out)
    for part in parts:
        part.unlink()


def join(parts: list[Path], out: Path) -> None:
    """One ONNX file that runs every embedding net of `parts` on the same cards and puts
    their unit embeddings side by side, scaled by 1/sqrt(len(parts)): still of unit
    length, and the cosine similarity of two joined embeddings is the mean of the parts'.
    The reader (`read.py`) needs no change, only the file."""
    import onnx
    from onnx import TensorProto, compose, helper

    models = [onnx.load(str(path)) for path in parts]
    opsets = {tuple((o.domain, o.version) for o in model.opset_import) for model in models}
    if len(opsets) != 1:
        raise ValueError(f"the nets to join use different opsets: {sorted(opsets)}")
    nodes, initializers, value_info, outputs, width_out = [], [], [], [], 0
    for index, model in enumerate(models):
        graph = compose.add_prefix(model, f"net{index}_").graph
        nodes.append(helper.make_node("Identity", ["cards"], [graph.input[0].name]))
        nodes.extend(graph.node)
        initializers.extend(graph.initializer)
        value_info.extend(graph.value_info)
        outputs.append(graph.output[0].name)
        width_out += graph.output[0].type.tensor_type.shape.dim[1].dim_value
    scale = helper.make_tensor("join_scale", TensorProto.FLOAT, [], [len(parts) ** -0.5])
    nodes.append(helper.make_node("Concat", outputs, ["joined"], axis=1))
    nodes.append(helper.make_node("Mul", ["joined", "join_scale"], ["embedding"]))
    width, height = EMBED_SIZE
    cards = helper.make_tensor_value_info("cards", TensorProto.FLOAT, ["batch", 3, height, width])
    dims = ["batch", width_out]
    embedding = helper.make_tensor_value_info("embedding", TensorProto.FLOAT, dims)
    graph = helper.make_graph(
        nodes,
        "joined_embedding",
        [cards],
        [embedding],
        [*initializers, scale],
        value_info=value_info,
    )
    model = helper.make_model(graph, opset_imports=models[0].opset_import)
    model.ir_version = models[0].ir_version
    onnx.checker.check_model(model, full_check=True)
    onnx.save(model, str(out))
    print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB) from {len(parts)} nets")


def fit(pool: dict[str, np.ndarray], seed: int, steps: int) -> EmbedNet:
    """Train the embedding on a pool from `build_pool`."""
    torch.manual_seed(seed)
    torch.set_num_threads(2)
    rng = np.random.default_rng(seed)
    decks = min(12, len(pool["templates"]))
    model = EmbedNet()
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=2e-3, total_steps=steps)
    t0, running = time.time(), 0.0
    for step in range(steps):
        model.train()
        loss = _step_loss(model, pool, rng, decks)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        running += loss.item()
        if (step + 1) % 100 == 0:
            print(
                f"step {step + 1}/{steps} loss {running / 100:.3f} ({time.time() - t0:.0f}s)",
                flush=True,
            )
            running = 0.0
    return model


def export(model: EmbedNet, out: Path) -> None:
    """One self-contained ONNX file with a free batch dimension."""
    model.eval()
    width, height = EMBED_SIZE
    batch = torch.export.Dim("batch", min=1, max=4096)
    torch.onnx.export(
        model,
        (torch.zeros(2, 3, height, width),),
        str(out),
        input_names=["cards"],
        output_names=["embedding"],
        dynamic_shapes={"x": {0: batch}},
        external_data=False,
        opset_version=18,
    )
    rewrite(out, pad=True)  # the graph onnxruntime runs fastest (speed_graph.py)
    print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB)")
