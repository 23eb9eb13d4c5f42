"""The session log: effective facts, replay errors, JSON entries; golden playthroughs."""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path

import pytest

from companion.rules.events import CallClosed, GameConfig, Hunted, Played, Revealed
from companion.rules.examples import list_examples, read_example
from companion.rules.log import (
    Corrected,
    LogFormatError,
    Undone,
    decode_config,
    decode_entry,
    effective,
    encode_config,
    encode_entry,
    replay,
)
from companion.rules.state import IllegalMove
from companion.rules.tablelog import read_table_log, replay_summary

GOLDEN = Path(__file__).parent / "golden"


def test_effective_applies_undo_and_corrections_in_order():
    log = [Played("A"), Played("B"), Undone(), Played("C"), Corrected(0, Played("D"))]
    assert effective(log) == (Played("D"), Played("C"))


def test_effective_refuses_impossible_entries():
    with pytest.raises(IllegalMove, match="nothing to undo"):
        effective([Undone()])
    with pytest.raises(IllegalMove, match="no fact 3 to correct: expected 1 to 1"):
        effective([Played("A"), Corrected(2, Played("B"))])


def test_entry_json_shapes():
    assert encode_entry(Hunted("A", 4, ("B",))) == {
        "type": "hunted",
        "hunter": "A",
        "rank": 4,
        "eaten": ["B"],
    }
    assert encode_entry(Corrected(1, CallClosed())) == {
        "type": "corrected",
        "index": 1,
        "event": {"type": "call_closed"},
    }
    config = GameConfig(("A", "B"), "playing-cards", "B")
    assert decode_config(json.loads(json.dumps(encode_config(config)))) == config


@pytest.mark.parametrize(
    ("data", "match"),
    [
        ({"type": "jump"}, "expected type played, revealed"),
        ({"type": "played"}, "entry of type 'played' lacks 'player'"),
        ({"type": "revealed", "player": "A", "rank": "2"}, "expected rank as a whole number"),
        ({"type": "revealed", "player": 3, "rank": 2}, "expected player as text"),
        ({"type": "hunted", "hunter": "A", "rank": 3, "eaten": "B"}, "eaten as a list"),
        ({"type": "corrected", "index": 0, "event": {"type": "undone"}}, "replace a game event"),
        ([1], "expected a log entry object"),
    ],
)
def test_bad_entries(data, match):
    with pytest.raises(LogFormatError, match=match):
        decode_entry(data)


def test_decode_round_trip_of_every_shape():
    entries = [Played("A"), Revealed("A", 2), CallClosed(), Hunted("A", 3), Undone()]
    entries.append(Corrected(0, Revealed("B", 1)))
    assert [decode_entry(encode_entry(e)) for e in entries] == entries


@pytest.mark.parametrize("name", list_examples())
def test_golden_playthroughs(name):
    """The shipped example games replay to the reviewed summaries in tests/rules/golden."""
    golden = json.loads((GOLDEN / name.replace(".jsonl", ".json")).read_text())
    assert replay_summary(*read_table_log(read_example(name))) == golden


def test_states_are_immutable_but_copyable_and_hashable():
    config, events = read_table_log(read_example("two-players.jsonl"))
    state = replay(config, events)
    assert copy.deepcopy(state) == state == pickle.loads(pickle.dumps(state))
    assert hash(state) == hash(replay(config, events))
    with pytest.raises(TypeError, match="cannot be changed"):
        state.totals["Alia"] = 0  # type: ignore[index]
    assert json.dumps(state.rounds[0].food) == '{"Alia": 2, "Ben": 0}'
