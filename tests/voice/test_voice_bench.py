"""`companion bench voice` runs end to end (timings are printed, never asserted here)."""

from __future__ import annotations

import argparse

import pytest

from companion.voice import bench


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    bench.add_arguments(parser)
    return parser.parse_args(argv)


def test_bench_prints_a_row_per_installed_backend(capsys):
    code = bench.main(_args("--runs", "1", "--backend", "espeak", "--lang", "fr"))
    out = capsys.readouterr().out
    if code == 1:
        pytest.skip("espeak is not installed: " + out)
    assert code == 0 and "espeak   fr" in out


def test_bench_refuses_silly_run_counts(capsys):
    assert bench.main(_args("--runs", "0")) == 2
    assert "--runs must be from 1 to 50" in capsys.readouterr().out


@pytest.mark.bench
def test_bench_every_backend(capsys):
    assert bench.main(_args("--runs", "5")) == 0
    print(capsys.readouterr().out)
