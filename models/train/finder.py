"""Training of the card finder (`models/card_finder.onnx`, model card
in models/README.md): rendered tables with per-pixel card and core masks, a small U-Net,
its ONNX export. torch is imported only inside the functions that need it.

Each sample is a frame as `companion.vision.segment` feeds the net (long side
`segment.TRAINED_LONG_SIDE`, padded to a multiple of `segment.STRIDE`) and two soft targets at
the net's output resolution (half the input): "card" (every visible card pixel) and
"core" (each card's visible part eroded by `CORE_MARGIN` of its short side, so that
touching or overlapping cards fall apart into separate blobs). A share of the scenes is
cropped so that cards are cut by the picture's border, as on real photos; empty tables
with coins, phones, notes, markers and hands teach what is not a card.
"""

from __future__ import annotations

import math
import multiprocessing
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from companion.vision.bench.backs import FAINT_PRINT, design_print
from companion.vision.segment import CORE_MARGIN, STRIDE, TRAINED_LONG_SIDE, net_input
from companion.vision.synth import random_scene, render_scene
from companion.vision.synth.art import DESIGN_PREFIX, random_design_style
from companion.vision.synth.camera import lens_maps, tilt_homography
from companion.vision.synth.props import draw_hand
from companion.vision.synth.render import _paste_thing

from .speed_graph import rewrite

FRAME = (1280, 720)
MASK_SCALE = 0.5  # occluders are drawn at half the frame's resolution
CROP_RATE = 0.35  # scenes cropped so that some cards are cut by the border
EMPTY_RATE = 0.15  # scenes without a card
BATCH = 12
CROP = (128, 192)  # training crops, input pixels (height, width)
DATA_DIR = Path("/tmp/finder_data")  # rendered once, reused by later runs
RUN_DATA_DIR = Path("/tmp/finder_data_run")  # scenes at the runtime's scale (`tune`)
FIRST_SAMPLES = 4500  # scenes of the first stages (`train`)
RUN_SAMPLES = 6000  # scenes at the runtime's scale
PILE_SEEDS = 500_000  # scene seeds from here on are heaps of big cards (`layout="pile"`)
CROWD_SEEDS = 600_000  # and from here on crowded tables of 10..15 small cards (`tune`)
CROWD_SAMPLES = 4000  # crowded tables in the fifth stage
DESIGN_SEEDS = 700_000  # and from here on tables whose backs are procedural designs
DESIGN_SAMPLES = 3000  # such tables in the playing deck's sixth stage (`finder-backs`)
FAINT_SEEDS = 800_000  # and from here on tables whose backs are faint designs
ROW_SEEDS = 900_000  # and from here on rows of cards touching or overlapping (`row_scene`)
ROW_SAMPLES = 4000  # such tables in `finder-rows` (measured, not shipped)
# Small cards weigh more in the loss (`small_card_weights`): a card whose core covers
# fewer output pixels than this (a card about 100 pixels long in a 1280x720 frame) weighs
# sqrt(SMALL_CORE / its core's area), at most SMALL_CARD_MAX_WEIGHT.
SMALL_CORE = 60.0
SMALL_CARD_MAX_WEIGHT = 3.0


def scene_sample(
    seed: int, long_side: int | None = TRAINED_LONG_SIDE
) -> tuple[np.ndarray, np.ndarray]:
    """Render training scene `seed` (< 1,000,000): net input (H, W, 3) uint8 and targets
    (2, H/2, W/2) uint8 (card, core; 0..255 = the covered fraction of each output pixel).
    The frame (or its crop) is scaled to `long_side`, or with None as the runtime scales
    it (`segment.net_size`: a whole 1280x720 frame to 416)."""
    rng = training_rng(seed)
    if seed >= ROW_SEEDS:
        spec = row_scene(rng)
    elif seed >= FAINT_SEEDS:
        spec = faint_scene(rng)
    elif seed >= DESIGN_SEEDS:
        spec = designed_scene(rng)
    elif seed >= CROWD_SEEDS:
        spec = crowded_scene(rng)
    elif seed >= PILE_SEEDS:
        spec = pile_scene(rng, "mixed", int(rng.integers(2, 6)))
    else:
        empty = rng.random() < EMPTY_RATE
        n_cards = 0 if empty else int(rng.integers(1, 16))
        spec = random_scene(
            rng,
            n_cards,
            "mixed",
            size=FRAME,
            distractors=int(rng.integers(1, 6)) if empty else int(rng.integers(0, 4)),
            hand_rate=0.4 if empty else 0.2,
        )
    image, truths = render_scene(spec)
    occluder = _occluders(spec)
    # Crop window in frame pixels, the same aspect as the frame; then scaled for the net
    # exactly as `segment.net_input` scales a frame (`segment.shrink`).
    fraction = float(rng.uniform(0.5, 0.9)) if rng.random() < CROP_RATE else 1.0
    cw, ch = round(FRAME[0] * fraction), round(FRAME[1] * fraction)
    x0, y0 = int(rng.integers(0, FRAME[0] - cw + 1)), int(rng.integers(0, FRAME[1] - ch + 1))
    net_in, sx, sy = net_input(image[y0 : y0 + ch, x0 : x0 + cw], long_side)
    pad_h, pad_w = net_in.shape[:2]
    # Frame pixel centres to net pixel centres (cv2.resize's convention), for the targets.
    to_net = np.array([[sx, 0, (0.5 - x0) * sx - 0.5], [0, sy, (0.5 - y0) * sy - 0.5]])
    quads = [t.corners.astype(np.float64) @ to_net[:, :2].T + to_net[:, 2] for t in truths]
    grow, offset = 1 / MASK_SCALE, 0.5 / MASK_SCALE - 0.5  # occluder mask -> frame pixels
    mask_to_frame = np.array([[grow, 0, offset], [0, grow, offset], [0, 0, 1]])
    occ = cv2.warpAffine(
        occluder,
        to_net @ mask_to_frame,
        (pad_w, pad_h),
        flags=cv2.INTER_LINEAR,
    )
    card, core = _masks(quads, occ > 127, (pad_h, pad_w))
    out = (pad_w // 2, pad_h // 2)
    targets = np.stack([cv2.resize(m, out, interpolation=cv2.INTER_AREA) for m in (card, core)])
    return net_in, targets


def training_rng(seed: int) -> np.random.Generator:
    """The random stream of training scene `seed`; seeds from 1,000,000 on are refused."""
    if seed >= 1_000_000:
        raise ValueError("seeds from 1,000,000 on are held out for the benchmark")
    return np.random.default_rng(seed)


def pile_scene(rng: np.random.Generator, deck: str, cards: int, face_up_rate: float = 0.6):
    """A close-up of heaped cards (the real photos' usual sight): `cards` big cards, most
    of them partly covered by the next, a few things and now and then a hand."""
    return random_scene(
        rng,
        cards,
        deck,  # type: ignore[arg-type]
        size=FRAME,
        layout="pile",
        length_range=(150.0, 600.0),
        face_up_rate=face_up_rate,
        distractors=int(rng.integers(0, 3)),
        hand_rate=0.15,
    )


def crowded_scene(rng: np.random.Generator):
    """A table as full as the benchmark's: 10..15 cards, from 50 pixels long to as long as
    they fit (which, with that many, is under about 175), neighbours touching. The first
    stages drew 1..15 cards per scene, so most of their cards were big and far apart,
    while the cards the finder misses are small ones and touching ones."""
    return random_scene(
        rng,
        int(rng.integers(10, 16)),
        "mixed",
        size=FRAME,
        length_range=(50.0, 400.0),
        distractors=int(rng.integers(0, 4)),
        hand_rate=0.2,
    )


def designed_scene(rng: np.random.Generator):
    """A table whose deck has a procedural back design (`art.designed_back`), most cards
    face down: the first five stages saw three playing backs and the animal editions'
    patterned ones, and missed most face-down cards of plain or faint backs. Half are
    as crowded as `crowded_scene`, half as the first stages' tables; one to four things
    lie about and often a hand, more than on other tables: a finder that learned plain
    backs outlined phones and sticky notes too."""
    crowded = rng.random() < 0.5
    return random_scene(
        rng,
        int(rng.integers(10, 16)) if crowded else int(rng.integers(1, 16)),
        "mixed",
        size=FRAME,
        face_up_rate=0.3,
        length_range=(50.0, 400.0) if crowded else (60.0, 400.0),
        distractors=int(rng.integers(1, 5)),
        hand_rate=0.4,
        designed_backs=1.0,
    )


def row_scene(rng: np.random.Generator):
    """A table laid as players lay their cards: rows of up to 3 before 2 to 5 seats, each
    card touching or overlapping its neighbour by up to 30% of its width (`layout="rows"`),
    6 to 15 cards of either deck, a third of the playing decks with a procedural back. No
    shipped stage saw such rows: the finder outlines two or three overlapping cards as
    one, or none of them (models/README.md, card finder, "Fifty-fourth stop")."""
    return random_scene(
        rng,
        int(rng.integers(6, 16)),
        "mixed",
        size=FRAME,
        layout="rows",
        length_range=(50.0, 400.0),
        distractors=int(rng.integers(0, 4)),
        hand_rate=0.2,
        designed_backs=0.3,
    )


def faint_scene(rng: np.random.Generator):
    """A `designed_scene` whose back is a faint design (`FAINT_PRINT`): a few dots or a
    grey marbling, often full bleed; with the sixth stage, more than half of such backs
    went unread face down (models/README.md, card finder, "A faint back")."""
    spec = designed_scene(rng)
    back = faint_design_style(rng)
    return replace(spec, cards=tuple(replace(card, back=back) for card in spec.cards))


def faint_design_style(rng: np.random.Generator) -> str:
    """The back style of a procedural design drawn from `rng` that prints under
    FAINT_PRINT (the benchmark's faint designs: about one in four)."""
    while True:
        style = random_design_style(rng)
        if design_print(int(style[len(DESIGN_PREFIX) :])) < FAINT_PRINT:
            return style


def _occluders(spec) -> np.ndarray:  # SceneSpec -> (h, w) uint8 at MASK_SCALE
    """Where distractors and the hand hide the table, as the camera sees it."""
    w, h = round(FRAME[0] * MASK_SCALE), round(FRAME[1] * MASK_SCALE)
    mask = np.zeros((h, w), np.uint8)
    hom = tilt_homography(spec.size, spec.tilt, spec.tilt_direction)
    hom_inv = np.linalg.inv(hom)
    full = np.zeros((FRAME[1], FRAME[0], 3), np.uint8)
    for thing in spec.distractors:
        pasted = _paste_thing(full, thing, hom, hom_inv)
        if pasted is None:
            continue
        (x0, y0, x1, y1), alpha = pasted
        layer = np.zeros((FRAME[1], FRAME[0]), np.uint8)
        layer[y0:y1, x0:x1] = (alpha > 0.5).astype(np.uint8) * 255
        mask |= cv2.resize(layer, (w, h), interpolation=cv2.INTER_NEAREST)
    if spec.hand is not None:
        draw_hand(mask, spec.hand, 255, MASK_SCALE)
    if spec.lens:
        map_xy, map_frac = lens_maps((w, h), round(spec.lens, 3))
        mask = cv2.remap(mask, map_xy, map_frac, cv2.INTER_NEAREST)
    return mask


def _masks(
    quads: list[np.ndarray], occluded: np.ndarray, shape: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray]:
    """Card and core masks (0/255): later cards lie on top of earlier ones."""
    card = np.zeros(shape, np.uint8)
    core = np.zeros(shape, np.uint8)
    shift = 4  # fillPoly's sub-pixel bits
    for quad in quads:  # bottom to top
        # A card hides the cores below it, and keeps them a margin away from its edge, so
        # the cores of overlapping cards lie two margins apart as those of touching ones.
        for polygon, value, mask in (
            (_eroded(quad, -1.0), 0, core),
            (quad, 255, card),
            (_eroded(quad, 1.0), 255, core),
        ):
            cv2.fillPoly(mask, [np.round(polygon * 16).astype(np.int32)], value, cv2.LINE_8, shift)
    card[occluded] = 0
    core[occluded] = 0
    return card, core


def _eroded(quad: np.ndarray, sign: float) -> np.ndarray:
    """The quad moved in (sign 1) or out (sign -1) by CORE_MARGIN x its short side on
    every side (bilinearly, so perspective is kept)."""
    sides = np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)
    width, height = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    margin = sign * CORE_MARGIN * min(width, height)
    u = min(0.45, margin / max(width, 1e-6))
    v = min(0.45, margin / max(height, 1e-6))
    a, b, c, d = quad  # corners in order; side 0 runs a -> b

    def at(s: float, t: float) -> np.ndarray:
        return (1 - s) * (1 - t) * a + s * (1 - t) * b + s * t * c + (1 - s) * t * d

    return np.stack([at(u, v), at(1 - u, v), at(1 - u, 1 - v), at(u, 1 - v)])


def render_set(
    first_seed: int, count: int, long_side: int | None = TRAINED_LONG_SIDE
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """`count` samples from consecutive seeds (all must stay below 1,000,000)."""
    for seed in range(first_seed, first_seed + count):
        yield scene_sample(seed, long_side)


# --- the net and its training (torch only here) --------------------------------------------


def conv_block(cin: int, cout: int, stride: int = 1, dilation: int = 1):  # -> nn.Sequential
    """The finders' layer: a 3x3 convolution (padded to keep the size, at `stride`),
    batch norm, ReLU."""
    from torch import nn

    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, dilation, dilation, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


def build_net(outputs: int = 2):  # -> torch.nn.Module
    """A small U-Net: input (N, 3, H, W) BGR 0..255, output (N, outputs, H/2, W/2) maps
    (the finder's: card and core logits). It normalises each picture itself (per-channel
    mean, overall spread), so the table's light level and colour cast do not matter. About
    110k weights."""
    import torch
    from torch import nn

    conv = conv_block

    class FinderNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.d1 = nn.Sequential(conv(3, 8, 2), conv(8, 8))  # 1/2
            self.d2 = nn.Sequential(conv(8, 24, 2), conv(24, 24))  # 1/4
            self.d3 = nn.Sequential(conv(24, 40, 2), conv(40, 40))  # 1/8
            self.d4 = nn.Sequential(conv(40, 48, 2), conv(48, 48, 1, 2), conv(48, 48, 1, 2))
            self.l3, self.u3 = nn.Conv2d(48, 40, 1), conv(40, 40)
            self.l2, self.u2 = nn.Conv2d(40, 24, 1), conv(24, 24)
            self.l1, self.u1 = nn.Conv2d(24, 8, 1), conv(8, 8)
            self.head = nn.Conv2d(8, outputs, 1)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            mean = x.mean(dim=(2, 3), keepdim=True)
            spread = x.std(dim=(1, 2, 3), keepdim=True) + 8.0
            x = (x - mean) / spread
            s1 = self.d1(x)
            s2 = self.d2(s1)
            s3 = self.d3(s2)
            y = self.d4(s3)
            y = self.u3(s3 + self.l3(nn.functional.interpolate(y, scale_factor=2.0)))
            y = self.u2(s2 + self.l2(nn.functional.interpolate(y, scale_factor=2.0)))
            y = self.u1(s1 + self.l1(nn.functional.interpolate(y, scale_factor=2.0)))
            return self.head(y)

    return FinderNet()


def train(
    out: Path,
    *,
    data: Path = DATA_DIR,
    samples: int = FIRST_SAMPLES,
    piles: int = 0,
    minutes: float = 10.0,
    seed: int = 0,
    resume: bool = False,
    peak_lr: float = 3e-3,
) -> None:
    """Render (once, cached in `data`) and train on `samples` scenes and `piles` heaps of
    cards for `minutes`; export to `out`. Seeds 0..samples-1 and PILE_SEEDS on, all below
    the benchmark's held-out range. `resume` goes on from the weights the last run left
    in `data` (a longer training, in steps that fit a shared machine)."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    sets = [_load_or_render(data, 0, samples)]
    if piles:  # none by default: the shipped model saw no heaps
        sets.append(_load_or_render(data, PILE_SEEDS, piles))
    scenes = _joined(sets)
    model = build_net()
    if resume:
        model.load_state_dict(torch.load(data / "finder_state.pt"))
    _fit(model, scenes, minutes=minutes, seed=seed, peak_lr=peak_lr)
    torch.save(model.state_dict(), data / "finder_state.pt")  # to fine-tune from later
    export(model, out)


def tune(
    out: Path,
    *,
    init: Path,
    minutes: float = 20.0,
    seed: int = 5,
    peak_lr: float = 5e-4,
    threads: int = 2,
    processes: int = 2,
    crowded: int = 0,
    designed: int = 0,
    faint: int = 0,
    rows: int = 0,
    small_cards: bool = False,
) -> None:
    """Fine-tune the exported finder `init` for `minutes` on scenes scaled as the runtime
    scales them (`segment.net_size`: a whole 1280x720 frame to 416; the first stages saw
    it at 320), seeds 0..RUN_SAMPLES-1, rendered on `processes` and cached in
    RUN_DATA_DIR, mixed with the first stages' scenes (DATA_DIR) so that what those taught
    at 320, as the phone photos are seen, is kept; with `crowded` tables of small cards
    from CROWD_SEEDS on too (the fifth stage), `designed` tables of procedural backs
    from DESIGN_SEEDS (the sixth stage), `faint` tables of faint ones from FAINT_SEEDS and
    `rows` tables of cards laid in touching rows from ROW_SEEDS (`finder-rows`); export to
    `out`."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    scenes = stage_scenes(FIRST_SAMPLES, crowded, designed, processes, faint, rows)
    model = load_onnx(init, scenes.inputs[:64])
    _fit(model, scenes, minutes=minutes, seed=seed, peak_lr=peak_lr, small_cards=small_cards)
    export(model, out)


def stage_scenes(
    first: int, crowded: int, designed: int, processes: int, faint: int = 0, rows: int = 0
) -> Scenes:
    """The later stages' cached scenes, as one set: RUN_SAMPLES at the runtime's scale, the
    first `first` of the first stages' (long side 320), `crowded` tables of small cards from
    CROWD_SEEDS, `designed` tables of procedural backs from DESIGN_SEEDS, `faint` ones
    of faint backs from FAINT_SEEDS and `rows` tables of touching rows from ROW_SEEDS,
    rendered on `processes` where missing."""
    sets = [
        _load_or_render(RUN_DATA_DIR, 0, RUN_SAMPLES, None, processes),
        _load_or_render(DATA_DIR, 0, first, TRAINED_LONG_SIDE, processes),
    ]
    if crowded:
        sets.append(_load_or_render(RUN_DATA_DIR, CROWD_SEEDS, crowded, None, processes))
    if designed:
        sets.append(_load_or_render(RUN_DATA_DIR, DESIGN_SEEDS, designed, None, processes))
    if faint:
        sets.append(_load_or_render(RUN_DATA_DIR, FAINT_SEEDS, faint, None, processes))
    if rows:
        sets.append(_load_or_render(RUN_DATA_DIR, ROW_SEEDS, rows, None, processes))
    return _joined(sets)


class Scenes(NamedTuple):
    """Rendered training scenes: net inputs (N, H, W, 3) uint8 and targets (N, 2, H/2, W/2)
    uint8, each padded to the largest; `sizes` (N, 2) the height and width each really
    has."""

    inputs: np.ndarray
    targets: np.ndarray
    sizes: np.ndarray


def _fit(
    model, scenes: Scenes, *, minutes: float, seed: int, peak_lr: float, small_cards: bool = False
) -> None:
    """Train `model` (torch.nn.Module) on random crops of `scenes` for `minutes`, with
    `small_cards` the pixels of small cards weighed more (`small_card_weights`)."""
    import torch

    weights = sum(p.numel() for p in model.parameters())
    print(f"{len(scenes.inputs)} scenes, {weights} weights", flush=True)
    optimiser = torch.optim.AdamW(model.parameters(), lr=peak_lr, weight_decay=1e-4)
    rng = np.random.default_rng(seed)
    model.train()
    for step in timed_steps(optimiser, peak_lr, minutes):
        x, y = _batch(scenes, rng, BATCH)
        logits = model(torch.from_numpy(x))
        target = torch.from_numpy(y)
        pixel_losses = torch.nn.functional.binary_cross_entropy_with_logits(
            logits, target, reduction="none"
        )
        if small_cards:
            pixel_losses = pixel_losses * torch.from_numpy(small_card_weights(y))[:, None]
        # Separating touching cards hinges on the core: it weighs three times as much.
        losses = pixel_losses.mean(dim=(0, 2, 3))
        loss = losses[0] + 3.0 * losses[1]
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        if step % 50 == 0:
            print(f"step {step} loss {loss.item():.4f}", flush=True)


def small_card_weights(targets: np.ndarray) -> np.ndarray:
    """Per-pixel loss weights (N, H, W) float32 for a batch of targets (N, 2, H, W) 0..1:
    1, and more on and around each small card's core. Every pixel counts the same in the
    loss, so a card 50 pixels long, with a tenth of the pixels of one 160 long, taught the
    net a tenth as much, and the small cards are the ones it misses."""
    weights = np.ones((len(targets), *targets.shape[2:]), np.float32)
    grow = cv2.getStructuringElement(cv2.MORPH_RECT, (5, 5))  # the core's rim of card
    for weight, core in zip(weights, targets[:, 1] > 0.5, strict=True):
        _, labels, stats, _ = cv2.connectedComponentsWithStats(core.astype(np.uint8), 4)
        areas = stats[:, cv2.CC_STAT_AREA].astype(np.float32)
        per_label = np.clip(
            np.sqrt(SMALL_CORE / np.maximum(areas, 1.0)), 1.0, SMALL_CARD_MAX_WEIGHT
        )
        per_label[0] = 1.0  # the background
        weight[:] = cv2.dilate(per_label[labels], grow)
    return weights


def load_onnx(path: Path, sample: np.ndarray):  # -> torch.nn.Module
    """A finder net holding the weights of an exported model, ready to fine-tune.

    The export folds each batch norm into its convolution (weight and `weight_bias`). Each
    batch norm is rebuilt to give the same output: its running mean and spread, and so its
    scale and shift, are those of the folded convolution's output on `sample` (net inputs,
    (N, H, W, 3) uint8), so the net starts in training mode close to where the exported
    model stands, and in eval mode exactly there.
    """
    import onnx
    import torch
    from onnx import numpy_helper

    weights = {
        i.name: torch.from_numpy(numpy_helper.to_array(i).copy())
        for i in onnx.load(str(path)).graph.initializer
    }
    model = build_net()
    folded = {}  # batch norm -> its convolution's folded bias
    with torch.no_grad():
        for name, module in model.named_modules():
            if isinstance(module, torch.nn.Conv2d):
                module.weight.copy_(weights[f"{name}.weight"])
                if module.bias is not None:
                    module.bias.copy_(weights[f"{name}.bias"])
            elif isinstance(module, torch.nn.BatchNorm2d):
                bias = weights[f"{name.rsplit('.', 1)[0]}.0.weight_bias"]
                module.weight.fill_(1.0)
                module.bias.copy_(bias)
                module.running_mean.zero_()
                module.running_var.fill_(1.0 - module.eps)
                folded[module] = bias
    # With each batch norm a plain shift, the net computes the exported model: read the
    # spread of every convolution's output in one pass, then make it the batch norm's.
    seen: dict = {}
    hooks = [
        bn.register_forward_pre_hook(lambda m, args: seen.__setitem__(m, args[0])) for bn in folded
    ]
    model.eval()
    with torch.no_grad():
        model(torch.from_numpy(sample.transpose(0, 3, 1, 2).astype(np.float32)))
        for hook in hooks:
            hook.remove()
        for bn, bias in folded.items():
            y = seen[bn]
            mean, std = y.mean(dim=(0, 2, 3)), y.std(dim=(0, 2, 3)) + 1e-4
            bn.weight.copy_(std)
            bn.bias.copy_(mean + bias)
            bn.running_mean.copy_(mean)
            bn.running_var.copy_(std**2 - bn.eps)
    return model


def timed_steps(optimiser, peak_lr: float, minutes: float) -> Iterator[int]:
    """Training steps 1, 2, ... for `minutes` of wall time (a budget that fits a shared
    machine), the learning rate of `optimiser` decaying from `peak_lr` by a cosine over
    that time."""
    start = time.monotonic()
    deadline = start + 60 * minutes
    step = 0
    while time.monotonic() < deadline:
        progress = (time.monotonic() - start) / (deadline - start)
        for group in optimiser.param_groups:
            group["lr"] = peak_lr * 0.5 * (1 + math.cos(math.pi * min(1.0, progress)))
        step += 1
        yield step


def _load_or_render(
    data: Path,
    first: int,
    count: int,
    long_side: int | None = TRAINED_LONG_SIDE,
    processes: int = 1,
) -> Scenes:
    """Scenes `first`..`first + count - 1`, rendered into `data` in chunks of 500 the first
    time."""
    data.mkdir(parents=True, exist_ok=True)
    starts = range(first, first + count, 500)
    jobs = [
        (data / f"chunk_{start:07d}.npz", start, min(500, first + count - start), long_side)
        for start in starts
    ]
    missing = [job for job in jobs if not job[0].exists()]
    if missing:
        with multiprocessing.get_context("spawn").Pool(processes) as pool:
            pool.starmap(_render_chunk, missing)
    parts = []
    for path, *_ in jobs:
        with np.load(path) as loaded:
            x, y = loaded["x"], loaded["y"]
            # Chunks of the first stages are all one size and have no "sizes".
            sizes = loaded["sizes"] if "sizes" in loaded else np.tile(x.shape[1:3], (len(x), 1))
            parts.append(Scenes(x, y, sizes))
    return Scenes(*(array[:count] for array in _joined(parts)))


def _render_chunk(path: Path, start: int, count: int, long_side: int | None) -> None:
    """Render scenes `start`.. into one chunk file, padded to the largest with sizes."""
    chunk = _joined(
        [
            Scenes(x[None], y[None], np.array([x.shape[:2]]))
            for x, y in render_set(start, count, long_side)
        ]
    )
    np.savez(path, x=chunk.inputs, y=chunk.targets, sizes=chunk.sizes)


def _joined(parts: list[Scenes]) -> Scenes:
    """`parts` as one `Scenes`, each scene padded with zeros to the largest."""
    shape = np.max([part.inputs.shape[1:3] for part in parts], axis=0)
    return Scenes(
        np.concatenate([_padded(part.inputs, shape, 1) for part in parts]),
        np.concatenate([_padded(part.targets, shape // 2, 2) for part in parts]),
        np.concatenate([part.sizes for part in parts]),
    )


def _padded(batch: np.ndarray, shape: np.ndarray, axis: int) -> np.ndarray:
    """`batch` with zeros after its axes `axis`, `axis + 1` up to `shape`."""
    pad = [(0, 0)] * batch.ndim
    for i in range(2):
        pad[axis + i] = (0, int(shape[i]) - batch.shape[axis + i])
    return np.pad(batch, pad)


def _batch(scenes: Scenes, rng: np.random.Generator, size: int) -> tuple[np.ndarray, np.ndarray]:
    """A random batch of crops, flipped and (half the time) transposed to portrait, its light
    scaled: (N, 3, H, W) float32 0..255 and (N, 2, H/2, W/2) float32 0..1."""
    index = rng.integers(0, len(scenes.inputs), size)
    # Crops (CROP of the input's height and width, on the output's pixel grid) train 2.5
    # times faster than whole frames, and cut cards at their borders too.
    ch, cw = CROP
    xs, ys = [], []
    for i in index:
        height, width = scenes.sizes[i]
        top = 2 * int(rng.integers(0, (height - ch) // 2 + 1))
        left = 2 * int(rng.integers(0, (width - cw) // 2 + 1))
        xs.append(scenes.inputs[i, top : top + ch, left : left + cw])
        ys.append(scenes.targets[i, :, top // 2 : (top + ch) // 2, left // 2 : (left + cw) // 2])
    x = np.stack(xs).transpose(0, 3, 1, 2).astype(np.float32)
    y = np.stack(ys).astype(np.float32) / 255.0
    if rng.random() < 0.5:
        x, y = x[..., ::-1], y[..., ::-1]
    if rng.random() < 0.5:
        x, y = x[..., ::-1, :], y[..., ::-1, :]
    if rng.random() < 0.5:
        x, y = x.swapaxes(2, 3), y.swapaxes(2, 3)
    gain = rng.uniform(0.6, 1.3, (size, 3, 1, 1)).astype(np.float32)
    x = np.clip(x * gain, 0, 255)
    return np.ascontiguousarray(x), np.ascontiguousarray(y)


def export(model, out: Path) -> None:  # model: torch.nn.Module
    """One self-contained ONNX file: one picture, of any size in multiples of 16."""
    import torch

    model.eval()
    example = torch.zeros(1, 3, 192, 320)
    height = torch.export.Dim("height", min=1, max=256) * STRIDE
    width = torch.export.Dim("width", min=1, max=256) * STRIDE
    torch.onnx.export(
        model,
        (example,),
        str(out),
        input_names=["image"],
        output_names=["maps"],
        dynamic_shapes={"x": {2: height, 3: width}},
        external_data=False,
        opset_version=18,
    )
    rewrite(out, pad=False)  # the graph onnxruntime runs fastest (speed_graph.py)
    print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB)")
