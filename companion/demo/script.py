"""A game's facts turned into what a camera above the table would see, moment by moment.

A `Moment` is the whole table for a stretch of time: each seat's played cards (in slot
order, face down or up), the eaten player's hand laid face down, a hand reaching over a
seat, motion blur, and the operator's keys for what no camera can see (a hunter naming
a prey nobody played). The scripter plays the table as a real one does: cards are put
down one by one, turned up at their call, prey turned up by the hunt, the eaten lay
their hand down, cards are picked up at round end.

`GameScripter` scripts a table where a player calls (the referee follows in
`caller="table"` mode): the table goes at its own pace and holds still only where the
referee must wait (a lone hunter's time, the prey-or-call signal), per its `Timing`.
With the companion calling, `demo.pacing.CompanionScripter` makes each action wait for
the companion (`sync`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from companion.referee.live import Timing
from companion.referee.operator import EnterPrey
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
from companion.vision.types import Face


@dataclass(frozen=True, slots=True)
class SeatCards:
    """One seat's cards: played this round in slot order, and the hand laid down."""

    played: tuple[tuple[int, Face], ...] = ()
    laid: int = 0


@dataclass(frozen=True, slots=True)
class Moment:
    """The table for `seconds`; `hand_at` (seat, slot) a hand over a card (-1: the hand row)."""

    seconds: float
    seats: Mapping[str, SeatCards]
    hand_at: tuple[str, int] | None = None
    blur: float = 0.0
    operator: tuple[EnterPrey, ...] = ()
    camera: bool = True  # False: no frames at all (the camera is lost)
    light: float = 1.0  # the room light, relative to the film's


LIGHT_LEVELS = (1.0, 0.85, 1.12, 0.93)  # the room light changes between rounds


@dataclass(frozen=True, slots=True)
class Pacing:
    """Seconds each kind of action takes on the table."""

    reach: float = 0.3  # a hand over the table (putting down, turning up, picking up)
    pause: float = 0.4  # stillness after an action
    call_gap: float = 0.5  # between two calls
    scoring: float = 1.0  # at a round's end, before the cards are picked up
    clear: float = 2.5  # the empty table after pick-up (the tracker lets go of the cards)
    margin: float = 0.6  # beyond a referee wait


@dataclass
class _Table:
    """The physical table while scripting."""

    players: tuple[str, ...]
    cards: dict[str, list[tuple[int, Face]]] = field(default_factory=dict)
    laid: dict[str, int] = field(default_factory=dict)

    def snapshot(self) -> dict[str, SeatCards]:
        return {
            name: SeatCards(tuple(self.cards.get(name, ())), self.laid.get(name, 0))
            for name in self.players
        }


class GameScripter:
    """Builds the moments of a game from its facts (see the module docstring)."""

    def __init__(self, config: GameConfig, timing: Timing, pacing: Pacing | None = None) -> None:
        self.state = initial_state(config)
        self.players = self.state.config.players
        self.timing = timing
        self.pacing = pacing or Pacing()
        self.table = _Table(self.players)
        self.moments: list[Moment] = []
        self.light = LIGHT_LEVELS[0]

    # --- primitives --------------------------------------------------------------

    def show(self, seconds: float, **details: object) -> None:
        """The table as it is now, for `seconds` (with a hand, blur, keys: `details`)."""
        self.moments.append(
            Moment(seconds, self.table.snapshot(), light=self.light, **details)  # type: ignore[arg-type]
        )

    def hold(self, seconds: float, operator: tuple[EnterPrey, ...] = ()) -> None:
        """The table still for `seconds`."""
        self.show(seconds, operator=operator)

    def reach(self, seat: str, slot: int, blur: float = 0.0) -> None:
        """A hand over `seat` while the table changes under it, then a still pause."""
        self.show(self.pacing.reach, hand_at=(seat, slot), blur=blur)
        self.hold(self.pacing.pause)

    def put_down(self, seat: str, rank: int) -> None:
        self.table.cards.setdefault(seat, []).append((rank, "down"))
        self.reach(seat, len(self.table.cards[seat]) - 1)

    def turn_up(
        self, seats: Iterable[str], rank: int, laid: Mapping[str, int] | None = None
    ) -> None:
        """`seats` turn their last card up at once; the eaten also lay down their `laid`."""
        seats = list(seats)
        for seat in seats:
            cards = self.table.cards[seat]
            cards[-1] = (rank, "up")
        self.table.laid.update(laid or {})
        self.reach(seats[0], len(self.table.cards[seats[0]]) - 1, blur=4.0)

    def pick_up(self) -> None:
        self.hold(max(self.pacing.scoring, self.timing.signal_window + self.pacing.margin))
        for seat in self.players:
            if self.table.cards.get(seat) or self.table.laid.get(seat):
                self.table.cards[seat] = []
                self.table.laid[seat] = 0
                self.show(self.pacing.reach, hand_at=(seat, 0))
        self.light = LIGHT_LEVELS[(LIGHT_LEVELS.index(self.light) + 1) % len(LIGHT_LEVELS)]
        self.hold(self.pacing.clear)

    # --- the game ----------------------------------------------------------------

    def play(self, events: Iterable[GameEvent]) -> list[Moment]:
        """Script every complete hunt of `events` (a hunt cut off at the end is left out),
        ending on a still table."""
        events = complete_hunts(self.state, events)
        ranks = played_ranks(self.state, events)
        self.hold(self.pacing.pause)
        reveal_from, revealing = 0, []
        for index, event in enumerate(events):
            before = self.state
            self.state = apply(before, event)
            if not isinstance(event, Revealed) and revealing:
                self.sync(reveal_from)
                self.turn_up(revealing, before.call_rank or 0)
                revealing = []
            match event:
                case Played(player):
                    self.sync(index)
                    self.put_down(player, ranks[(before.round, before.hunt, player)])
                case Revealed(player, _):
                    reveal_from = index if not revealing else reveal_from
                    revealing.append(player)
                case CallClosed():
                    self._after_close(before)
                case Hunted(hunter, rank, eaten):
                    self.sync(index)
                    self._hunted(before, hunter, rank, eaten)
                case Declined():
                    self._declined()
            if self.state.round != before.round or self.state.phase == "over":
                self.sync(index + 1)
                self.pick_up()
            elif self.state.hunt != before.hunt:
                self.hold(self.timing.signal_window + self.pacing.margin)
        self.sync(len(events))
        self.hold(max(self.timing.hunt_timeout, self.timing.signal_window) + self.pacing.margin)
        return self.moments

    def sync(self, done: int) -> None:
        """Wait until the referee has recorded the first `done` facts (here: nothing to
        wait for, a player calls at the table's own pace; see `CompanionScripter`)."""

    def _after_close(self, before: GameState) -> None:
        """The pause before the next call; a lone revealer with nothing left face down
        makes the referee wait out the hunter's time instead (see `_declined`)."""
        if not (self.state.phase == "hunt" and not _anything_down(self.state)):
            self.hold(self.pacing.call_gap)

    def _hunted(self, before: GameState, hunter: str, rank: int, eaten: tuple[str, ...]) -> None:
        if not eaten:
            self.hold(self.pacing.pause, operator=(EnterPrey(hunter, rank),))
            self._after_close(before)
            return
        hands = {seat: before.seat(seat).cards_in_hand for seat in eaten}
        self.turn_up(eaten, rank, laid=hands)
        self.hold(self.pacing.call_gap)

    def _declined(self) -> None:
        """Nothing shows a decline: when nothing else can turn up, the referee times out."""
        if not _anything_down(self.state) or self.state.phase == "play":
            self.hold(self.timing.hunt_timeout + self.pacing.margin)


def _anything_down(state: GameState) -> bool:
    return any(seat.active and seat.face_down for seat in state.seats)


def complete_hunts(state: GameState, events: Iterable[GameEvent]) -> list[GameEvent]:
    """`events` up to the end of the last complete hunt."""
    events = list(events)
    kept = 0
    for index, event in enumerate(events):
        after = apply(state, event)
        if (after.round, after.hunt) != (state.round, state.hunt) or after.phase == "over":
            kept = index + 1
        state = after
    return events[:kept]


def played_ranks(state: GameState, events: Iterable[GameEvent]) -> dict[tuple[int, int, str], int]:
    """The rank of every card put down, by (round, hunt, player), learnt from later facts."""
    ranks: dict[tuple[int, int, str], int] = {}
    for event in events:
        match event:
            case Revealed(player, rank):
                ranks[(state.round, state.hunt, player)] = rank
            case Hunted(_, rank, eaten):
                for player in eaten:
                    ranks[(state.round, state.hunt, player)] = rank
        state = apply(state, event)
    return ranks
