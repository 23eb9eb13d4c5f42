"""The camera thread of the dashboard: frames in, coalesced `TableFrame` messages out.

`FrameFeed` is the `LiveSource` of `companion.ui.live`: its thread reads frames (a
camera, a video, or the demo's film), runs the vision eyes on every one of them (the
tracker needs them all) and posts the newest picture and table state to the app, which
hands the state to `FeedReferee.on_table` on the UI thread.

A source that stops giving frames (unplugged camera, end of a file, a gap in a film)
marks the camera lost: the next message makes the referee pause the game with a clear
message, and the thread keeps trying to reopen the source; frames coming back resume it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from companion.referee.eyes import VisionEyes
from companion.referee.live import LiveReferee, RefereeOutput
from companion.referee.operator import EnterPrey, press_ready
from companion.rules.events import GameEvent
from companion.vision.types import Frame, TableState

log = logging.getLogger(__name__)
FeedItem = tuple[Frame | None, tuple[EnterPrey, ...]]  # None: no picture (camera lost)
REOPEN_EVERY_S = 1.0


def merge(outputs: list[RefereeOutput]) -> RefereeOutput:
    """Several referee outputs as one: all facts and words, the last status."""
    last = outputs[-1]
    return RefereeOutput(
        events=tuple(e for o in outputs for e in o.events),
        announcements=tuple(a for o in outputs for a in o.announcements),
        question=last.question,
        waiting=last.waiting,
        notice=last.notice,
    )


class FeedReferee:
    """The referee as the dashboard sees it: the live referee, the camera, queued keys."""

    def __init__(self, referee: LiveReferee) -> None:
        self.referee = referee
        self.keys: deque[EnterPrey] = deque()
        self.ignore_requests: deque[tuple[str, ...]] = deque()  # for the camera thread
        self.camera_ok = threading.Event()
        self.camera_ok.set()

    def on_table(self, table: TableState) -> RefereeOutput:
        if not self.camera_ok.is_set():
            return self.referee.camera_lost()
        return merge([self.referee.on_table(table), *press_ready(self.referee, self.keys)])

    def answer(self, question_id: Any, action: object) -> RefereeOutput:
        return self.referee.answer(question_id, action)

    def undo(self) -> RefereeOutput:
        return self.referee.undo()

    def correct(self, index: int, event: GameEvent) -> RefereeOutput:
        return self.referee.correct(index, event)

    def enter_prey(self, rank: int | None) -> RefereeOutput:
        return self.referee.enter_prey(rank)

    def ignore_stuck(self) -> RefereeOutput:
        """While a new round waits for a clear table: stop counting what the camera still
        sees in the seats not yet clear (the camera thread applies it on its next frame)."""
        waiting = self.referee.waiting
        if waiting.what != "table_clear":
            return self.referee.status("nothing to ignore: the table is not waiting to clear")
        self.ignore_requests.append(waiting.players)
        seats = ", ".join(waiting.players)
        return self.referee.status(f"the cards still seen in {seats} are ignored from now on")


class FrameFeed:
    """A `LiveSource` (see `companion.ui.live`) over any stream of frames.

    `open_frames()` opens the stream (called again after it ends, to reopen a camera;
    `reopen=False` for a film or a file, which end for good). `speed`: play a recorded
    stream at this multiple of real time (None: as fast as frames come).
    """

    def __init__(
        self,
        referee: LiveReferee,
        open_frames: Callable[[], Iterable[FeedItem]],
        eyes: VisionEyes,
        *,
        speed: float | None = None,
        reopen: bool = True,
    ) -> None:
        self._referee = FeedReferee(referee)
        self._open_frames = open_frames
        self._eyes = eyes
        self._speed = speed
        self._reopen = reopen
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last: tuple[Frame, TableState] | None = None

    @property
    def referee(self) -> FeedReferee:
        return self._referee

    def start(self, app: Any) -> None:
        self._thread = threading.Thread(target=self._run, args=(app,), daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5.0)

    def _run(self, app: Any) -> None:
        from companion.ui.live import TableFrame

        while not self._stop.is_set():
            try:
                for frame, keys in self._paced(self._open_frames()):
                    if self._stop.is_set():
                        return
                    self._referee.keys.extend(keys)
                    if frame is None:
                        self._lose(app)
                        continue
                    while self._referee.ignore_requests:
                        self._eyes.ignore(self._referee.ignore_requests.popleft())
                    sight = self._eyes.see(frame)
                    self._referee.camera_ok.set()
                    self._last = (frame, sight.table)
                    app.post_message(TableFrame(frame, sight.readings, sight.table))
            except Exception:  # any failure of one frame must not kill the feed
                log.exception("the camera feed failed; the game pauses until frames come back")
            self._lose(app)
            if not self._reopen:
                return
            self._stop.wait(REOPEN_EVERY_S)

    def _lose(self, app: Any) -> None:
        """Tell the referee (through the UI thread) that no frame is coming."""
        from companion.ui.live import TableFrame

        if self._last is None or not self._referee.camera_ok.is_set():
            return
        self._referee.camera_ok.clear()
        frame, table = self._last
        waiting = TableState(table.frame_id, table.t, table.seats, settled=False)
        app.post_message(TableFrame(frame, (), waiting))

    def _paced(self, items: Iterable[FeedItem]) -> Iterator[FeedItem]:
        """Hold each recorded frame until its time has come (at `speed`)."""
        if self._speed is None:
            yield from items
            return
        start = time.monotonic()
        for frame, keys in items:
            if frame is not None:
                delay = start + frame.t / self._speed - time.monotonic()
                if delay > 0 and self._stop.wait(delay):
                    return
            yield frame, keys


def camera_items(source: Any) -> Iterator[FeedItem]:
    """A live camera's frames, with a gap marker while it counts as lost (unplugged)."""
    try:
        while True:
            frame = source.read(0.2)
            if frame is not None:
                yield frame, ()
            elif source.lost:
                yield None, ()
    finally:
        source.close()
