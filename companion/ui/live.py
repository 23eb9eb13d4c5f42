"""How the camera side plugs into the dashboard (issue 5): the interface the app expects.

`CompanionApp(live=factory)` takes a factory `factory(session) -> LiveSource`, called
once the game session exists (after the set-up screen, or at once on a resume):

- `LiveSource.start(app)` starts the camera thread. That thread posts `TableFrame`
  messages with `app.post_message(...)` (thread-safe). Frames are coalesced: a newer
  `TableFrame` replaces one still waiting unless the waiting one carries a different
  table state, so the thread may post at camera speed and the referee still sees
  every change of the table, in order.
- On each `TableFrame` the app (UI thread) shows the image in the `LiveView`, and, if
  it carries a `TableState`, calls `source.referee.on_table(table)`; the referee submits
  facts to the session itself and returns a `RefereeOutputLike`: the `events` it
  recorded, `announcements` (shown and said), the open `question` (or None), a
  `notice` (a refusal to show) and `waiting.what` (for the status line).
- A question is shown by `QuestionPanel` (once per question id); the chosen answer's
  action goes back through `source.referee.answer(question_id, action)`.
- The operator's `u` and `c` go through `source.referee.undo()` and
  `source.referee.correct(index, event)` in live play (so the referee can wait for the
  table to change instead of seeing the undone fact again); other keys submit facts to
  the session directly, as in manual play.
- A lone hunter's prey key (a rank above the call) or `n` goes to
  `source.referee.enter_prey(rank | None)`: the camera, not the operator, says whose
  cards turned up.
- `x`, while a new round waits for a clear table, goes to `source.referee.ignore_stuck()`:
  what the camera still sees in the seats not yet clear is no longer counted.
- `LiveSource.stop()` is called when the app exits; it must end the thread.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from textual.app import App
from textual.message import Message

from companion.referee.session import GameSession
from companion.rules.events import GameEvent
from companion.rules.narration import Announcement
from companion.ui.widgets.live_view import Outline
from companion.vision.types import CardReading, Frame, TableState


class WaitingLike(Protocol):
    """What the app reads of `companion.referee.live.Waiting`."""

    @property
    def what(self) -> str: ...


class RefereeOutputLike(Protocol):
    """What the app reads of `companion.referee.live.RefereeOutput`."""

    @property
    def events(self) -> Sequence[GameEvent]: ...

    @property
    def announcements(self) -> Sequence[Announcement]: ...

    @property
    def question(self) -> Any: ...  # a QuestionLike with an `announcement`, or None

    @property
    def notice(self) -> str | None: ...

    @property
    def waiting(self) -> WaitingLike: ...


class LiveRefereeLike(Protocol):
    """What the app calls on the live source's referee."""

    def on_table(self, table: TableState) -> RefereeOutputLike: ...
    def answer(self, question_id: Any, action: object) -> RefereeOutputLike: ...
    def undo(self) -> RefereeOutputLike: ...
    def correct(self, index: int, event: GameEvent) -> RefereeOutputLike: ...
    def enter_prey(self, rank: int | None) -> RefereeOutputLike: ...
    def ignore_stuck(self) -> RefereeOutputLike: ...


class LiveSource(Protocol):
    """The camera thread and its referee, as the app drives them."""

    @property
    def referee(self) -> LiveRefereeLike: ...

    def start(self, app: App) -> None: ...
    def stop(self) -> None: ...


LiveFactory = Callable[[GameSession], LiveSource]


def same_table(a: TableState, b: TableState) -> bool:
    """The same cards in the same seats, as sure: only the frame and the time differ."""
    return (
        a.settled == b.settled
        and a.unseated == b.unseated
        and a.uncertain == b.uncertain
        and dict(a.seats) == dict(b.seats)
    )


class TableFrame(Message):
    """The newest camera frame, what was read on it, and the tracker's table state."""

    def __init__(
        self,
        frame: Frame,
        readings: Sequence[CardReading] = (),
        table: TableState | None = None,
    ) -> None:
        super().__init__()
        self.frame = frame
        self.readings = tuple(readings)
        self.table = table

    def can_replace(self, message: Message) -> bool:
        """A newer frame replaces this one unless this one carries news for the referee.

        The referee must see every change of the table (a reveal between two others
        decides who hunts), but not every frame of a still table: a newer frame with
        the same table content (or this one with none) loses nothing but time.
        """
        if not isinstance(message, TableFrame):
            return False
        if self.table is None:
            return True
        return message.table is not None and same_table(self.table, message.table)

    def outlines(self) -> tuple[Outline, ...]:
        """The readings as outlines for the live view."""
        return tuple(Outline.of_reading(reading) for reading in self.readings)
