"""The session log: game events plus the operator's undo and corrections.

The log is append-only (so the store never rewrites a row): taking back a fact or fixing
one appends an `Undone` or `Corrected` entry, and the facts in force are computed by
`effective`. The state is then rebuilt by `replay`, which is what makes undo and
corrections exact: there is no inverse of `apply` to get wrong.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from companion.rules.events import (
    CallClosed,
    Declined,
    GameConfig,
    GameEvent,
    Hunted,
    Played,
    Revealed,
    describe_event,
)
from companion.rules.state import GameState, IllegalMove, apply, initial_state


@dataclass(frozen=True, slots=True)
class Undone:
    """Take back the last fact still in force."""


@dataclass(frozen=True, slots=True)
class Corrected:
    """Replace the fact in force at 0-based position `index` with `event`."""

    index: int
    event: GameEvent


LogEntry = GameEvent | Undone | Corrected


class LogFormatError(ValueError):
    """A stored or typed log entry that is not one of the known shapes."""


def effective(entries: Iterable[LogEntry]) -> tuple[GameEvent, ...]:
    """The game events in force after applying every undo and correction in order.

    Raises `IllegalMove` for an undo with nothing left or a correction of a fact that
    does not exist. It does not check the rules: `replay` does.
    """
    events: list[GameEvent] = []
    for entry in entries:
        if isinstance(entry, Undone):
            if not events:
                raise IllegalMove("nothing to undo: no fact has been recorded yet")
            events.pop()
        elif isinstance(entry, Corrected):
            if not 0 <= entry.index < len(events):
                raise IllegalMove(
                    f"no fact {entry.index + 1} to correct: expected 1 to {len(events)}"
                )
            events[entry.index] = entry.event
        else:
            events.append(entry)
    return tuple(events)


def replay(config: GameConfig, events: Iterable[GameEvent]) -> GameState:
    """Fold `events` over the initial state of `config`.

    A refused fact raises `IllegalMove` whose message starts with its 1-based number and
    what it was, e.g. "fact 7 (Ben reveals 4): Ben already played 4 this round ...".
    """
    state = initial_state(config)
    for number, event in enumerate(events, start=1):
        try:
            state = apply(state, event)
        except IllegalMove as error:
            raise IllegalMove(f"fact {number} ({describe_event(event)}): {error}") from None
    return state


def encode_config(config: GameConfig) -> dict[str, object]:
    """The game line's object of the table log (also what the store keeps)."""
    return {
        "players": list(config.players),
        "rules": config.rules,
        "first_caller": config.first_caller,
    }


def decode_config(data: Mapping[str, object]) -> GameConfig:
    """Inverse of `encode_config`; shapes are checked, the rules by `initial_state`."""
    if not isinstance(data, Mapping):
        raise LogFormatError(f"expected a game object, got {data!r}")
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise LogFormatError(f"expected players as a list of names, got {players!r}")
    rules = data.get("rules", "original")
    first_caller = data.get("first_caller")
    if not isinstance(rules, str):
        raise LogFormatError(f"expected rules as text, got {rules!r}")
    if first_caller is not None and not isinstance(first_caller, str):
        raise LogFormatError(f"expected first_caller as a name, got {first_caller!r}")
    return GameConfig(players=tuple(players), rules=rules, first_caller=first_caller)  # type: ignore[arg-type]


def encode_entry(entry: LogEntry) -> dict[str, object]:
    """A JSON-ready dict for one log entry (the store keeps these)."""
    match entry:
        case Played(player):
            return {"type": "played", "player": player}
        case Revealed(player, rank):
            return {"type": "revealed", "player": player, "rank": rank}
        case CallClosed():
            return {"type": "call_closed"}
        case Hunted(hunter, rank, eaten):
            return {"type": "hunted", "hunter": hunter, "rank": rank, "eaten": list(eaten)}
        case Declined(hunter):
            return {"type": "declined", "hunter": hunter}
        case Undone():
            return {"type": "undone"}
        case Corrected(index, event):
            return {"type": "corrected", "index": index, "event": encode_entry(event)}
    raise LogFormatError(f"expected a log entry, got {entry!r}")


def decode_entry(data: Mapping[str, object]) -> LogEntry:
    """Inverse of `encode_entry`; raises `LogFormatError` saying which shape was expected."""
    if not isinstance(data, Mapping):
        raise LogFormatError(f"expected a log entry object, got {data!r}")
    kind = data.get("type")
    try:
        match kind:
            case "played":
                return Played(_text(data, "player"))
            case "revealed":
                return Revealed(_text(data, "player"), _number(data, "rank"))
            case "call_closed":
                return CallClosed()
            case "hunted":
                eaten = data.get("eaten", [])
                if not isinstance(eaten, list) or not all(isinstance(n, str) for n in eaten):
                    raise LogFormatError(f"expected eaten as a list of names, got {eaten!r}")
                return Hunted(_text(data, "hunter"), _number(data, "rank"), tuple(eaten))
            case "declined":
                return Declined(_text(data, "hunter"))
            case "undone":
                return Undone()
            case "corrected":
                event = decode_entry(data.get("event"))  # type: ignore[arg-type]
                if isinstance(event, Undone | Corrected):
                    raise LogFormatError("a correction must replace a game event")
                return Corrected(_number(data, "index"), event)
    except KeyError as missing:
        raise LogFormatError(f"entry of type {kind!r} lacks {missing}") from None
    raise LogFormatError(
        "expected type played, revealed, call_closed, hunted, declined, undone or "
        f"corrected, got {kind!r}"
    )


def _text(data: Mapping[str, object], key: str) -> str:
    value = data[key]
    if not isinstance(value, str):
        raise LogFormatError(f"expected {key} as text, got {value!r}")
    return value


def _number(data: Mapping[str, object], key: str) -> int:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise LogFormatError(f"expected {key} as a whole number, got {value!r}")
    return value
