"""The fast finder's net (`models/train/fast_finder.py`, measured and not shipped): the
finder's input and output shapes, and its light statistics folded into the stem exactly.
Needs torch (the `train` extra)."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from models.train.fast_finder import build_fast_net  # noqa: E402


def test_the_fast_net_maps_a_frame_at_half_its_size() -> None:
    net = build_fast_net().eval()
    with torch.no_grad():
        maps = net(torch.rand(2, 3, 240, 416) * 255)
    assert maps.shape == (2, 2, 120, 208)


def test_the_stem_on_the_raw_frame_equals_it_on_the_normalised_frame() -> None:
    """The stem has no padding, so shifting its output by its weights times the mean, over
    the spread, is the stem of the normalised frame (what the docstring promises)."""
    torch.manual_seed(0)
    net = build_fast_net().eval()
    x = torch.from_numpy(np.random.default_rng(1).uniform(0, 255, (1, 3, 64, 96)).astype("f4"))
    pooled = torch.nn.functional.avg_pool2d(x, 4)
    mean, spread = pooled.mean(dim=(2, 3)), pooled.std(dim=(1, 2, 3)) + 8.0
    normalised = (x - mean[:, :, None, None]) / spread[:, None, None, None]
    captured = {}
    net.stem_norm.register_forward_pre_hook(lambda m, args: captured.setdefault("y", args[0]))
    with torch.no_grad():
        net(x)
        expected = net.stem(normalised)
    torch.testing.assert_close(captured["y"], expected, atol=1e-4, rtol=1e-4)
