"""A scripted table that waits for the companion's calls, as players do.

When the companion calls, the table's pace depends on the companion: a card is turned
up only after its rank is called, prey only after the companion asks the hunter.
`CompanionScripter` therefore scripts the film in closed loop: a virtual companion (a
`LiveReferee` in companion mode, watching the script through a perfect eye, with the
same `Timing`) follows every frame as it is scripted, and before each action the table
holds, frame by frame, until that companion has recorded every fact before it, then
gives the players a moment to react: half the call window, so that a real camera,
which may read a turned card up to a second after the perfect eye, still sees each
card turn up inside the call it belongs to.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from companion.demo.film import frame_counts, truth_table
from companion.demo.script import GameScripter, Moment, Pacing
from companion.referee.live import CallerMode, LiveReferee, Timing
from companion.referee.operator import EnterPrey, press_ready
from companion.referee.session import GameSession
from companion.rules.events import GameConfig, GameEvent
from companion.rules.state import GameState
from companion.store import Store

MAX_WAIT_S = 120.0  # the virtual companion is far behind: the script is not a legal game
REACT_SHARE = 0.5  # of the call window: players act this long after the companion speaks


class VirtualCompanion:
    """The companion as the players hear it: a live referee fed the script's frames."""

    def __init__(self, config: GameConfig, timing: Timing, fps: float) -> None:
        self._store = Store(":memory:")
        session = GameSession.new(self._store, config)
        self.referee = LiveReferee(session, caller="companion", timing=timing)
        self.fps = fps
        self.frame = 0
        self._keys: deque[EnterPrey] = deque()

    @property
    def events(self) -> tuple[GameEvent, ...]:
        return self.referee.session.events

    def watch(self, moment: Moment) -> None:
        """Every frame of `moment`, as the film will show it."""
        count = frame_counts([moment], self.fps)[0]
        for k in range(count):
            if moment.camera:
                self.referee.on_table(truth_table(moment, self.frame, self.frame / self.fps))
            else:
                self.referee.camera_lost()
            if k == count - 1:
                self._keys.extend(moment.operator)
            press_ready(self.referee, self._keys)
            self.frame += 1

    def close(self) -> None:
        self._store.close()


class CompanionScripter(GameScripter):
    """`GameScripter` for a table where the companion calls (see the module docstring)."""

    def __init__(
        self, config: GameConfig, timing: Timing, fps: float, pacing: Pacing | None = None
    ) -> None:
        super().__init__(config, timing, pacing)
        self.fps = fps
        self.companion = VirtualCompanion(self.state.config, timing, fps)
        self._facts: list[GameEvent] = []

    def play(self, events: list[GameEvent]) -> list[Moment]:  # type: ignore[override]
        self._facts = list(events)
        try:
            return super().play(events)
        finally:
            self.companion.close()

    def show(self, seconds: float, **details: object) -> None:
        super().show(seconds, **details)
        self.companion.watch(self.moments[-1])

    def sync(self, done: int) -> None:
        """Hold still until the companion has recorded the first `done` facts, then give
        the players (and a camera a few frames behind the perfect eye) time to react."""
        wanted = tuple(self._facts[:done])
        frame = 1.0 / self.fps
        waited = 0.0
        while self.companion.events != wanted:
            seen = self.companion.events
            if seen != tuple(self._facts[: len(seen)]) or waited > MAX_WAIT_S:
                raise RuntimeError(
                    f"the companion recorded {seen[len(wanted) - 1 :]} where the script "
                    f"expected {wanted[-1:]}: the script cannot be paced"
                )
            self.hold(frame)
            waited += frame
        self.hold(REACT_SHARE * self.timing.call_window)

    def _after_close(self, before: GameState) -> None:
        """The companion closes the call by itself; the next action waits for it."""

    def _declined(self) -> None:
        """The companion times the hunter out by itself; the next action waits for it."""


def script_game(
    config: GameConfig,
    events: Iterable[GameEvent],
    timing: Timing,
    *,
    caller: CallerMode = "table",
    fps: float = 15.0,
    pacing: Pacing | None = None,
) -> list[Moment]:
    """The moments of a game with `caller` calling, ending with a still table.

    `fps` matters only to the companion's pacing (it watches the film frame by frame).
    """
    if caller == "companion":
        scripter: GameScripter = CompanionScripter(config, timing, fps, pacing)
    else:
        scripter = GameScripter(config, timing, pacing)
    return scripter.play(list(events))
