"""The facts of a game, as the table learns them, in order.

A game is its configuration plus an append-only list of these events; every state is a
fold of `apply` over them. Events carry only what the table can know at that moment: a
card put down is just `Played(player)`, its rank becomes known when it is revealed.
Undo and corrections are not events of the game itself: they are entries of the session
log (`companion.rules.log`) that change which game events are in force, and the state is
rebuilt by replay.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

RuleSet = Literal["original", "playing-cards"]
RULE_SETS: tuple[RuleSet, ...] = ("original", "playing-cards")
RANKS: tuple[int, ...] = (1, 2, 3, 4, 5)


@dataclass(frozen=True, slots=True)
class GameConfig:
    """Who sits where (clockwise), which rule setting, who calls first."""

    players: tuple[str, ...]
    rules: RuleSet = "original"
    first_caller: str | None = None  # None: the first player


@dataclass(frozen=True, slots=True)
class Played:
    """`player` put one card face down for the current hunt."""

    player: str


@dataclass(frozen=True, slots=True)
class Revealed:
    """`player` turned up a card of `rank` at the current call (rank must be the call)."""

    player: str
    rank: int


@dataclass(frozen=True, slots=True)
class CallClosed:
    """The table has settled on the current call: every card of that rank is up.

    With no revealer or a block the calling moves on; with a lone revealer (below 5)
    the engine then waits for `Hunted` or `Declined`.
    """


@dataclass(frozen=True, slots=True)
class Hunted:
    """The lone revealer `hunter` named `rank`; the players in `eaten` turned up that rank.

    `eaten` may be empty (nobody had played that rank: the prey was not there).
    """

    hunter: str
    rank: int
    eaten: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # Callers may pass a list; a tuple keeps the event hashable and equal to its replay.
        if isinstance(self.eaten, str):
            raise TypeError(f"expected eaten as a tuple of names, got {self.eaten!r}")
        object.__setattr__(self, "eaten", tuple(self.eaten))


@dataclass(frozen=True, slots=True)
class Declined:
    """The lone revealer `hunter` chose not to hunt (or let the time run out)."""

    hunter: str


GameEvent = Played | Revealed | CallClosed | Hunted | Declined


def describe_event(event: GameEvent) -> str:
    """One English line for a fact, for error messages and the running event log.

    Kept here (not in i18n) because the engine's own messages need it and must not
    depend on another layer; spoken texts go through `narration` and `i18n` instead.
    """
    match event:
        case Played(player):
            return f"{player} plays a card"
        case Revealed(player, rank):
            return f"{player} reveals {rank}"
        case CallClosed():
            return "the call is closed"
        case Hunted(hunter, rank, eaten):
            victims = ", ".join(eaten) if eaten else "nobody"
            return f"{hunter} hunts {rank}: {victims} eaten"
        case Declined(hunter):
            return f"{hunter} does not hunt"
    raise TypeError(f"expected a game event, got {event!r}")
