"""Announcements: the ids and params of docs/design.md, never a face-down rank."""

from __future__ import annotations

import random

from companion.rules.events import (
    CallClosed,
    Declined,
    GameConfig,
    Hunted,
    Played,
    Revealed,
)
from companion.rules.narration import Announcement, announce, opening
from companion.rules.simulate import random_game
from companion.rules.state import apply, initial_state

FOUR = GameConfig(("Alia", "Ben", "Carmen", "Dori"))

DESIGN_IDS = {
    "round_start": {"round", "caller"},
    "hunt_start": {"hunt", "caller", "players"},
    "call": {"rank"},
    "nobody": {"rank"},
    "lone_hunter": {"player", "rank"},
    "lone_cannot_hunt": {"player", "rank"},
    "blocked": {"players", "rank"},
    "eaten": {"hunter", "rank", "prey_rank", "players"},
    "prey_missing": {"hunter", "prey_rank"},
    "declined": {"player"},
    "hunt_end": {"hunt", "survivors"},
    "round_alone": {"round", "player", "food"},
    "round_food": {"player", "food", "reason", "sum"},
    "round_eaten": {"players"},
    "totals": {"totals"},
    "tie_play_on": {"players", "total"},
    "winner": {"player", "total"},
}


def run(config, events):
    """Every (event, announcements) pair of a game."""
    state = initial_state(config)
    said = []
    for event in events:
        after = apply(state, event)
        said.append((event, announce(state, event, after)))
        state = after
    return said


def as_pairs(announcements: tuple[Announcement, ...]) -> list[tuple[str, dict]]:
    return [(a.msg, dict(a.params)) for a in announcements]


def test_opening_of_a_new_game():
    assert as_pairs(opening(initial_state(FOUR))) == [
        ("round_start", {"round": 1, "caller": "Alia"}),
        ("hunt_start", {"hunt": 1, "caller": "Alia", "players": FOUR.players}),
    ]


def test_worked_example_1_is_narrated():
    events = [Played(p) for p in FOUR.players]
    events += [Revealed("Alia", 1), CallClosed(), Hunted("Alia", 4, ("Ben", "Carmen"))]
    events += [Revealed("Dori", 2), CallClosed(), Hunted("Dori", 5, ())]
    events += [Played("Alia"), Played("Dori"), Revealed("Dori", 1), CallClosed()]
    events += [Hunted("Dori", 2, ("Alia",))]
    said = [as_pairs(a) for _, a in run(FOUR, events)]
    assert said[3] == [("call", {"rank": 1})]
    assert said[5] == [("lone_hunter", {"player": "Alia", "rank": 1})]
    assert said[6] == [
        ("eaten", {"hunter": "Alia", "rank": 1, "prey_rank": 4, "players": ("Ben", "Carmen")}),
        ("call", {"rank": 2}),
    ]
    assert said[9] == [
        ("prey_missing", {"hunter": "Dori", "prey_rank": 5}),
        ("hunt_end", {"hunt": 1, "survivors": ("Alia", "Dori")}),
        ("hunt_start", {"hunt": 2, "caller": "Ben", "players": ("Alia", "Dori")}),
    ]
    assert said[-1] == [
        ("eaten", {"hunter": "Dori", "rank": 1, "prey_rank": 2, "players": ("Alia",)}),
        ("round_alone", {"round": 1, "player": "Dori", "food": 2}),
        ("totals", {"totals": (("Alia", 0), ("Ben", 0), ("Carmen", 0), ("Dori", 2))}),
        ("round_start", {"round": 2, "caller": "Carmen"}),
        ("hunt_start", {"hunt": 1, "caller": "Carmen", "players": FOUR.players}),
    ]


def test_call_outcomes():
    three = GameConfig(("Alia", "Ben", "Carmen"))
    events = [Played("Alia"), Played("Ben"), Played("Carmen"), CallClosed()]
    events += [Revealed("Alia", 2), Revealed("Ben", 2), CallClosed(), CallClosed()]
    events += [Revealed("Carmen", 4), CallClosed(), Declined("Carmen")]
    said = [as_pairs(a) for _, a in run(three, events)]
    assert said[3] == [("nobody", {"rank": 1}), ("call", {"rank": 2})]
    assert said[6] == [("blocked", {"players": ("Alia", "Ben"), "rank": 2}), ("call", {"rank": 3})]
    assert said[9] == [("lone_hunter", {"player": "Carmen", "rank": 4})]
    assert said[10][0] == ("declined", {"player": "Carmen"})
    assert said[10][1][0] == "hunt_end"


def test_a_five_cannot_hunt():
    two = GameConfig(("Alia", "Ben"))
    events = [Played("Alia"), Played("Ben"), Revealed("Alia", 1), CallClosed()]
    events += [Declined("Alia"), CallClosed(), CallClosed(), CallClosed()]
    events += [Revealed("Ben", 5), CallClosed()]
    _, said = run(two, events)[-1]
    assert as_pairs(said)[0] == ("lone_cannot_hunt", {"player": "Ben", "rank": 5})


def test_every_announcement_matches_the_design_table():
    seen = set()
    for seed in range(30):
        config = GameConfig(("Alia", "Ben", "Carmen", "Dori")[: 2 + seed % 3])
        state = initial_state(config)
        for event in random_game(config, random.Random(seed)):
            after = apply(state, event)
            for a in announce(state, event, after):
                assert set(a.params) == DESIGN_IDS[a.msg], a
                seen.add(a.msg)
                if a.msg == "round_food":
                    assert a.params["reason"] in ("highest", "survivor")
            state = after
        if state.winner:
            assert opening(state)[0].msg == "winner"
    assert seen >= set(DESIGN_IDS) - {"tie_play_on"}
