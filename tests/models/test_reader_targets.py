"""The readers' rank targets (`models/train/cards.py`): a face of no rank, as a joker was
taught in one measured stage, is a face spread over 6..King, and counts right when read as
any of them; a class of jokers of its own is folded into "none" or 6..King when exported."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from models.train.card_samples import (  # noqa: E402
    JOKER_AS_FACE,
    JOKER_CLASS,
    NONE_CLASS,
    RANK_NAMES,
)
from models.train.cards import (  # noqa: E402
    FoldedJokers,
    ReaderNet,
    evaluate,
    export,
    load_onnx,
    rank_targets,
)


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


def test_a_class_of_jokers_is_read_as_no_card_or_as_a_face_of_no_rank(monkeypatch):
    """The exported reader gives the runtime's 15 classes: a joker's probability goes to
    "none" (as shipped) or to 6..King evenly, every other class's stays where it was."""
    model = ReaderNet(n_ranks=JOKER_CLASS + 1)
    joker, ace = [0.0] * JOKER_CLASS + [1.0], [0.6] + [0.0] * 14 + [0.4]
    monkeypatch.setattr(model, "forward", lambda x: (torch.tensor([joker, ace]), None))
    views = torch.zeros(2, 3, 50, 30)
    rank, _ = FoldedJokers(model)(views)
    assert rank.shape == (2, len(RANK_NAMES))
    assert rank[0, NONE_CLASS] == 1.0 and rank[0].sum() == pytest.approx(1.0)
    assert rank[1, 0] == pytest.approx(0.6) and rank[1, NONE_CLASS] == pytest.approx(0.4)
    as_faces, _ = FoldedJokers(model, into=range(5, 13))(views)
    assert np.allclose(as_faces[0, 5:13], 1 / 8) and as_faces[0].sum() == pytest.approx(1.0)
    assert as_faces[1, 0] == pytest.approx(0.6) and np.allclose(as_faces[1, 5:13], 0.05)


def test_a_class_of_jokers_starts_as_a_face_of_no_rank(tmp_path):
    """Fine-tuning from a 15-class file, the new class starts as the mean of the 6..King
    classes, the others as they were."""
    torch.manual_seed(0)
    path = tmp_path / "reader.onnx"
    export(_trained_a_step(ReaderNet()), path)
    grown = load_onnx(path, n_ranks=JOKER_CLASS + 1)
    rows, bias = grown.rank.weight.detach(), grown.rank.bias.detach()
    assert torch.allclose(rows[JOKER_CLASS], rows[5:13].mean(0))
    assert bias[JOKER_CLASS] == pytest.approx(float(bias[5:13].mean()))
    same = load_onnx(path)
    assert torch.equal(rows[:JOKER_CLASS], same.rank.weight.detach())


def test_a_reader_exported_folded_loads_again_with_or_without_its_class_of_jokers(tmp_path):
    """The shipped whole-face reader is exported folded (its weights named "reader.*"): a
    later stage can start from it with its class of jokers, or without it."""
    torch.manual_seed(0)
    path = tmp_path / "folded.onnx"
    reader = _trained_a_step(ReaderNet(n_ranks=JOKER_CLASS + 1))
    export(FoldedJokers(reader), path)
    again = load_onnx(path, n_ranks=JOKER_CLASS + 1)
    assert torch.equal(again.rank.weight.detach(), reader.rank.weight.detach())
    without = load_onnx(path)
    assert torch.equal(without.rank.weight.detach(), reader.rank.weight.detach()[:JOKER_CLASS])


def _trained_a_step(reader: ReaderNet) -> ReaderNet:
    """`reader` with batch norms that have seen a batch, as any trained reader's have: the
    export folds them into biases of their convolutions (`load_onnx` reads those)."""
    reader.train()
    width, height = reader.size
    reader(torch.rand(16, 3, height, width))
    return reader
