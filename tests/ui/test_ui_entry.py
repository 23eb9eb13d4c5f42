"""Keys to facts, without Textual: marks stay pending, Enter turns them into events."""

from __future__ import annotations

from companion.rules.events import (
    CallClosed,
    Declined,
    GameConfig,
    GameEvent,
    Hunted,
    Played,
    Revealed,
)
from companion.rules.state import GameState, apply, initial_state
from companion.ui.entry import (
    Pending,
    press_all,
    press_confirm,
    press_digit,
    press_nobody,
)

PLAYERS = ("Alia", "Ben", "Carmen", "Dori")


def _after(*events: GameEvent) -> GameState:
    state = initial_state(GameConfig(PLAYERS))
    for event in events:
        state = apply(state, event)
    return state


ALL_PLAYED = tuple(Played(p) for p in PLAYERS)


def test_a_seat_key_in_the_play_phase_is_one_played_fact():
    result = press_digit(_after(), Pending(), 2)
    assert result.events == (Played("Ben"),)
    assert result.refused is None


def test_all_played_lists_only_the_players_still_to_play():
    assert press_all(_after(Played("Ben")), Pending()).events == (
        Played("Alia"),
        Played("Carmen"),
        Played("Dori"),
    )


def test_a_seat_that_already_played_is_refused_with_the_engine_message():
    result = press_digit(_after(Played("Alia")), Pending(), 1)
    assert result.events == ()
    assert result.refused is not None and "Alia already played a card in hunt 1" in result.refused


def test_a_seat_number_beyond_the_table_is_refused():
    assert press_digit(_after(), Pending(), 5).refused == (
        "There is no seat 5: the seats are 1 to 4."
    )


def test_call_marks_stay_pending_until_enter():
    state = _after(*ALL_PLAYED)
    marked = press_digit(state, Pending(), 3)
    assert marked.events == () and marked.pending.seats == {"Carmen"}
    marked = press_digit(state, marked.pending, 1)
    confirmed = press_confirm(state, marked.pending)
    assert confirmed.events == (Revealed("Alia", 1), Revealed("Carmen", 1), CallClosed())
    assert confirmed.pending == Pending()


def test_pressing_a_marked_seat_again_unmarks_it():
    state = _after(*ALL_PLAYED)
    marked = press_digit(state, Pending(), 3)
    assert press_digit(state, marked.pending, 3).pending.seats == frozenset()


def test_nobody_closes_the_call_but_not_over_marks():
    state = _after(*ALL_PLAYED)
    assert press_nobody(state, Pending()).events == (CallClosed(),)
    marked = press_digit(state, Pending(), 2).pending
    assert press_nobody(state, marked).refused is not None


def test_lone_hunter_prey_then_victims_then_enter():
    state = _after(*ALL_PLAYED, Revealed("Alia", 1), CallClosed())
    assert state.phase == "hunt"
    prey = press_digit(state, Pending(), 4)
    assert prey.pending.prey_rank == 4
    eaten = press_digit(state, press_digit(state, prey.pending, 2).pending, 3)
    result = press_confirm(state, eaten.pending)
    assert result.events == (Hunted("Alia", 4, ("Ben", "Carmen")),)


def test_prey_not_above_the_hunter_is_refused():
    state = _after(*ALL_PLAYED, Revealed("Ben", 1), CallClosed())
    result = press_digit(state, Pending(), 1)
    assert result.refused == "Ben's card is 1: the prey must be higher (2 to 5), got 1"
    assert result.pending == Pending()


def test_the_hunter_cannot_be_marked_as_eaten():
    state = _after(*ALL_PLAYED, Revealed("Ben", 1), CallClosed())
    prey = press_digit(state, Pending(), 3).pending
    result = press_digit(state, prey, 2)
    assert result.refused is not None and "Ben is the hunter" in result.refused


def test_enter_without_prey_asks_for_it_and_n_declines():
    state = _after(*ALL_PLAYED, Revealed("Ben", 1), CallClosed())
    assert press_confirm(state, Pending()).refused == (
        "First the prey's rank (2, 3, 4, 5), or n if Ben does not hunt."
    )
    assert press_nobody(state, Pending()).events == (Declined("Ben"),)
