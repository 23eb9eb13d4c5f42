"""Keys to facts: what a key press at the table screen means in the current state.

The dashboard enters one fact per key, but a call or a hunt is several facts that only
make sense together (who revealed, then "the call is closed"; the prey's rank, then who
was eaten). Those keys build a `Pending` selection that stays in the UI until Enter, and
only then become events for the session. Every key is checked against the engine first
(by applying the would-be events to the current state, which is pure), so an illegal key
shows the engine's own message and changes nothing.

This module is pure (no Textual): the screen calls these functions and submits the
events they return.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from companion.rules.events import CallClosed, Declined, GameEvent, Hunted, Played, Revealed
from companion.rules.state import GameState, IllegalMove, apply, expects


@dataclass(frozen=True, slots=True)
class Pending:
    """Toggled, not yet confirmed input: seats marked, and the prey's rank in a hunt."""

    seats: frozenset[str] = frozenset()
    prey_rank: int | None = None

    @property
    def empty(self) -> bool:
        return not self.seats and self.prey_rank is None


@dataclass(frozen=True, slots=True)
class KeyResult:
    """What a key did: the new pending selection, the events to submit, or why not."""

    pending: Pending
    events: tuple[GameEvent, ...] = ()
    refused: str | None = None  # the reason, shown to the operator; nothing changes
    hint: str | None = None  # a neutral note (nothing refused)


def check(state: GameState, events: Iterable[GameEvent]) -> str | None:
    """The engine's message if `events` cannot follow `state` in this order, else None."""
    try:
        for event in events:
            state = apply(state, event)
    except IllegalMove as error:
        return str(error)
    return None


def seat_name(state: GameState, number: int) -> str | None:
    """The player in seat `number` (1-based, clockwise as configured), if there is one."""
    players = state.config.players
    return players[number - 1] if 1 <= number <= len(players) else None


def _in_seat_order(state: GameState, names: Iterable[str]) -> tuple[str, ...]:
    chosen = set(names)
    return tuple(p for p in state.config.players if p in chosen)


def _reveal_events(state: GameState, seats: Iterable[str]) -> tuple[GameEvent, ...]:
    rank = state.call_rank
    assert rank is not None, "a call phase always has a rank"
    return tuple(Revealed(player, rank) for player in _in_seat_order(state, seats))


def _no_seat(state: GameState, number: int, pending: Pending) -> KeyResult:
    count = len(state.config.players)
    return KeyResult(pending, refused=f"There is no seat {number}: the seats are 1 to {count}.")


def _game_over(state: GameState, pending: Pending) -> KeyResult:
    return KeyResult(pending, refused=f"The game is over: {state.winner} won. Press u to undo.")


def press_digit(state: GameState, pending: Pending, digit: int) -> KeyResult:
    """A digit 1-5: a seat that played, a seat that revealed, or the prey's rank."""
    if state.phase == "over":
        return _game_over(state, pending)
    if state.phase == "hunt" and pending.prey_rank is None:
        return _choose_prey(state, pending, digit)
    player = seat_name(state, digit)
    if player is None:
        return _no_seat(state, digit, pending)
    if state.phase == "play":
        event = Played(player)
        refused = check(state, [event])
        return KeyResult(pending, refused=refused) if refused else KeyResult(pending, (event,))
    return _toggle_seat(state, pending, player)


def _choose_prey(state: GameState, pending: Pending, rank: int) -> KeyResult:
    hunter = expects(state).hunter
    assert hunter is not None, "the hunt phase always has a hunter"
    refused = check(state, [Hunted(hunter, rank, ())])
    if refused:
        return KeyResult(pending, refused=refused)
    return KeyResult(replace(pending, prey_rank=rank))


def _toggle_seat(state: GameState, pending: Pending, player: str) -> KeyResult:
    seats = pending.seats ^ {player}
    if player in pending.seats:  # taking a mark back is always allowed
        return KeyResult(replace(pending, seats=seats))
    if state.phase == "call":
        refused = check(state, _reveal_events(state, seats))
    else:
        hunter = expects(state).hunter
        assert hunter is not None and pending.prey_rank is not None
        refused = check(state, [Hunted(hunter, pending.prey_rank, _in_seat_order(state, seats))])
    if refused:
        return KeyResult(pending, refused=refused)
    return KeyResult(replace(pending, seats=seats))


def press_all(state: GameState, pending: Pending) -> KeyResult:
    """`a`: everyone still to play has put a card down."""
    if state.phase != "play":
        return KeyResult(pending, refused="a (all played) only works while cards are played.")
    events = tuple(Played(player) for player in expects(state).to_play)
    refused = check(state, events)
    return KeyResult(pending, refused=refused) if refused else KeyResult(pending, events)


def press_confirm(state: GameState, pending: Pending) -> KeyResult:
    """Enter: the marked seats are what happened at this call or hunt."""
    if state.phase == "over":
        return _game_over(state, pending)
    if state.phase == "play":
        return KeyResult(pending, hint="Enter confirms a call or a hunt; now press seat numbers.")
    if state.phase == "call":
        events = (*_reveal_events(state, pending.seats), CallClosed())
    else:
        hunter = expects(state).hunter
        assert hunter is not None
        if pending.prey_rank is None:
            ranks = ", ".join(str(r) for r in expects(state).prey_ranks)
            return KeyResult(
                pending, refused=f"First the prey's rank ({ranks}), or n if {hunter} does not hunt."
            )
        eaten = _in_seat_order(state, pending.seats)
        events = (Hunted(hunter, pending.prey_rank, eaten),)
    refused = check(state, events)
    return KeyResult(pending, refused=refused) if refused else KeyResult(Pending(), events)


def press_nobody(state: GameState, pending: Pending) -> KeyResult:
    """`n`: nobody revealed the called rank, or the lone hunter does not hunt."""
    if state.phase == "call":
        if pending.seats:
            return KeyResult(
                pending, refused="Seats are marked: Enter confirms them, Escape clears them."
            )
        events: tuple[GameEvent, ...] = (CallClosed(),)
    elif state.phase == "hunt":
        hunter = expects(state).hunter
        assert hunter is not None
        events = (Declined(hunter),)
    elif state.phase == "over":
        return _game_over(state, pending)
    else:
        return KeyResult(pending, refused="n (nobody) only works during a call or a hunt.")
    refused = check(state, events)
    return KeyResult(pending, refused=refused) if refused else KeyResult(Pending(), events)
