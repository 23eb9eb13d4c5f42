"""Property tests over random legal games (hypothesis draws the seed and the table)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.events import GameConfig
from companion.rules.log import (
    Corrected,
    Undone,
    decode_entry,
    effective,
    encode_entry,
    replay,
)
from companion.rules.narration import announce, opening
from companion.rules.simulate import random_game
from companion.rules.state import apply, initial_state
from companion.rules.tablelog import read_table_log, replay_summary, write_table_log

NAMES = ("Alia", "Ben", "Carmen", "Dori", "Emil")


@st.composite
def games(draw):
    """A random table and the facts of a random legal game played at it."""
    count = draw(st.integers(2, 5))
    players = NAMES[:count]
    config = GameConfig(
        players,
        draw(st.sampled_from(("original", "playing-cards"))),
        draw(st.sampled_from(players)),
    )
    seed = draw(st.integers(0, 2**32 - 1))
    return config, random_game(config, random.Random(seed), max_rounds=12)


PROPERTY = settings(max_examples=60, deadline=None)


@PROPERTY
@given(games())
def test_fold_matches_replay_and_invariants_hold(game):
    config, events = game
    state = initial_state(config)
    hunts_started = 0
    players = state.config.players
    first = players.index(state.config.first_caller)
    for event in events:
        after = apply(state, event)
        announce(state, event, after)
        opening(after)
        if after.phase != "over" and (after.round, after.hunt) != (state.round, state.hunt):
            hunts_started += 1
            rounds_started = after.round - 1
            step = hunts_started if config.rules == "original" else rounds_started
            assert after.caller == players[(first + step) % len(players)]
        assert any(s.active for s in after.seats) or after.phase == "over"
        assert after.hunt <= 3
        state = after
    assert replay(config, events) == state


@PROPERTY
@given(games())
def test_rounds_follow_the_scoring_rule(game):
    config, events = game
    state = replay(config, events)
    previous = dict.fromkeys(config.players, 0)
    for result in state.rounds:
        assert 1 <= result.hunts <= 3
        assert result.survivors, "at least one survivor"
        assert set(result.survivors) | set(result.eaten) == set(config.players)
        if len(result.survivors) == 1:
            expected = {name: 2 if name in result.survivors else 0 for name in config.players}
        else:
            assert result.hunts == 3
            best = max(result.sums[name] for name in result.survivors)
            expected = {
                name: (0 if name in result.eaten else 2 if result.sums[name] == best else 1)
                for name in config.players
            }
        assert dict(result.food) == expected
        for name in config.players:
            assert result.totals[name] == previous[name] + expected[name] >= previous[name]
        previous = dict(result.totals)
        top = max(previous.values())
        unique = list(previous.values()).count(top) == 1
        is_last = result is state.rounds[-1]
        assert (top >= 5 and unique) == (is_last and state.winner is not None)


@PROPERTY
@given(games(), st.data())
def test_undo_and_corrections(game, data):
    config, events = game
    log = list(events) + [Undone()] * len(events)
    assert effective(log) == ()
    assert replay(config, effective(log)) == initial_state(config)
    back = data.draw(st.integers(0, len(events)))
    partial = list(events) + [Undone()] * back
    assert replay(config, effective(partial)) == replay(config, events[: len(events) - back])
    if events:
        index = data.draw(st.integers(0, len(events) - 1))
        same = effective([*events, Corrected(index, events[index])])
        assert same == events


@PROPERTY
@given(games())
def test_export_then_import_gives_the_same_game(game):
    config, events = game
    text = write_table_log(config, events)
    read_config, read_events = read_table_log(text)
    assert read_config == initial_state(config).config
    assert read_events == events
    assert replay_summary(read_config, read_events) == replay_summary(config, events)


@PROPERTY
@given(games())
def test_log_entries_survive_json(game):
    _, events = game
    entries = [*events[:20], Undone(), *(Corrected(0, e) for e in events[:3])]
    assert [decode_entry(encode_entry(entry)) for entry in entries] == entries
