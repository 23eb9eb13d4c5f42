"""A game being played: the rules, the history store and what to announce, together.

Every fact goes through the same path, whether typed on the dashboard or seen by the
camera: checked by the engine, committed to the store, and only then announced. So a
refused fact changes nothing, and a fact that was announced survives a crash.
"""

from __future__ import annotations

from companion.rules.events import GameConfig, GameEvent
from companion.rules.log import Corrected, LogEntry, Undone, effective, replay
from companion.rules.narration import Announcement, announce, opening, say
from companion.rules.state import (
    Expectation,
    GameState,
    IllegalMove,
    apply,
    expects,
    initial_state,
)
from companion.store import Store


class NoGameToResume(LookupError):
    """`GameSession.resume` found no unfinished game in the store."""


class GameSession:
    """One game: its id in the store, its full log, the facts in force and the state."""

    def __init__(self, store: Store, game_id: int, config: GameConfig, log: tuple[LogEntry, ...]):
        """Rebuild a session from a stored log (use `new` or `resume` rather than this)."""
        self.store = store
        self.game_id = game_id
        self.config = config
        self._log = list(log)
        self._events = list(effective(self._log))
        try:
            self.state: GameState = replay(config, self._events)
        except IllegalMove as error:
            raise IllegalMove(f"stored game {game_id} cannot be replayed: {error}") from None

    @classmethod
    def new(cls, store: Store, config: GameConfig) -> GameSession:
        """Start a game (raises `ConfigError` for a bad set-up, before anything is stored)."""
        config = initial_state(config).config
        return cls(store, store.create_game(config), config, ())

    @classmethod
    def resume(cls, store: Store, game_id: int | None = None) -> GameSession:
        """Continue `game_id`, or the last unfinished game, exactly where it stopped."""
        if game_id is None:
            game_id = store.last_unfinished()
            if game_id is None:
                raise NoGameToResume(f"no unfinished game to resume in {store.path}")
        return cls(store, game_id, store.config(game_id), store.entries(game_id))

    @property
    def events(self) -> tuple[GameEvent, ...]:
        """The facts in force (after undo and corrections)."""
        return tuple(self._events)

    @property
    def log(self) -> tuple[LogEntry, ...]:
        """Every entry ever recorded for this game, undo and corrections included."""
        return tuple(self._log)

    def expects(self) -> Expectation:
        """What the engine waits for next."""
        return expects(self.state)

    def opening(self) -> tuple[Announcement, ...]:
        """What to say now that the game starts or resumes."""
        return opening(self.state)

    def submit(self, event: GameEvent) -> tuple[Announcement, ...]:
        """Record one fact; raises `IllegalMove` (nothing stored) if the rules refuse it."""
        before = self.state
        after = apply(before, event)
        self._record(event, [*self._events, event], after)
        return announce(before, event, after)

    def undo(self) -> tuple[Announcement, ...]:
        """Take back the last fact in force; `IllegalMove` when there is none."""
        events = list(effective([*self._log, Undone()]))
        self._record(Undone(), events, replay(self.config, events))
        return (say("undone"),)

    def correct(self, index: int, event: GameEvent) -> tuple[Announcement, ...]:
        """Replace the fact at 0-based `index` and replay the rest.

        Refused with `IllegalMove` (nothing stored) if a later fact becomes illegal.
        """
        entry = Corrected(index, event)
        events = list(effective([*self._log, entry]))
        try:
            state = replay(self.config, events)
        except IllegalMove as error:
            raise IllegalMove(f"that correction cannot be kept: {error}") from None
        self._record(entry, events, state)
        return (say("corrected"),)

    def _record(self, entry: LogEntry, events: list[GameEvent], state: GameState) -> None:
        """Commit `entry` to the store, then adopt the new facts and state."""
        self.store.append(self.game_id, entry)
        if state.winner != self.state.winner:
            if state.winner is None:
                self.store.set_unfinished(self.game_id)
            else:
                self.store.set_finished(self.game_id, state.winner)
        self._log.append(entry)
        self._events = events
        self.state = state
