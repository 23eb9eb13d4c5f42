"""Every illegal input of RULES.md (and a few more) is refused with what was expected."""

from __future__ import annotations

import pytest

from companion.rules.events import (
    CallClosed,
    Declined,
    GameConfig,
    Hunted,
    Played,
    Revealed,
)
from companion.rules.log import replay
from companion.rules.state import ConfigError, IllegalMove, apply, initial_state

THREE = GameConfig(("Alia", "Ben", "Carmen"))
ALL_DOWN = [Played("Alia"), Played("Ben"), Played("Carmen")]
# Alia eats Ben with 1 -> 3; Carmen (2) declines; hunt 2 for Alia and Carmen.
BEN_EATEN = [*ALL_DOWN, Revealed("Alia", 1), CallClosed(), Hunted("Alia", 3, ("Ben",))]
BEN_EATEN += [Revealed("Carmen", 2), CallClosed(), Declined("Carmen")]


def refused(events, event, match):
    """Assert `event` is refused after `events` and the state is unchanged."""
    state = replay(THREE, events)
    with pytest.raises(IllegalMove, match=match):
        apply(state, event)
    assert state == replay(THREE, events)


def test_reveal_a_rank_already_played_this_round():
    events = [*BEN_EATEN, Played("Alia"), Played("Carmen")]
    refused(events, Revealed("Alia", 1), r"Alia already played 1 this round \(each rank once")


def test_hunt_a_rank_the_victim_already_played():
    events = [*ALL_DOWN, Revealed("Alia", 1), CallClosed(), Declined("Alia"), CallClosed()]
    events += [Revealed("Carmen", 3), CallClosed(), Declined("Carmen")]
    events += [Revealed("Ben", 4), CallClosed(), Hunted("Ben", 5)]
    events += [*ALL_DOWN, Revealed("Ben", 1), CallClosed()]
    refused(events, Hunted("Ben", 3, ("Carmen",)), "Carmen already played 3 this round")


def test_eaten_player_plays():
    assert replay(THREE, BEN_EATEN).hunt == 2
    refused(BEN_EATEN, Played("Ben"), "Ben was eaten this round and sits out")


def test_eaten_player_reveals():
    events = [*BEN_EATEN, Played("Alia"), Played("Carmen")]
    refused(events, Revealed("Ben", 1), "Ben is eaten this round and cannot reveal")


def test_early_flip_during_calling():
    refused(ALL_DOWN, Revealed("Ben", 4), r"Ben revealed 4 but the call is 1 \(an early flip\)")


def test_early_flip_before_calling():
    refused(ALL_DOWN[:1], Revealed("Alia", 1), "before the calling started .* expected a card")


def test_prey_not_higher_than_the_hunter():
    events = [*ALL_DOWN, CallClosed(), Revealed("Ben", 2), CallClosed()]
    refused(events, Hunted("Ben", 2), r"Ben's card is 2: the prey must be higher \(3 to 5\)")
    refused(events, Hunted("Ben", 1), "got 1")


def test_hunter_who_is_not_the_lone_revealer():
    events = [*ALL_DOWN, Revealed("Alia", 1), CallClosed()]
    refused(events, Hunted("Ben", 3), "only Alia, the lone revealer of 1, may hunt")
    refused(events, Declined("Carmen"), "only Alia")


def test_hunt_when_no_call_is_closed():
    refused([*ALL_DOWN, Revealed("Alia", 1)], Hunted("Alia", 3), "not the lone revealer|closed")
    blocked = [*ALL_DOWN, Revealed("Alia", 1), Revealed("Ben", 1), CallClosed()]
    refused(blocked, Hunted("Alia", 3), "nobody is the lone revealer of a closed call")


@pytest.mark.parametrize("rank", [0, 6, -1, True, "3", None])
def test_rank_outside_one_to_five(rank):
    refused(ALL_DOWN, Revealed("Alia", rank), "expected a rank from 1 to 5")
    events = [*ALL_DOWN, Revealed("Alia", 1), CallClosed()]
    refused(events, Hunted("Alia", rank), "expected a rank from 1 to 5")


def test_unknown_player():
    refused([], Played("Zed"), "unknown player 'Zed': expected one of Alia, Ben, Carmen")


def test_same_player_plays_twice_in_a_hunt():
    refused(ALL_DOWN[:1], Played("Alia"), "Alia already played a card in hunt 1; expected a card")


def test_play_during_the_calling():
    refused(ALL_DOWN, Played("Alia"), "the calling has started; expected the cards of rank 1")


def test_close_call_while_a_hunter_decides():
    events = [*ALL_DOWN, Revealed("Alia", 1), CallClosed()]
    refused(events, CallClosed(), "no call to close; expected Alia to name a prey from 2 to 5")
    refused(events, Revealed("Ben", 1), "no card can be revealed now")


def test_close_call_when_a_face_down_card_must_be_of_this_rank():
    events = [*BEN_EATEN, Played("Alia"), Played("Carmen")]
    # Nothing was revealed at calls 1 to 4, so Alia's card must be a 5.
    state = replay(THREE, events)
    for _call in range(4):
        state = apply(state, CallClosed())
    assert state.call_rank == 5
    with pytest.raises(IllegalMove, match="Alia's face-down card can only be 5 or lower"):
        apply(state, CallClosed())


def test_eaten_list_errors():
    events = [*ALL_DOWN, Revealed("Alia", 1), CallClosed()]
    refused(events, Hunted("Alia", 3, ("Ben", "Ben")), "Ben is listed twice among the eaten")
    refused(events, Hunted("Alia", 3, ("Alia",)), "Alia is the hunter")
    refused(events, Hunted("Alia", 3, ("Zed",)), "unknown player 'Zed'")
    later = [*BEN_EATEN, Played("Alia"), Played("Carmen"), CallClosed()]
    later += [Revealed("Alia", 2), CallClosed()]
    refused(later, Hunted("Alia", 4, ("Ben",)), "Ben is not in this hunt")


def test_eaten_card_already_face_up():
    events = [*ALL_DOWN, Revealed("Alia", 1), CallClosed(), Declined("Alia")]
    events += [Revealed("Ben", 2), CallClosed()]
    refused(events, Hunted("Ben", 4, ("Alia",)), "Alia's card of hunt 1 is already face up")


def test_nothing_after_the_game_is_over():
    two = GameConfig(("Alia", "Ben"))
    alone = [Played("Alia"), Played("Ben"), Revealed("Alia", 1), CallClosed()]
    alone.append(Hunted("Alia", 2, ("Ben",)))
    state = replay(two, alone * 3)
    assert state.phase == "over" and state.winner == "Alia"
    with pytest.raises(IllegalMove, match=r"the game is over \(Alia won\)"):
        apply(state, Played("Alia"))


def test_not_an_event():
    with pytest.raises(IllegalMove, match="expected a game event"):
        apply(initial_state(THREE), "Alia plays")


def test_replay_names_the_refused_fact():
    with pytest.raises(IllegalMove, match=r"^fact 2 \(Alia plays a card\): Alia already"):
        replay(THREE, [Played("Alia"), Played("Alia")])


@pytest.mark.parametrize(
    ("config", "match"),
    [
        (GameConfig(("Alia",)), "expected 2 to 5 players, got 1"),
        (GameConfig(tuple("ABCDEF")), "expected 2 to 5 players, got 6"),
        (GameConfig(("Alia", "Alia")), "distinct player names, 'Alia' appears twice"),
        (GameConfig(("Alia", "  ")), "non-empty text"),
        (GameConfig(("Alia", "Ben"), "poker"), "expected rules original or playing-cards"),
        (GameConfig(("Alia", "Ben"), "original", "Zed"), "first caller to be one of Alia, Ben"),
        (GameConfig("AliaBen"), "expected players as a list of names, got 'AliaBen'"),
    ],
)
def test_bad_configs(config, match):
    with pytest.raises(ConfigError, match=match):
        initial_state(config)


def test_config_is_normalised():
    state = initial_state(GameConfig(["Alia", "Ben"]))
    assert state.config == GameConfig(("Alia", "Ben"), "original", "Alia")
    assert state.caller == "Alia"
