"""The table log (shared/spec/table-log.md): a game as a JSON Lines file, and back.

A log line says what each player put down in a hunt and which prey each lone revealer
named; `hunt_events` turns that into the facts the table would have seen, in order
(cards put down, reveals call by call, hunts or declines), and the engine checks them.
So a log is legal exactly when the engine accepts its facts, and every refusal carries
the line it came from.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from companion.rules.events import (
    RANKS,
    CallClosed,
    Declined,
    GameConfig,
    GameEvent,
    Hunted,
    Played,
    Revealed,
)
from companion.rules.frozen import FrozenMap
from companion.rules.log import LogFormatError, decode_config, encode_config, replay
from companion.rules.state import (
    HIGHEST_RANK,
    ConfigError,
    GameState,
    IllegalMove,
    apply,
    initial_state,
)


class TableLogError(ValueError):
    """A log the rules or the format refuse; `line` is the 1-based line of the file."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


def read_table_log(text: str) -> tuple[GameConfig, tuple[GameEvent, ...]]:
    """Parse and check a whole log; raises `TableLogError` at the first problem."""
    config: GameConfig | None = None
    state: GameState | None = None
    events: list[GameEvent] = []
    last_line = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        last_line = number
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        data = _parse_line(number, line)
        if state is None:
            if "game" not in data:
                raise TableLogError(
                    number, 'expected the game line first: {"game": {"players": [...]}}'
                )
            state = _read_game(number, data["game"])
            config = state.config
            continue
        if "game" in data:
            raise TableLogError(number, "a second game line: a log holds exactly one game")
        if "hunt" not in data:
            raise TableLogError(number, 'expected a hunt line: {"hunt": {"played": {...}}}')
        if state.phase == "over":
            raise TableLogError(
                number, f"the game is already over ({state.winner} won): no more hunts"
            )
        played, prey = _read_hunt(number, data["hunt"], state)
        try:
            new_events, state = hunt_events(state, played, prey)
        except IllegalMove as error:
            raise TableLogError(number, str(error)) from None
        events.extend(new_events)
    if config is None:
        raise TableLogError(
            max(last_line, 1), 'empty log: expected a game line {"game": {"players": [...]}}'
        )
    return config, tuple(events)


def hunt_events(
    state: GameState, played: Mapping[str, int], prey: Mapping[str, int]
) -> tuple[tuple[GameEvent, ...], GameState]:
    """The facts of one hunt from what was played and named, and the state after them.

    `played` must name exactly the players still in the round; raises `IllegalMove` if
    the engine refuses a fact or a `prey` entry was never used (no lone revealer).
    """
    events: list[GameEvent] = []

    def record(event: GameEvent) -> None:
        nonlocal state
        state = apply(state, event)
        events.append(event)

    for name in state.config.players:
        if name in played:
            record(Played(name))
    this_hunt = (state.round, state.hunt)
    hunted: set[str] = set()
    while state.phase in ("call", "hunt") and (state.round, state.hunt) == this_hunt:
        if state.phase == "call":
            for seat in state.seats:
                if seat.active and seat.face_down and played[seat.name] == state.call_rank:
                    record(Revealed(seat.name, state.call_rank))
            record(CallClosed())
            continue
        hunter = state.revealers[0]
        if hunter not in prey:
            record(Declined(hunter))
            continue
        hunted.add(hunter)
        prey_rank = prey[hunter]
        eaten = tuple(
            s.name for s in state.seats if s.active and s.face_down and played[s.name] == prey_rank
        )
        record(Hunted(hunter, prey_rank, eaten))
    for name in prey:
        if name not in hunted:
            reason = (
                f"a {HIGHEST_RANK} cannot hunt"
                if played.get(name) == HIGHEST_RANK
                else "blocked or eaten before the call of their card"
            )
            raise IllegalMove(
                f"prey for {name}, but {name} was not the lone revealer of a call ({reason})"
            )
    return tuple(events), state


@dataclass(frozen=True, slots=True)
class HuntRecord:
    """One completed hunt: the card each player put down and the hunts that were made."""

    round: int
    hunt: int
    played: Mapping[str, int]  # in seat order
    hunts: tuple[Hunted, ...]

    @property
    def prey(self) -> dict[str, int]:
        """The table log's `prey`: each hunter and the rank they named."""
        return {h.hunter: h.rank for h in self.hunts}


def completed_hunts(config: GameConfig, events: Iterable[GameEvent]) -> tuple[HuntRecord, ...]:
    """Every completed hunt of a game (a hunt still in progress is left out)."""
    state = initial_state(config)
    records: list[HuntRecord] = []
    played: dict[str, int] = {}
    hunts: list[Hunted] = []
    for event in events:
        before = state
        state = apply(state, event)
        match event:
            case Revealed(player, rank):
                played[player] = rank
            case Hunted(_, rank, eaten):
                hunts.append(event)
                played.update(dict.fromkeys(eaten, rank))
        moved_on = (state.round, state.hunt) != (before.round, before.hunt)
        if moved_on or state.phase == "over":
            ordered = {name: played[name] for name in state.config.players if name in played}
            records.append(HuntRecord(before.round, before.hunt, FrozenMap(ordered), tuple(hunts)))
            played, hunts = {}, []
    return tuple(records)


def write_table_log(config: GameConfig, events: Iterable[GameEvent]) -> str:
    """The log of a game: the game line and one line per completed hunt.

    A hunt still in progress at the end is left out (its face-down cards are unknown).
    Each hunt line also carries `round` (ignored on input) for people reading the file.
    """
    lines = [json.dumps({"game": encode_config(initial_state(config).config)})]
    for record in completed_hunts(config, events):
        hunt = {"played": dict(record.played), "prey": record.prey}
        lines.append(json.dumps({"hunt": hunt, "round": record.round}))
    return "\n".join(lines) + "\n"


def replay_summary(config: GameConfig, events: Iterable[GameEvent]) -> dict[str, object]:
    """Exactly what `companion replay --json` prints (table-log.md)."""
    state = replay(config, events)
    return {
        "players": list(state.config.players),
        "rounds": [
            {
                "round": result.round,
                "hunts": result.hunts,
                "eaten": list(result.eaten),
                "survivors": list(result.survivors),
                "food": dict(result.food),
                "totals": dict(result.totals),
            }
            for result in state.rounds
        ],
        "winner": state.winner,
        "status": "finished" if state.phase == "over" else "in_progress",
    }


def _parse_line(number: int, line: str) -> dict:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        raise TableLogError(
            number, f"malformed JSON: {error.msg} at column {error.colno}"
        ) from None
    if not isinstance(data, dict):
        raise TableLogError(number, f"expected a JSON object, got {type(data).__name__}")
    return data


def _read_game(number: int, data: object) -> GameState:
    try:
        if not isinstance(data, dict):
            raise LogFormatError(f"expected the game as an object, got {data!r}")
        return initial_state(decode_config(data))
    except (LogFormatError, ConfigError) as error:
        raise TableLogError(number, str(error)) from None


def _read_hunt(
    number: int, data: object, state: GameState
) -> tuple[dict[str, int], dict[str, int]]:
    """Check the shape of a hunt line against who is still in the round."""
    if not isinstance(data, dict):
        raise TableLogError(number, f"expected the hunt as an object, got {data!r}")
    played = data.get("played")
    prey = data.get("prey", {})
    if not isinstance(played, dict):
        raise TableLogError(
            number, f'expected "played" as an object of player: card, got {played!r}'
        )
    if not isinstance(prey, dict):
        raise TableLogError(number, f'expected "prey" as an object of player: rank, got {prey!r}')
    players = state.config.players
    for name, rank in [*played.items(), *prey.items()]:
        if name not in players:
            raise TableLogError(
                number, f"unknown player {name!r}: expected one of {', '.join(players)}"
            )
        if isinstance(rank, bool) or not isinstance(rank, int) or rank not in RANKS:
            raise TableLogError(
                number, f"{name}: expected a rank from {RANKS[0]} to {HIGHEST_RANK}, got {rank!r}"
            )
    for seat in state.seats:
        if seat.eaten and seat.name in played:
            raise TableLogError(
                number,
                f"{seat.name} was eaten in round {state.round} and cannot play "
                "until the next round",
            )
        if not seat.eaten and seat.name not in played:
            raise TableLogError(
                number,
                f"{seat.name} is missing from played: every player still in round "
                f"{state.round} plays a card",
            )
        if seat.name in played and played[seat.name] not in seat.hand:
            raise TableLogError(
                number, f"{seat.name} played {played[seat.name]} twice in round {state.round}"
            )
    for name in prey:
        if name not in played:
            raise TableLogError(number, f"prey for {name}, who did not play in this hunt")
    return played, prey
