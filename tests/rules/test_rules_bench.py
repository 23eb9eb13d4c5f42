"""Timings of the rules and the store (run with `pytest -m bench -s`; never in CI)."""

from __future__ import annotations

import random
import time

import pytest

from companion.referee.session import GameSession
from companion.rules.events import GameConfig
from companion.rules.log import replay
from companion.rules.simulate import random_game
from companion.store import Store

CONFIG = GameConfig(("Alia", "Ben", "Carmen", "Dori", "Emil"))


@pytest.mark.bench
def test_bench_replay_speed():
    games = [random_game(CONFIG, random.Random(seed)) for seed in range(50)]
    facts = sum(len(g) for g in games)
    start = time.perf_counter()
    for events in games:
        replay(CONFIG, events)
    per_fact = (time.perf_counter() - start) / facts
    print(f"\nreplay: {per_fact * 1e6:.1f} us per fact over {facts} facts")


@pytest.mark.bench
def test_bench_submit_with_store(tmp_path):
    events = random_game(CONFIG, random.Random(1))
    with Store(tmp_path / "bench.sqlite3") as store:
        session = GameSession.new(store, CONFIG)
        start = time.perf_counter()
        for event in events:
            session.submit(event)
        per_fact = (time.perf_counter() - start) / len(events)
        start = time.perf_counter()
        GameSession.resume(store, session.game_id)
        resume = time.perf_counter() - start
    print(f"\nsubmit (checked, committed, announced): {per_fact * 1e3:.2f} ms per fact")
    print(f"resume of a {len(events)}-fact game: {resume * 1e3:.1f} ms")
