"""Every worked example of RULES.md, fact by fact and as table logs."""

from __future__ import annotations

import json

from companion.rules.events import (
    CallClosed,
    Declined,
    GameConfig,
    Hunted,
    Played,
    Revealed,
)
from companion.rules.log import replay
from companion.rules.state import apply, expects, initial_state
from companion.rules.tablelog import read_table_log, replay_summary

FOUR = ("Alia", "Ben", "Carmen", "Dori")
THREE = ("Alia", "Ben", "Carmen")


def table_log(players, *hunts, rules="original", first_caller=None) -> str:
    """A table log text: the game line then one line per (played, prey) hunt."""
    game = {"players": list(players), "rules": rules}
    if first_caller:
        game["first_caller"] = first_caller
    lines = [json.dumps({"game": game})]
    lines += [json.dumps({"hunt": {"played": played, "prey": prey}}) for played, prey in hunts]
    return "\n".join(lines)


def summary_of(text: str) -> dict:
    return replay_summary(*read_table_log(text))


EXAMPLE_1 = [
    Played("Alia"),
    Played("Ben"),
    Played("Carmen"),
    Played("Dori"),
    Revealed("Alia", 1),
    CallClosed(),
    Hunted("Alia", 4, ("Ben", "Carmen")),
    Revealed("Dori", 2),
    CallClosed(),
    Hunted("Dori", 5, ()),
    Played("Alia"),
    Played("Dori"),
    Revealed("Dori", 1),
    CallClosed(),
    Hunted("Dori", 2, ("Alia",)),
]


def test_example_1_fact_by_fact():
    state = initial_state(GameConfig(FOUR))
    for event in EXAMPLE_1[:9]:
        state = apply(state, event)
    # Every card is face up, yet Dori, the lone revealer of 2, may still name prey.
    assert all(not s.face_down for s in state.seats)
    assert expects(state).hunter == "Dori"
    assert expects(state).prey_ranks == (3, 4, 5)
    state = replay(GameConfig(FOUR), EXAMPLE_1)
    result = state.rounds[0]
    assert result.hunts == 2
    assert set(result.eaten) == {"Alia", "Ben", "Carmen"}
    assert result.survivors == ("Dori",)
    assert dict(result.food) == {"Alia": 0, "Ben": 0, "Carmen": 0, "Dori": 2}
    assert result.reasons["Dori"] == "alone"
    assert state.round == 2 and state.phase == "play"


def test_example_1_as_table_log():
    text = table_log(
        FOUR,
        ({"Alia": 1, "Ben": 4, "Carmen": 4, "Dori": 2}, {"Alia": 4, "Dori": 5}),
        ({"Alia": 2, "Dori": 1}, {"Dori": 2}),
    )
    config, events = read_table_log(text)
    assert events == tuple(EXAMPLE_1)
    summary = replay_summary(config, events)
    assert summary["rounds"] == [
        {
            "round": 1,
            "hunts": 2,
            "eaten": ["Alia", "Ben", "Carmen"],
            "survivors": ["Dori"],
            "food": {"Alia": 0, "Ben": 0, "Carmen": 0, "Dori": 2},
            "totals": {"Alia": 0, "Ben": 0, "Carmen": 0, "Dori": 2},
        }
    ]
    assert summary["winner"] is None and summary["status"] == "in_progress"


def test_example_2_three_hunts_dori_eaten_in_hunt_2():
    text = table_log(
        FOUR,
        ({"Alia": 2, "Ben": 1, "Carmen": 1, "Dori": 3}, {}),
        ({"Alia": 4, "Ben": 2, "Carmen": 4, "Dori": 5}, {"Ben": 5}),
        ({"Alia": 5, "Ben": 3, "Carmen": 5}, {}),
    )
    state = replay(*read_table_log(text))
    result = state.rounds[0]
    assert result.hunts == 3
    assert result.eaten == ("Dori",)
    assert {name: result.sums[name] for name in result.survivors} == {
        "Alia": 11,
        "Ben": 6,
        "Carmen": 10,
    }
    assert dict(result.food) == {"Alia": 2, "Ben": 1, "Carmen": 1, "Dori": 0}
    assert dict(result.reasons) == {
        "Alia": "highest",
        "Ben": "survivor",
        "Carmen": "survivor",
        "Dori": "eaten",
    }


def test_example_3_tied_highest_sums_both_get_two():
    text = table_log(
        THREE,
        ({"Alia": 5, "Ben": 5, "Carmen": 4}, {}),
        ({"Alia": 3, "Ben": 4, "Carmen": 3}, {}),
        ({"Alia": 2, "Ben": 1, "Carmen": 1}, {}),
    )
    result = replay(*read_table_log(text)).rounds[0]
    assert dict(result.sums) == {"Alia": 10, "Ben": 10, "Carmen": 8}
    assert dict(result.food) == {"Alia": 2, "Ben": 2, "Carmen": 1}


def test_example_4_block_and_a_five_cannot_hunt():
    state = initial_state(GameConfig(THREE))
    for event in [Played("Alia"), Played("Ben"), Played("Carmen")]:
        state = apply(state, event)
    for _call in (1, 2):
        state = apply(state, CallClosed())
    state = apply(apply(state, Revealed("Alia", 3)), Revealed("Ben", 3))
    state = apply(state, CallClosed())  # blocked: no hunt, calling goes on
    assert state.phase == "call" and state.call_rank == 4
    state = apply(state, CallClosed())
    state = apply(state, Revealed("Carmen", 5))
    state = apply(state, CallClosed())  # a 5 cannot hunt: no decision is awaited
    assert state.hunt == 2 and state.phase == "play"
    assert expects(state).to_play == THREE
    assert not any(s.eaten for s in state.seats)


def test_example_5_unique_highest_total_wins():
    """Build the totals Alia 4, Ben 3, then play the example's round."""
    text = table_log(
        THREE,
        ({"Alia": 2, "Ben": 1, "Carmen": 2}, {"Ben": 2}),  # Ben alone, totals 0 2 0
        ({"Alia": 5, "Ben": 5, "Carmen": 4}, {}),
        ({"Alia": 4, "Ben": 3, "Carmen": 3}, {}),
        ({"Alia": 2, "Ben": 1, "Carmen": 1}, {}),  # sums 11 9 8, totals 2 3 1
        ({"Alia": 1, "Ben": 2, "Carmen": 2}, {"Alia": 2}),  # Alia alone, totals 4 3 1
        ({"Alia": 5, "Ben": 5, "Carmen": 4}, {}),
        ({"Alia": 3, "Ben": 4, "Carmen": 3}, {}),
        ({"Alia": 2, "Ben": 1, "Carmen": 1}, {}),  # sums 10 10 8: +2 +2 +1
    )
    summary = summary_of(text)
    assert [r["totals"] for r in summary["rounds"]] == [
        {"Alia": 0, "Ben": 2, "Carmen": 0},
        {"Alia": 2, "Ben": 3, "Carmen": 1},
        {"Alia": 4, "Ben": 3, "Carmen": 1},
        {"Alia": 6, "Ben": 5, "Carmen": 2},
    ]
    assert summary["winner"] == "Alia" and summary["status"] == "finished"


def test_example_6_tie_on_highest_total_plays_on():
    alia_alone = ({"Alia": 1, "Ben": 2}, {"Alia": 2})
    ben_alone = ({"Alia": 2, "Ben": 1}, {"Ben": 2})
    text = table_log(
        ("Alia", "Ben"),
        alia_alone,
        ben_alone,
        alia_alone,
        ben_alone,  # 4 and 4
        ({"Alia": 1, "Ben": 1}, {}),
        ({"Alia": 2, "Ben": 2}, {}),
        ({"Alia": 3, "Ben": 3}, {}),  # both sum 6: +2 each, 6 and 6, play on
        alia_alone,
    )
    summary = summary_of(text)
    assert summary["rounds"][4]["totals"] == {"Alia": 6, "Ben": 6}
    assert summary["rounds"][4]["food"] == {"Alia": 2, "Ben": 2}
    assert summary["rounds"][5]["totals"] == {"Alia": 8, "Ben": 6}
    assert summary["winner"] == "Alia"


def test_original_caller_moves_every_hunt_across_rounds():
    config = GameConfig(FOUR, "original", "Carmen")
    state = replay(config, EXAMPLE_1[:10])
    assert state.hunt == 2 and state.caller == "Dori"
    state = replay(config, EXAMPLE_1)
    assert state.round == 2 and state.caller == "Alia"


def test_playing_cards_caller_moves_every_round():
    config = GameConfig(FOUR, "playing-cards", "Carmen")
    state = replay(config, EXAMPLE_1[:10])
    assert state.hunt == 2 and state.caller == "Carmen"
    state = replay(config, EXAMPLE_1)
    assert state.round == 2 and state.caller == "Dori"


def test_calling_stops_once_every_card_is_up_and_call_resolved():
    state = replay(GameConfig(("Alia", "Ben")), [Played("Alia"), Played("Ben")])
    state = apply(state, Revealed("Alia", 1))
    state = apply(state, CallClosed())
    state = apply(state, Declined("Alia"))
    assert state.phase == "call" and state.call_rank == 2
    state = apply(apply(state, Revealed("Ben", 2)), CallClosed())
    state = apply(state, Declined("Ben"))
    assert state.hunt == 2 and state.phase == "play"


def test_earlier_cards_stay_up_but_are_not_called_again():
    first = [Played("Alia"), Played("Ben"), CallClosed(), Revealed("Alia", 2)]
    first += [Revealed("Ben", 2), CallClosed()]
    state = replay(GameConfig(("Alia", "Ben")), [*first, Played("Alia"), Played("Ben")])
    assert [c.rank for c in state.seat("Alia").played] == [2, None]
    for _ in range(2):
        state = apply(state, CallClosed())
    assert state.call_rank == 3 and state.revealers == ()
