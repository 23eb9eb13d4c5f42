"""What the companion says about each fact: language-free message ids with parameters.

`announce(before, event, after)` compares the states around one accepted fact and lists
what the table should hear (the call of the next rank, the outcome of a call, the end of
a hunt or a round, the winner). The text itself is `companion.i18n.render`'s job; the ids
and params are the table in docs/design.md. Nothing here ever names the rank of a card
that is still face down.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from companion.rules.events import CallClosed, Declined, GameEvent, Hunted
from companion.rules.frozen import FrozenMap
from companion.rules.state import HIGHEST_RANK, WINNING_TOTAL, GameState, RoundResult, expects


@dataclass(frozen=True, slots=True)
class Announcement:
    """One thing to say: a message id of docs/design.md and its parameters."""

    msg: str
    params: Mapping[str, object] = field(default_factory=FrozenMap)


def say(msg: str, **params: object) -> Announcement:
    """Build an `Announcement` with read-only params (lists given as tuples)."""
    return Announcement(msg, FrozenMap(params))


def announce(before: GameState, event: GameEvent, after: GameState) -> tuple[Announcement, ...]:
    """What to say after `event` moved the game from `before` to `after`."""
    said: list[Announcement] = []
    match event:
        case CallClosed():
            said.extend(_call_outcome(before))
        case Hunted(hunter, prey_rank, eaten):
            if eaten:
                said.append(
                    say(
                        "eaten",
                        hunter=hunter,
                        rank=before.call_rank,
                        prey_rank=prey_rank,
                        players=tuple(eaten),
                    )
                )
            else:
                said.append(say("prey_missing", hunter=hunter, prey_rank=prey_rank))
        case Declined(hunter):
            said.append(say("declined", player=hunter))
    said.extend(_what_follows(before, after))
    return tuple(said)


def opening(state: GameState) -> tuple[Announcement, ...]:
    """What to say when a game starts or resumes: where the table stands."""
    if state.phase == "over":
        assert state.winner is not None
        return (say("winner", player=state.winner, total=state.totals[state.winner]),)
    said = [say("round_start", round=state.round, caller=state.caller)]
    if state.phase == "play":
        said.append(_hunt_start(state))
    elif state.phase == "call":
        said.append(say("call", rank=state.call_rank))
    else:
        said.append(say("lone_hunter", player=state.revealers[0], rank=state.call_rank))
    return tuple(said)


def _call_outcome(before: GameState) -> list[Announcement]:
    rank = before.call_rank
    revealers = before.revealers
    if not revealers:
        return [say("nobody", rank=rank)]
    if len(revealers) > 1:
        return [say("blocked", players=revealers, rank=rank)]
    if rank == HIGHEST_RANK:
        return [say("lone_cannot_hunt", player=revealers[0], rank=rank)]
    return [say("lone_hunter", player=revealers[0], rank=rank)]


def _what_follows(before: GameState, after: GameState) -> list[Announcement]:
    """The automatic part: next call, end of hunt, end of round, end of game."""
    if len(after.rounds) > len(before.rounds):
        return _round_end(after.rounds[-1], after)
    if after.hunt != before.hunt:
        survivors = tuple(s.name for s in after.seats if s.active)
        return [say("hunt_end", hunt=before.hunt, survivors=survivors), _hunt_start(after)]
    if after.phase == "call" and (before.phase != "call" or after.call_rank != before.call_rank):
        return [say("call", rank=after.call_rank)]
    return []


def _round_end(result: RoundResult, after: GameState) -> list[Announcement]:
    said: list[Announcement] = []
    if len(result.survivors) == 1:
        alone = result.survivors[0]
        said.append(say("round_alone", round=result.round, player=alone, food=result.food[alone]))
    else:
        for name in result.survivors:
            said.append(
                say(
                    "round_food",
                    player=name,
                    food=result.food[name],
                    reason=result.reasons[name],
                    sum=result.sums[name],
                )
            )
        if result.eaten:
            said.append(say("round_eaten", players=result.eaten))
    said.append(say("totals", totals=tuple(result.totals.items())))
    if after.winner is not None:
        said.append(say("winner", player=after.winner, total=after.totals[after.winner]))
        return said
    top = max(result.totals.values())
    leaders = tuple(name for name, total in result.totals.items() if total == top)
    if top >= WINNING_TOTAL and len(leaders) > 1:
        said.append(say("tie_play_on", players=leaders, total=top))
    said.append(say("round_start", round=after.round, caller=after.caller))
    said.append(_hunt_start(after))
    return said


def _hunt_start(state: GameState) -> Announcement:
    return say("hunt_start", hunt=state.hunt, caller=state.caller, players=expects(state).to_play)
