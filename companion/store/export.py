"""A game written out for people and other programs: table log, CSV, Markdown, text.

All of these are computed from the configuration and the facts in force, so an export
always agrees with `companion replay` on the same game.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from companion.rules.events import GameConfig, GameEvent, describe_event
from companion.rules.log import replay
from companion.rules.state import GameState, RoundResult
from companion.rules.tablelog import HuntRecord, completed_hunts, write_table_log

FORMATS = ("jsonl", "csv", "md")

_REASON_TEXT = {
    "alone": "survives alone",
    "highest": "highest sum",
    "survivor": "survivor",
    "eaten": "eaten",
}


def to_jsonl(config: GameConfig, events: Iterable[GameEvent]) -> str:
    """The table log (re-importable with `companion replay`)."""
    return write_table_log(config, events)


def to_csv(config: GameConfig, events: Iterable[GameEvent]) -> str:
    """One row per player per completed round."""
    state = replay(config, events)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["round", "hunts", "player", "result", "sum", "food", "total"])
    for result in state.rounds:
        for name in state.config.players:
            writer.writerow(
                [
                    result.round,
                    result.hunts,
                    name,
                    result.reasons[name],
                    result.sums[name],
                    result.food[name],
                    result.totals[name],
                ]
            )
    return out.getvalue()


def to_markdown(config: GameConfig, events: Iterable[GameEvent]) -> str:
    """A summary to paste anywhere: one table per round and the outcome."""
    state = replay(config, events)
    lines = [
        f"# Prey Another Day: {', '.join(state.config.players)}",
        "",
        f"Rules: {state.config.rules}. {_outcome(state)}",
    ]
    for result in state.rounds:
        lines += [
            "",
            f"## Round {result.round} ({_hunts(result)})",
            "",
            "| Player | Sum | Result | Food | Total |",
            "| --- | ---: | --- | ---: | ---: |",
        ]
        for name in state.config.players:
            lines.append(
                f"| {name} | {result.sums[name]} | {_REASON_TEXT[result.reasons[name]]} "
                f"| +{result.food[name]} | {result.totals[name]} |"
            )
    return "\n".join(lines) + "\n"


def to_text(config: GameConfig, events: Iterable[GameEvent]) -> str:
    """The round-by-round summary printed by `companion replay` and `history show`."""
    events = tuple(events)
    state = replay(config, events)
    width = max(len(name) for name in state.config.players)
    lines = [f"Players: {', '.join(state.config.players)} (rules: {state.config.rules})"]
    hunts = completed_hunts(config, events)
    for result in state.rounds:
        lines.append(f"Round {result.round} ({_hunts(result)})")
        lines += [_hunt_line(record) for record in hunts if record.round == result.round]
        for name in _by_food(result, state.config.players):
            reason = _REASON_TEXT[result.reasons[name]]
            if result.reasons[name] == "highest":
                reason += f" {result.sums[name]}"
            elif result.reasons[name] == "survivor":
                reason += f", sum {result.sums[name]}"
            lines.append(
                f"  {name:<{width}}  {reason:<20}  +{result.food[name]}  "
                f"total {result.totals[name]}"
            )
    lines.append(_outcome(state))
    return "\n".join(lines) + "\n"


def _hunt_line(record: HuntRecord) -> str:
    """E.g. "hunt 1: Alia 1, Ben 4, Dori 2 | Alia hunts 4: Ben eaten"."""
    cards = ", ".join(f"{name} {rank}" for name, rank in record.played.items())
    return " | ".join([f"  hunt {record.hunt}: {cards}", *map(describe_event, record.hunts)])


def _outcome(state: GameState) -> str:
    if state.winner is not None:
        return f"Winner: {state.winner} with {state.totals[state.winner]} food."
    return f"In progress: round {state.round}, hunt {state.hunt}."


def _hunts(result: RoundResult) -> str:
    return "1 hunt" if result.hunts == 1 else f"{result.hunts} hunts"


def _by_food(result: RoundResult, players: tuple[str, ...]) -> list[str]:
    """Survivors first (most food first), then the eaten, seat order within each."""
    return sorted(players, key=lambda name: -result.food[name])
