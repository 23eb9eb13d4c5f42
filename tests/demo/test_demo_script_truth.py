"""Whole games scripted into table moments and played through the referee by a perfect eye."""

from __future__ import annotations

import random

import pytest

from companion.demo.film import film_timeline
from companion.demo.pacing import script_game
from companion.demo.run import play_film, truth_eyes
from companion.referee.live import LiveReferee, Timing
from companion.referee.session import GameSession
from companion.rules.events import GameConfig
from companion.rules.examples import list_examples, read_example
from companion.rules.simulate import random_game
from companion.rules.tablelog import read_table_log
from companion.store import Store

TIMING = Timing(call_window=1.5, prey_settle=0.3, hunt_timeout=2.5, signal_window=1.0)
FPS = 10


def run_truth(tmp_path, config, events, caller="table", watcher=None):
    moments = script_game(config, events, TIMING, caller=caller, fps=FPS)
    with Store(tmp_path / "demo.sqlite3") as store:
        session = GameSession.new(store, config)
        referee = LiveReferee(session, caller=watcher or caller, timing=TIMING)
        film = ((instant, None) for instant in film_timeline(moments, FPS))
        return play_film(referee, film, truth_eyes(moments), events)


@pytest.mark.parametrize("caller", ["table", "companion"])
@pytest.mark.parametrize("name", list_examples())
def test_every_shipped_example_is_seen_exactly(tmp_path, name, caller):
    config, events = read_table_log(read_example(name))
    run = run_truth(tmp_path, config, events, caller)
    assert run.seen_log == run.expected_log
    assert run.questions == []
    assert ("call" in [a.msg for a in run.announcements]) == (caller == "companion")


@pytest.mark.parametrize("seed", range(6))
def test_random_games_are_seen_exactly(tmp_path, seed):
    players = ("Alia", "Ben", "Carmen", "Dori", "Eli")[: 2 + seed % 4]
    config = GameConfig(players)
    events = random_game(config, random.Random(seed), max_rounds=4)
    run = run_truth(tmp_path, config, events)
    assert run.seen_log == run.expected_log


def test_a_film_paced_by_the_companion_replays_with_a_table_caller(tmp_path):
    config, events = read_table_log(read_example("four-players.jsonl"))
    run = run_truth(tmp_path, config, events, caller="companion", watcher="table")
    assert run.seen_log == run.expected_log
