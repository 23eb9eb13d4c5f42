"""`python -m models.train` finder stages: passes chained one from the last, and a net the
runtime does not use never written over a shipped one."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import models.train.__main__ as train_main
from models.train import finder


def test_each_pass_goes_on_from_the_last(monkeypatch) -> None:
    calls = []
    monkeypatch.setattr(finder, "tune", lambda out, **kw: calls.append((out, kw)))
    out, init = Path("/tmp/rows.onnx"), Path("/tmp/shipped.onnx")
    train_main._finder_passes(out, init, train_main.ROW_PASSES, rows=finder.ROW_SAMPLES)
    assert [kw["init"] for _, kw in calls] == [init, out]
    assert all(o == out and kw["rows"] == finder.ROW_SAMPLES for o, kw in calls)
    assert [kw["seed"] for _, kw in calls] == [16, 17]


def test_the_rows_net_is_written_only_where_asked(monkeypatch, capsys) -> None:
    monkeypatch.setattr(finder, "tune", lambda *a, **kw: pytest.fail("trained"))
    monkeypatch.setattr(sys, "argv", ["python -m models.train", "finder-rows"])
    with pytest.raises(SystemExit):
        train_main.main()
    assert "give --out FILE" in capsys.readouterr().err
