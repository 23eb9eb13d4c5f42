"""The readers' rank targets (`models/train/cards.py`): a face of no rank, as a joker was
taught in one measured stage, is a face spread over 6..King, and counts right when read as
any of them."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from models.train.card_samples import JOKER_AS_FACE, NONE_CLASS, RANK_NAMES  # noqa: E402
from models.train.cards import ReaderNet, evaluate, rank_targets  # noqa: E402


def test_a_face_of_no_rank_is_spread_over_six_to_king():
    targets = rank_targets(np.array([0, NONE_CLASS, JOKER_AS_FACE])).numpy()
    assert targets.shape == (3, len(RANK_NAMES))
    assert targets[0, 0] == 1.0 and targets[1, NONE_CLASS] == 1.0
    assert np.allclose(targets[2, 5:13], 1 / 8) and targets[2].sum() == pytest.approx(1.0)
    assert RANK_NAMES[5:13] == ("6", "7", "8", "9", "10", "J", "Q", "K")


def test_a_face_of_no_rank_reads_right_as_any_six_to_king(monkeypatch):
    model = ReaderNet()
    read_as = torch.tensor([[0.0] * 7 + [1.0] + [0.0] * 7, [1.0] + [0.0] * 14])  # an 8, an Ace

    def forward(x):
        return read_as, torch.tensor([[1.0, 0, 0, 0], [1.0, 0, 0, 0]])

    monkeypatch.setattr(model, "forward", forward)
    views = np.zeros((2, 50, 30, 3), np.uint8)
    ranks = np.array([JOKER_AS_FACE, JOKER_AS_FACE])
    rank_ok, _ = evaluate(model, (views, ranks, np.array([-1, 0])))
    assert rank_ok == 0.5  # the one read as an 8, not the one read as an Ace
