"""Training of the corner-index finder (`models/index_finder.onnx`,
model card in models/README.md; the runtime is `companion/vision/corner_index.py`).

Each sample is a rendered frame (or a crop of it, so that cards are cut by the border and
seen larger, as on close-up photos) scaled as `segment.net_input` scales a frame, with
targets at the net's output resolution (half the input):
- "index": a small disc at the middle of every corner index that is at least `SHOWN`
  visible (not covered by a later card, a thing, a hand or the picture's border); an
  index between `HALF_SHOWN` and `SHOWN` visible is neither taught as one nor as none;
- on those discs, the card's "right" and "down" side vectors seen from that index's
  corner (output pixels / `corner_index.VECTOR_UNIT`).
Scenes: playing cards scattered or in seats (small to large), heaps of big cards each
covering much of the next (the real photos' usual sight), and animal tables and empty
tables with things as what is not an index.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from companion.vision.corner_index import PATCH_HEIGHT, PATCH_WIDTH, VECTOR_UNIT
from companion.vision.segment import net_input
from companion.vision.synth import random_scene, render_scene

from .finder import FRAME, _occluders, build_net, pile_scene, timed_steps, training_rng

SHOWN = 0.8
HALF_SHOWN = 0.4
MAX_INPUT = (240, 416)  # (height, width): the largest net input `net_input` makes of FRAME
CROP = (128, 192)  # training crops, input pixels (height, width)
BATCH = 12
DATA_DIR = Path("/tmp/index_data")  # rendered once, reused by later runs
SCENE_SEEDS = 300_000  # tables of cards (scattered, in seats, some animal and empty ones)
PILE_SEEDS = 600_000  # heaps of big playing cards
INDEX_WEIGHT = 20.0  # an index pixel weighs this many table pixels in the loss


def scene_sample(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Render scene `seed` (< 1,000,000): net input padded to MAX_INPUT (H, W, 3) uint8,
    the index target and its weight (2, H/2, W/2) uint8 (weight 0 = not taught), the side
    vectors (4, H/2, W/2) float16."""
    rng = training_rng(seed)
    if seed >= PILE_SEEDS:
        spec = pile_scene(rng, "playing-cards", int(rng.integers(2, 7)), face_up_rate=0.85)
    else:
        kind = rng.random()
        deck = "playing-cards" if kind < 0.8 else "animals"
        n_cards = 0 if kind > 0.92 else int(rng.integers(1, 16))
        spec = random_scene(
            rng,
            n_cards,
            deck,
            size=FRAME,
            face_up_rate=0.8,
            distractors=int(rng.integers(0, 5)),
            hand_rate=0.25,
        )
    image, truths = render_scene(spec)
    # Which card shows at each frame pixel (1-based, later cards on top; 0 = none/a thing).
    shown = np.zeros((FRAME[1], FRAME[0]), np.int16)
    for number, truth in enumerate(truths, start=1):
        cv2.fillPoly(shown, [np.round(truth.corners * 16).astype(np.int32)], number, 8, 4)
    occluded = cv2.resize(_occluders(spec), FRAME, interpolation=cv2.INTER_NEAREST) > 127
    shown[occluded] = 0
    fraction = float(rng.uniform(0.4, 1.0)) if rng.random() < 0.6 else 1.0
    cw, ch = round(FRAME[0] * fraction), round(FRAME[1] * fraction)
    x0, y0 = int(rng.integers(0, FRAME[0] - cw + 1)), int(rng.integers(0, FRAME[1] - ch + 1))
    inside = np.zeros_like(shown, dtype=bool)
    inside[y0 : y0 + ch, x0 : x0 + cw] = True
    net_in, sx, sy = net_input(image[y0 : y0 + ch, x0 : x0 + cw])
    height, width = net_in.shape[:2]
    out_h, out_w = MAX_INPUT[0] // 2, MAX_INPUT[1] // 2
    target = np.zeros((2, out_h, out_w), np.uint8)
    target[1, : height // 2, : width // 2] = 255
    vectors = np.zeros((4, out_h, out_w), np.float16)
    # frame pixel -> output pixel: frame centre x lands on net (x - x0 + 0.5) sx - 0.5, and
    # output pixel u's centre is net 2u + 0.5.
    scale = np.array([sx, sy]) / 2
    offset = ((0.5 - np.array([x0, y0])) * np.array([sx, sy]) - 1.0) / 2
    for number, truth in enumerate(truths, start=1):
        card = truth.spec
        if card.deck != "playing-cards" or truth.face != "up":
            continue
        c = truth.corners.astype(np.float64)
        for origin, right, down in (
            (c[0], c[1] - c[0], c[3] - c[0]),
            (c[2], c[3] - c[2], c[1] - c[2]),
        ):
            corners = np.stack(
                [
                    origin,
                    origin + PATCH_WIDTH * right,
                    origin + PATCH_WIDTH * right + PATCH_HEIGHT * down,
                    origin + PATCH_HEIGHT * down,
                ]
            )
            seen = _shown_fraction(shown == number, inside, corners)
            middle = corners.mean(axis=0) * scale + offset
            if 0 < card.turn < 1 or seen < SHOWN:
                if seen >= HALF_SHOWN:  # partly shown or turning: not taught either way
                    _disc(target[1], middle, right * scale, down * scale, 0)
                continue
            disc = _disc(target[0], middle, right * scale, down * scale, 255)
            vectors[:, disc] = np.concatenate([right * scale, down * scale])[:, None] / VECTOR_UNIT
    padded = np.zeros((*MAX_INPUT, 3), np.uint8)
    padded[:height, :width] = net_in
    return padded, target, vectors


def _shown_fraction(card: np.ndarray, inside: np.ndarray, corners: np.ndarray) -> float:
    """The fraction of the quad `corners` (frame pixels) where `card` shows inside the crop."""
    x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int), 0)
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 1
    patch = np.zeros((max(0, y1 - y0), max(0, x1 - x0)), np.uint8)
    cv2.fillPoly(patch, [np.round((corners - [x0, y0]) * 16).astype(np.int32)], 1, 8, 4)
    area = int(patch.sum())
    if area == 0:
        return 0.0
    region = (slice(y0, y1), slice(x0, x1))
    patch = patch[: card[region].shape[0], : card[region].shape[1]].astype(bool)
    return float((card[region] & inside[region] & patch).sum()) / area


def _disc(
    layer: np.ndarray, middle: np.ndarray, right: np.ndarray, down: np.ndarray, value: int
) -> np.ndarray:
    """Set a disc around an index's middle (output pixels) to `value`; its pixels as a mask.
    Its radius: a third of the index patch's short side, at least one pixel."""
    radius = max(
        1.0,
        0.35 * min(PATCH_WIDTH * np.linalg.norm(right), PATCH_HEIGHT * np.linalg.norm(down)),
    )
    v, u = np.mgrid[: layer.shape[0], : layer.shape[1]]
    disc = (u - middle[0]) ** 2 + (v - middle[1]) ** 2 <= radius**2
    if not disc.any():  # a middle between pixels: the nearest one
        nu, nv = np.clip(np.round(middle).astype(int), 0, [layer.shape[1] - 1, layer.shape[0] - 1])
        disc[nv, nu] = True
    layer[disc] = value
    return disc


def _render_chunk(seeds: range) -> tuple[np.ndarray, ...]:
    samples = [scene_sample(seed) for seed in seeds]
    return tuple(np.stack(part) for part in zip(*samples, strict=True))


def render_set(first: int, count: int, data: Path = DATA_DIR, workers: int = 2) -> Iterator[Path]:
    """Scenes `first`..`first + count - 1`, rendered into `data` in chunks of 250 the first
    time (on `workers` processes); the chunk files."""
    data.mkdir(parents=True, exist_ok=True)
    starts = list(range(first, first + count, 250))
    paths = [data / f"chunk_{start:07d}.npz" for start in starts]
    todo = [(s, p) for s, p in zip(starts, paths, strict=True) if not p.exists()]
    with ProcessPoolExecutor(workers) as pool:
        chunks = pool.map(_render_chunk, [range(s, min(s + 250, first + count)) for s, _ in todo])
        for (_, path), (x, target, vectors) in zip(todo, chunks, strict=True):
            np.savez(path, x=x, target=target, vectors=vectors)
    yield from paths


def train(
    out: Path,
    *,
    data: Path = DATA_DIR,
    scenes: int = 4000,
    piles: int = 1500,
    minutes: float = 25.0,
    seed: int = 0,
    peak_lr: float = 3e-3,
    threads: int = 1,
    resume: bool = False,
) -> None:
    """Render (once, cached in `data`) `scenes` tables and `piles` heaps, train for
    `minutes` on `threads` threads, export to `out`. `resume` goes on from the weights the
    last run left in `data` (a longer training, in steps that fit a shared machine)."""
    import torch

    from .finder import export

    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    parts = [
        np.load(p)
        for p in [*render_set(SCENE_SEEDS, scenes, data), *render_set(PILE_SEEDS, piles, data)]
    ]
    x_all = np.concatenate([p["x"] for p in parts])
    t_all = np.concatenate([p["target"] for p in parts])
    v_all = np.concatenate([p["vectors"] for p in parts])
    model = build_net(outputs=5)
    if resume:
        model.load_state_dict(torch.load(data / "index_state.pt"))
    print(f"{len(x_all)} scenes, {int(t_all[:, 0].astype(bool).sum())} index pixels")
    optimiser = torch.optim.AdamW(model.parameters(), lr=peak_lr, weight_decay=1e-4)
    rng = np.random.default_rng(seed)
    model.train()
    for step in timed_steps(optimiser, peak_lr, minutes):
        x, target, weight, vectors = (torch.from_numpy(a) for a in _batch(x_all, t_all, v_all, rng))
        maps = model(x)
        index_loss = torch.nn.functional.binary_cross_entropy_with_logits(
            maps[:, 0], target, weight=weight * (1 + (INDEX_WEIGHT - 1) * target)
        ) * (1 / INDEX_WEIGHT)
        on_index = target[:, None] > 0.5
        vector_loss = torch.nn.functional.smooth_l1_loss(
            maps[:, 1:] * on_index, vectors * on_index, reduction="sum", beta=0.1
        ) / on_index.sum().clamp(min=1)
        loss = index_loss + 0.5 * vector_loss
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        if step % 100 == 0:
            print(
                f"step {step} index {index_loss.item():.4f} vectors {vector_loss.item():.4f}",
                flush=True,
            )
    torch.save(model.state_dict(), data / "index_state.pt")
    export(model, out)


def _batch(x_all, t_all, v_all, rng: np.random.Generator):
    """A random batch of CROP windows (inside each frame's valid part), flipped and turned
    with their vectors, light scaled: input (N, 3, H, W) float32, index and weight (N, H/2,
    W/2) float32, vectors (N, 4, H/2, W/2) float32."""
    index = rng.integers(0, len(x_all), BATCH)
    ch, cw = CROP
    xs, ts, ws, vs = [], [], [], []
    for i in index:
        valid = t_all[i, 1] > 0
        h2, w2 = int(valid.any(axis=1).sum()), int(valid.any(axis=0).sum())
        top = int(rng.integers(0, max(0, h2 - ch // 2) + 1))
        left = int(rng.integers(0, max(0, w2 - cw // 2) + 1))
        xs.append(x_all[i, 2 * top : 2 * top + ch, 2 * left : 2 * left + cw])
        ts.append(t_all[i, 0, top : top + ch // 2, left : left + cw // 2])
        ws.append(t_all[i, 1, top : top + ch // 2, left : left + cw // 2])
        vs.append(v_all[i, :, top : top + ch // 2, left : left + cw // 2])
    x = np.stack(xs).transpose(0, 3, 1, 2).astype(np.float32)
    t = np.stack(ts).astype(np.float32) / 255.0
    w = np.stack(ws).astype(np.float32) / 255.0
    v = np.stack(vs).astype(np.float32)
    # vectors are (right x, right y, down x, down y): a mirror flips x components and the
    # sense of "right" (a mirrored card reads its index the other way round, which the
    # runtime never sees); so mirrors are paired with a turn that keeps cards readable:
    # a half turn (both axes flipped) negates every component.
    turn = rng.integers(0, 4)
    if turn & 1:  # half turn
        x, t, w, v = x[..., ::-1, ::-1], t[..., ::-1, ::-1], w[..., ::-1, ::-1], -v[..., ::-1, ::-1]
    gain = rng.uniform(0.6, 1.3, (BATCH, 3, 1, 1)).astype(np.float32)
    x = np.clip(x * gain, 0, 255)
    return tuple(np.ascontiguousarray(a) for a in (x, t, w, v))
