"""A fast card finder, measured and not shipped (models/README.md, card finder, "A faster
net, distilled"): a smaller net taught by a shipped finder to draw the same card and core
maps on the scenes that finder learned from, at about half its time per webcam frame.
`python -m models.train finder-fast --out FILE` (the playing deck's teacher) or
`finder-fast-enrolled --out FILE` writes one; 50 minutes on one thread. It read 29 and 8
fewer tuning cards than its teachers, and left more playing frames in doubt.

Why a new net and not the old one trimmed: by onnxruntime's profile the old net spends
37% of its time at half the input's resolution, in 8-channel layers that its blocked
kernels run as 16 channels, and 7% normalising the full-size input. This one starts with
a 4x4 convolution of stride 4 (every input pixel seen once, in 16-channel blocks from
there on), takes its light statistics from the input averaged over 4x4 pixels, and gets
back to half resolution by rearranging 8 channels into 2x2 pixels (`pixel_shuffle`).
Its maps have the old net's shape and meaning, so `segment.py` reads them unchanged.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from companion.vision.segment import STRIDE

from .finder import (
    CROWD_SAMPLES,
    DESIGN_SAMPLES,
    Scenes,
    _fit,
    conv_block,
    export,
    stage_scenes,
)

# Scenes of the first stages (long side 320, DATA_DIR) the student also sees: frames of
# sensors wider than 1280 are seen smaller than 0.325 of their size.
FIRST_SCENES = 1500
# Channels at 1/4, 1/8 and 1/16 of the input: multiples of 16, the blocks onnxruntime's
# kernels run in.
WIDTHS = (32, 32, 48)


def build_fast_net(outputs: int = 2):  # -> torch.nn.Module
    """Input (N, 3, H, W) BGR 0..255 (H, W multiples of 16), output (N, outputs, H/2, W/2)
    logits, like `finder.build_net`. A 4x4, stride-4 stem, then a 3-level U-Net of
    `WIDTHS` channels at 1/4, 1/8 and 1/16 of the input, and 8 channels at 1/4 rearranged
    into 2 at 1/2. It normalises each picture itself (per-channel mean, overall
    spread, both of the input averaged over 4x4 pixels), folded into the stem: the stem has
    no padding, so its output on the normalised input is its output on the raw input less
    its weights times the mean, over the spread."""
    import torch
    from torch import nn

    conv = conv_block

    class FastFinderNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            c2, c3, c4 = WIDTHS
            self.stem = nn.Conv2d(3, c2, 4, 4, bias=False)
            self.stem_norm = nn.Sequential(nn.BatchNorm2d(c2), nn.ReLU(inplace=True))
            self.d2 = conv(c2, c2)  # 1/4
            self.d3 = nn.Sequential(conv(c2, c3, 2), conv(c3, c3))  # 1/8
            self.d4 = nn.Sequential(conv(c3, c4, 2), conv(c4, c4, 1, 2), conv(c4, c4, 1, 2))
            self.l3, self.u3 = nn.Conv2d(c4, c3, 1), conv(c3, c3)
            self.l2, self.u2 = nn.Conv2d(c3, c2, 1), conv(c2, c2)
            self.head = nn.Conv2d(c2, 4 * outputs, 1)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            pooled = nn.functional.avg_pool2d(x, 4)
            mean = pooled.mean(dim=(2, 3))
            spread = pooled.std(dim=(1, 2, 3)) + 8.0
            shift = mean @ self.stem.weight.sum(dim=(2, 3)).T
            y = (self.stem(x) - shift[:, :, None, None]) / spread[:, None, None, None]
            s2 = self.d2(self.stem_norm(y))
            s3 = self.d3(s2)
            y = self.d4(s3)
            y = self.u3(s3 + self.l3(nn.functional.interpolate(y, scale_factor=2.0)))
            y = self.u2(s2 + self.l2(nn.functional.interpolate(y, scale_factor=2.0)))
            return nn.functional.pixel_shuffle(self.head(y), 2)

    return FastFinderNet()


def teacher_maps(teacher: Path, scenes: Scenes) -> np.ndarray:
    """The `teacher` finder's card and core probabilities (N, 2, H/2, W/2) uint8 0..255 on
    each whole scene as the runtime feeds it (its own size, a multiple of STRIDE), zero
    past it: the student's targets."""
    from companion.vision.onnx_models import model_session

    session = model_session(teacher)
    maps = np.zeros_like(scenes.targets)
    for index, (height, width) in enumerate(scenes.sizes):
        assert height % STRIDE == 0 and width % STRIDE == 0, "scenes are stored padded"
        image = scenes.inputs[index, :height, :width].transpose(2, 0, 1)[None]
        logits = session.run(None, {"image": image.astype(np.float32)})[0][0]
        probability = 1.0 / (1.0 + np.exp(-logits))
        maps[index, :, : height // 2, : width // 2] = np.round(255 * probability)
    return maps


def distill(
    out: Path,
    *,
    teacher: Path,
    designed: bool,
    minutes: float = 50.0,
    seed: int = 11,
    peak_lr: float = 3e-3,
    processes: int = 1,
) -> None:
    """Train `build_fast_net` for `minutes` (one thread) to draw `teacher`'s maps on the
    scenes the finder's stages learned from (`finder.stage_scenes`, rendered on
    `processes` where missing): FIRST_SCENES of the first stages', CROWD_SAMPLES crowded
    tables, and with `designed` (the playing deck's teacher) DESIGN_SAMPLES tables of
    procedural backs. Export to `out`."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    designs = DESIGN_SAMPLES if designed else 0
    scenes = stage_scenes(FIRST_SCENES, CROWD_SAMPLES, designs, processes)
    scenes = scenes._replace(targets=teacher_maps(teacher, scenes))
    model = build_fast_net()
    _fit(model, scenes, minutes=minutes, seed=seed, peak_lr=peak_lr, small_cards=True)
    export(model, out)
