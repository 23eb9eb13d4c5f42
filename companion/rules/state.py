"""The game state and the one function that moves it: `apply(state, event)`.

Everything here is pure: a `GameState` is frozen, `apply` returns a new one or raises
`IllegalMove` (the old state is untouched), so undo and corrections are just a replay of
the facts still in force. The engine models what the table knows: a card put down is
face down with no rank until it is revealed at its call or eaten by a hunt.

Transitions that need no input happen inside `apply`: after the last card of a hunt is
put down the calling starts at rank 1; after a call is settled the calling moves on, the
hunt ends, the round is scored, the next round or the end of the game follows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Literal

from companion.rules.events import (
    RANKS,
    RULE_SETS,
    CallClosed,
    Declined,
    GameConfig,
    GameEvent,
    Hunted,
    Played,
    Revealed,
)
from companion.rules.frozen import FrozenMap

Phase = Literal["play", "call", "hunt", "over"]
Reason = Literal["alone", "highest", "survivor", "eaten"]

MIN_PLAYERS, MAX_PLAYERS = 2, 5
HUNTS_PER_ROUND = 3
WINNING_TOTAL = 5
FOOD_ALONE = 2
FOOD_HIGHEST = 2
FOOD_SURVIVOR = 1
HIGHEST_RANK = RANKS[-1]


class IllegalMove(ValueError):
    """A fact the rules refuse; the message says what was expected instead."""


class ConfigError(ValueError):
    """A game set-up the rules cannot play (player count, names, rule setting, caller)."""


@dataclass(frozen=True, slots=True)
class PlayedCard:
    """A card put on the table this round in hunt `hunt`; `rank` is None while face down."""

    hunt: int
    rank: int | None = None


@dataclass(frozen=True, slots=True)
class SeatState:
    """One player during the current round.

    `hand` holds the ranks this player has not shown this round: the cards in hand plus,
    while `face_down`, the card lying on the table (its rank is unknown until revealed).
    `active` is True while the player is in the current hunt (not eaten).
    """

    name: str
    hand: frozenset[int] = frozenset(RANKS)
    played: tuple[PlayedCard, ...] = ()
    eaten: bool = False
    active: bool = True
    has_played: bool = False
    face_down: bool = False

    @property
    def cards_in_hand(self) -> int:
        """How many cards the player still holds (the face-down card is on the table)."""
        return len(RANKS) - len(self.played)

    @property
    def played_sum(self) -> int:
        """Sum of the face-up cards played this round."""
        return sum(card.rank for card in self.played if card.rank is not None)


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A scored round: who was eaten, who survived, the food and why."""

    round: int
    hunts: int
    eaten: tuple[str, ...]
    survivors: tuple[str, ...]
    food: Mapping[str, int]
    totals: Mapping[str, int]
    reasons: Mapping[str, Reason]
    sums: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class Expectation:
    """What the engine waits for next.

    `to_play`: players still to put a card down this hunt (phase "play");
    `call_rank` and `revealers`: the current call (phases "call" and "hunt");
    `hunter` and `prey_ranks`: the lone revealer and the ranks they may name (phase "hunt").
    """

    phase: Phase
    to_play: tuple[str, ...] = ()
    call_rank: int | None = None
    hunter: str | None = None
    prey_ranks: tuple[int, ...] = ()
    revealers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GameState:
    """The whole game at one moment; see docs/design.md for the meaning of each field."""

    config: GameConfig
    round: int
    hunt: int
    phase: Phase
    call_rank: int | None
    caller: str
    seats: tuple[SeatState, ...]
    revealers: tuple[str, ...]
    totals: Mapping[str, int]
    rounds: tuple[RoundResult, ...]
    winner: str | None

    def seat(self, name: str) -> SeatState:
        """The seat of `name`; an unknown name is an `IllegalMove` listing the players."""
        for seat in self.seats:
            if seat.name == name:
                return seat
        raise IllegalMove(
            f"unknown player {name!r}: expected one of {', '.join(self.config.players)}"
        )


def validate_config(config: GameConfig) -> GameConfig:
    """Return `config` with players as a tuple and the first caller filled in.

    Raises `ConfigError` naming what a set-up needs (2 to 5 distinct non-empty names,
    a known rule setting, a first caller among the players).
    """
    if not isinstance(config, GameConfig):
        raise ConfigError(f"expected a GameConfig, got {type(config).__name__}")
    if isinstance(config.players, str) or not isinstance(config.players, tuple | list):
        raise ConfigError(f"expected players as a list of names, got {config.players!r}")
    players = tuple(config.players)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ConfigError(f"expected {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(players)}")
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise ConfigError(f"expected every player name to be non-empty text, got {name!r}")
    duplicates = sorted({name for name in players if players.count(name) > 1})
    if duplicates:
        raise ConfigError(f"expected distinct player names, {duplicates[0]!r} appears twice")
    if config.rules not in RULE_SETS:
        raise ConfigError(f"expected rules {' or '.join(RULE_SETS)}, got {config.rules!r}")
    first_caller = players[0] if config.first_caller is None else config.first_caller
    if first_caller not in players:
        raise ConfigError(
            f"expected the first caller to be one of {', '.join(players)}, got {first_caller!r}"
        )
    return GameConfig(players=players, rules=config.rules, first_caller=first_caller)


def initial_state(config: GameConfig) -> GameState:
    """The state before the first card of round 1 (raises `ConfigError` on a bad set-up)."""
    config = validate_config(config)
    assert config.first_caller is not None
    return GameState(
        config=config,
        round=1,
        hunt=1,
        phase="play",
        call_rank=None,
        caller=config.first_caller,
        seats=tuple(SeatState(name) for name in config.players),
        revealers=(),
        totals=FrozenMap(dict.fromkeys(config.players, 0)),
        rounds=(),
        winner=None,
    )


def expects(state: GameState) -> Expectation:
    """What input the engine waits for in `state`."""
    if state.phase == "play":
        to_play = tuple(s.name for s in state.seats if s.active and not s.has_played)
        return Expectation("play", to_play=to_play)
    if state.phase == "call":
        return Expectation("call", call_rank=state.call_rank, revealers=state.revealers)
    if state.phase == "hunt":
        assert state.call_rank is not None
        return Expectation(
            "hunt",
            call_rank=state.call_rank,
            hunter=state.revealers[0],
            prey_ranks=tuple(range(state.call_rank + 1, HIGHEST_RANK + 1)),
            revealers=state.revealers,
        )
    return Expectation("over")


def describe_expectation(state: GameState) -> str:
    """An English sentence for `expects(state)`, used at the end of refusal messages."""
    wanted = expects(state)
    if wanted.phase == "play":
        return f"expected a card from {', '.join(wanted.to_play)}"
    if wanted.phase == "call":
        return (
            f"expected the cards of rank {wanted.call_rank} to be revealed, "
            "then the call to be closed"
        )
    if wanted.phase == "hunt":
        low, high = wanted.prey_ranks[0], wanted.prey_ranks[-1]
        return f"expected {wanted.hunter} to name a prey from {low} to {high}, or to decline"
    return f"the game is over: {state.winner} won"


def apply(state: GameState, event: GameEvent) -> GameState:
    """The state after `event`; raises `IllegalMove` (saying what was expected) if refused."""
    if state.phase == "over":
        raise IllegalMove(f"the game is over ({state.winner} won): no more moves are expected")
    match event:
        case Played():
            return _play(state, event)
        case Revealed():
            return _reveal(state, event)
        case CallClosed():
            return _close_call(state)
        case Hunted():
            return _hunt(state, event)
        case Declined():
            return _decline(state, event)
    raise IllegalMove(f"expected a game event (Played, Revealed, ...), got {event!r}")


# --- the facts ---------------------------------------------------------------------


def _play(state: GameState, event: Played) -> GameState:
    seat = state.seat(event.player)
    if seat.eaten:
        raise IllegalMove(
            f"{seat.name} was eaten this round and sits out until the next round; "
            + describe_expectation(state)
        )
    if state.phase != "play":
        raise IllegalMove(
            f"{seat.name} cannot put a card down now, the calling has started; "
            + describe_expectation(state)
        )
    if seat.has_played:
        raise IllegalMove(
            f"{seat.name} already played a card in hunt {state.hunt}; "
            + describe_expectation(state)
        )
    new_seat = replace(
        seat,
        has_played=True,
        face_down=True,
        played=(*seat.played, PlayedCard(state.hunt)),
    )
    state = _with_seats(state, [new_seat])
    if all(s.has_played for s in state.seats if s.active):
        return replace(state, phase="call", call_rank=RANKS[0], revealers=())
    return state


def _reveal(state: GameState, event: Revealed) -> GameState:
    _check_rank(event.rank)
    seat = state.seat(event.player)
    if seat.eaten:
        raise IllegalMove(f"{seat.name} is eaten this round and cannot reveal a card")
    if state.phase == "play":
        raise IllegalMove(
            f"{seat.name} revealed a card before the calling started (an early flip); "
            + describe_expectation(state)
        )
    if state.phase != "call":
        raise IllegalMove(f"no card can be revealed now; {describe_expectation(state)}")
    if not seat.face_down:
        raise IllegalMove(
            f"{seat.name} has no face-down card in hunt {state.hunt}; "
            + describe_expectation(state)
        )
    if event.rank not in seat.hand:
        raise IllegalMove(
            f"{seat.name} already played {event.rank} this round (each rank once per round)"
        )
    if event.rank != state.call_rank:
        raise IllegalMove(
            f"{seat.name} revealed {event.rank} but the call is {state.call_rank} "
            f"(an early flip): only cards of rank {state.call_rank} turn up now"
        )
    state = _with_seats(state, [_turned_up(seat, event.rank)])
    return replace(state, revealers=(*state.revealers, seat.name))


def _close_call(state: GameState) -> GameState:
    if state.phase != "call":
        raise IllegalMove(f"there is no call to close; {describe_expectation(state)}")
    assert state.call_rank is not None
    for seat in state.seats:
        if seat.active and seat.face_down and max(seat.hand) <= state.call_rank:
            raise IllegalMove(
                f"{seat.name}'s face-down card can only be {state.call_rank} or lower "
                f"(the higher ranks are already played): reveal it before closing "
                f"call {state.call_rank}"
            )
    if len(state.revealers) == 1 and state.call_rank < HIGHEST_RANK:
        return replace(state, phase="hunt")
    return _next_call(state)


def _hunt(state: GameState, event: Hunted) -> GameState:
    _check_hunter(state, event.hunter, "hunt")
    assert state.call_rank is not None
    _check_rank(event.rank)
    if event.rank <= state.call_rank:
        raise IllegalMove(
            f"{event.hunter}'s card is {state.call_rank}: the prey must be higher "
            f"({state.call_rank + 1} to {HIGHEST_RANK}), got {event.rank}"
        )
    eaten = tuple(event.eaten)
    victims = []
    for name in eaten:
        seat = state.seat(name)
        if eaten.count(name) > 1:
            raise IllegalMove(f"{name} is listed twice among the eaten")
        if name == event.hunter:
            raise IllegalMove(f"{name} is the hunter and cannot eat their own card")
        if not seat.active:
            raise IllegalMove(f"{name} is not in this hunt and cannot be eaten")
        if not seat.face_down:
            raise IllegalMove(
                f"{name}'s card of hunt {state.hunt} is already face up and cannot be eaten"
            )
        if event.rank not in seat.hand:
            raise IllegalMove(
                f"{name} already played {event.rank} this round (each rank once per round)"
            )
        victims.append(replace(_turned_up(seat, event.rank), eaten=True, active=False))
    return _next_call(_with_seats(state, victims))


def _decline(state: GameState, event: Declined) -> GameState:
    _check_hunter(state, event.hunter, "decline a hunt")
    return _next_call(state)


def _check_hunter(state: GameState, hunter: str, action: str) -> None:
    state.seat(hunter)
    if state.phase != "hunt":
        raise IllegalMove(
            f"{hunter} cannot {action} now: nobody is the lone revealer of a closed call; "
            + describe_expectation(state)
        )
    lone = state.revealers[0]
    if hunter != lone:
        raise IllegalMove(
            f"{hunter} cannot {action}: only {lone}, the lone revealer of "
            f"{state.call_rank}, may hunt"
        )


def _check_rank(rank: object) -> None:
    if isinstance(rank, bool) or not isinstance(rank, int) or rank not in RANKS:
        raise IllegalMove(f"expected a rank from {RANKS[0]} to {HIGHEST_RANK}, got {rank!r}")


# --- automatic transitions ---------------------------------------------------------


def _next_call(state: GameState) -> GameState:
    """After a settled call: the next rank, or the end of the hunt."""
    assert state.call_rank is not None
    anything_down = any(s.active and s.face_down for s in state.seats)
    if state.call_rank == HIGHEST_RANK or not anything_down:
        return _end_hunt(state)
    return replace(state, phase="call", call_rank=state.call_rank + 1, revealers=())


def _end_hunt(state: GameState) -> GameState:
    survivors = [s for s in state.seats if s.active]
    if not survivors:
        raise AssertionError("invariant broken: a hunt ended with no survivor")
    if len(survivors) == 1 or state.hunt == HUNTS_PER_ROUND:
        return _end_round(state)
    seats = tuple(replace(s, has_played=False, face_down=False) for s in state.seats)
    caller = _next_player(state, state.caller) if state.config.rules == "original" else state.caller
    return replace(
        state,
        hunt=state.hunt + 1,
        phase="play",
        call_rank=None,
        revealers=(),
        seats=seats,
        caller=caller,
    )


def _end_round(state: GameState) -> GameState:
    result = score_round(state)
    totals = result.totals
    top = max(totals.values())
    leaders = [name for name, total in totals.items() if total == top]
    rounds = (*state.rounds, result)
    if top >= WINNING_TOTAL and len(leaders) == 1:
        return replace(
            state,
            phase="over",
            call_rank=None,
            revealers=(),
            totals=totals,
            rounds=rounds,
            winner=leaders[0],
        )
    # Both rule settings move the call one seat on at a round boundary.
    return replace(
        state,
        round=state.round + 1,
        hunt=1,
        phase="play",
        call_rank=None,
        caller=_next_player(state, state.caller),
        seats=tuple(SeatState(s.name) for s in state.seats),
        revealers=(),
        totals=totals,
        rounds=rounds,
    )


def score_round(state: GameState) -> RoundResult:
    """Score the round of `state` (every played card is face up by now)."""
    survivors = tuple(s.name for s in state.seats if not s.eaten)
    sums = {s.name: s.played_sum for s in state.seats}
    food: dict[str, int] = {}
    reasons: dict[str, Reason] = {}
    best = max(sums[name] for name in survivors)
    for seat in state.seats:
        if seat.eaten:
            food[seat.name], reasons[seat.name] = 0, "eaten"
        elif len(survivors) == 1:
            food[seat.name], reasons[seat.name] = FOOD_ALONE, "alone"
        elif sums[seat.name] == best:
            food[seat.name], reasons[seat.name] = FOOD_HIGHEST, "highest"
        else:
            food[seat.name], reasons[seat.name] = FOOD_SURVIVOR, "survivor"
    totals = {name: state.totals[name] + food[name] for name in state.config.players}
    return RoundResult(
        round=state.round,
        hunts=state.hunt,
        eaten=tuple(s.name for s in state.seats if s.eaten),
        survivors=survivors,
        food=FrozenMap(food),
        totals=FrozenMap(totals),
        reasons=FrozenMap(reasons),
        sums=FrozenMap(sums),
    )


def _next_player(state: GameState, name: str) -> str:
    players = state.config.players
    return players[(players.index(name) + 1) % len(players)]


def _turned_up(seat: SeatState, rank: int) -> SeatState:
    card = replace(seat.played[-1], rank=rank)
    return replace(seat, face_down=False, hand=seat.hand - {rank}, played=(*seat.played[:-1], card))


def _with_seats(state: GameState, changed: Iterable[SeatState]) -> GameState:
    by_name = {seat.name: seat for seat in changed}
    return replace(state, seats=tuple(by_name.get(s.name, s) for s in state.seats))
