"""Play a scripted film through the referee and check that it saw the scripted game.

`play_film` is the loop shared by `companion demo --headless`, `bench live` and the
tests: every instant of the film goes to `eyes` (the real vision pipeline and tracker,
or the script's own truth), the table state to the `LiveReferee`, the operator's keys
to the referee when the game is ready for them (as a person at the dashboard would
press them), and a lost camera to `camera_lost`. The result holds the table log the
referee produced next to the scripted one.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from companion.demo.film import Instant, truth_table
from companion.demo.script import Moment
from companion.referee.live import LiveReferee, RefereeOutput
from companion.referee.operator import EnterPrey, press_ready
from companion.referee.questions import Question
from companion.rules.events import GameConfig, GameEvent
from companion.rules.narration import Announcement
from companion.rules.tablelog import write_table_log
from companion.vision.synth import CardTruth
from companion.vision.tracker import Tracker
from companion.vision.types import CardReading, Frame, TableState

Eyes = Callable[[Instant, Frame | None], TableState]
Answerer = Callable[[Question], object | None]


@dataclass(frozen=True, slots=True)
class SeenEvent:
    """A fact the referee recorded, and the film frame it was recorded on."""

    frame: int
    t: float
    event: GameEvent


@dataclass
class FilmRun:
    """What the referee made of a film."""

    config: GameConfig
    expected_log: str
    seen: list[SeenEvent] = field(default_factory=list)
    announcements: list[Announcement] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    frames: int = 0
    events: tuple[GameEvent, ...] = ()

    @property
    def seen_log(self) -> str:
        return write_table_log(self.config, self.events)

    @property
    def matches(self) -> bool:
        """The referee's table log is exactly the script's."""
        return self.seen_log == self.expected_log


def truth_eyes(moments: list[Moment]) -> Eyes:
    """Eyes that see the script itself (a perfect camera and tracker)."""

    def see(instant: Instant, frame: Frame | None) -> TableState:
        return truth_table(moments[instant.moment], instant.index, instant.t)

    return see


class RendererEyes:
    """The renderer's truth of each card as readings, then the real tracker.

    For telling the referee's and the tracker's mistakes from the card reader's: feed
    the film through `film(shots)` (from `render_shots`) and use the object as eyes.
    `misread(instant, reading)` may change a reading (to script a reader's mistake).
    """

    def __init__(
        self,
        tracker: Tracker,
        min_visible: float = 0.6,
        misread: Callable[[Instant, CardReading], CardReading] | None = None,
    ) -> None:
        self.tracker = tracker
        self.min_visible = min_visible
        self.misread = misread
        self._truths: list[CardTruth] = []

    def film(
        self, shots: Iterable[tuple[Instant, Frame | None, list[CardTruth]]]
    ) -> Iterator[tuple[Instant, Frame | None]]:
        for instant, frame, truths in shots:
            self._truths = truths
            yield instant, frame

    def __call__(self, instant: Instant, frame: Frame | None) -> TableState:
        readings = [
            CardReading(t.corners, t.face, t.rank, t.suit, t.label, 1.0)
            for t in self._truths
            if t.visible >= self.min_visible
        ]
        if self.misread is not None:
            readings = [self.misread(instant, reading) for reading in readings]
        return self.tracker.update(instant.index, instant.t, readings)


def play_film(
    referee: LiveReferee,
    film: Iterable[tuple[Instant, Frame | None]],
    eyes: Eyes,
    expected_events: Iterable[GameEvent],
    *,
    answer: Answerer | None = None,
    on_output: Callable[[Instant, RefereeOutput], None] | None = None,
) -> FilmRun:
    """Feed every instant of `film` to `referee` (see the module docstring)."""
    config = referee.session.config
    run = FilmRun(config, write_table_log(config, expected_events))
    keys: deque[EnterPrey] = deque()
    asked: set[int] = set()
    for instant, frame in film:
        run.frames += 1
        outputs = []
        if not instant.camera:
            outputs.append(referee.camera_lost())
        else:
            outputs.append(referee.on_table(eyes(instant, frame)))
        keys.extend(instant.operator)
        outputs.extend(press_ready(referee, keys))
        question = referee.question
        if question is not None and question.id not in asked:
            asked.add(question.id)
            run.questions.append(question)
            action = answer(question) if answer is not None else None
            if action is not None:
                outputs.append(referee.answer(question.id, action))
        for output in outputs:
            run.seen.extend(SeenEvent(instant.index, instant.t, e) for e in output.events)
            run.announcements.extend(output.announcements)
            if output.notice and (not run.notices or run.notices[-1] != output.notice):
                run.notices.append(output.notice)
            if on_output is not None:
                on_output(instant, output)
    run.events = referee.session.events
    return run
