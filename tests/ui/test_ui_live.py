"""The live pieces for issue 5: half-block view, questions on single keys, a fake camera."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from conftest import run_async, screen_text
from textual.app import App, ComposeResult
from textual.geometry import Size

from companion.referee.session import GameSession
from companion.rules.events import CallClosed, GameEvent, Played, Revealed
from companion.rules.narration import Announcement, say
from companion.store import Store
from companion.ui.app import CompanionApp
from companion.ui.live import TableFrame
from companion.ui.widgets.live_view import LiveView, Outline, fit_size, half_block_strips
from companion.ui.widgets.question import QuestionPanel
from companion.vision.types import CardReading, Frame, SeatView, TableState


def test_half_blocks_pair_rows_top_as_foreground_bottom_as_background():
    image = np.zeros((4, 3, 3), np.uint8)
    image[0] = (0, 0, 255)  # BGR red on the first row
    image[1] = (255, 0, 0)  # blue on the second
    image[1, 2] = (0, 255, 0)  # and one green pixel under the last cell
    strips = half_block_strips(image)
    assert len(strips) == 2 and strips[0].cell_length == 3
    first, last = list(strips[0])
    assert first.text == "▀▀"  # equal neighbours share one segment
    assert first.style.color.triplet == (251, 3, 3)  # 5 bits a channel, centred
    assert first.style.bgcolor.triplet == (3, 3, 251)
    assert last.text == "▀" and last.style.bgcolor.triplet == (3, 251, 3)


def test_half_blocks_refuse_an_odd_height_with_what_is_expected():
    with pytest.raises(ValueError, match="even height"):
        half_block_strips(np.zeros((3, 2, 3), np.uint8))


def test_fit_size_keeps_the_aspect_and_an_even_height():
    assert fit_size((1280, 720), Size(80, 20)) == (71, 40)
    assert fit_size((640, 480), Size(40, 40)) == (40, 30)


@dataclass
class Answer:
    key: str
    label: str
    action: object


@dataclass
class Question:
    id: int
    announcement: Announcement
    answers: tuple[Answer, ...]


class QuestionApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.answered: list[QuestionPanel.Answered] = []

    def compose(self) -> ComposeResult:
        yield QuestionPanel()

    def on_question_panel_answered(self, message: QuestionPanel.Answered) -> None:
        self.answered.append(message)


@run_async
async def test_a_question_is_answered_with_one_key():
    app = QuestionApp()
    async with app.run_test() as pilot:
        panel = app.query_one(QuestionPanel)
        answers = (Answer("1", "the owl", 4), Answer("2", "the mouse", 5))
        panel.ask(Question(7, say("ask_disagree", seat="Carmen"), answers), "Which card?")
        await pilot.pause()
        assert "the mouse" in screen_text(app)
        await pilot.press("x", "2")
        await pilot.pause()
        assert [(m.question_id, m.action) for m in app.answered] == [(7, 5)]
        assert panel.question is None


def test_a_question_needs_distinct_single_keys():
    panel = QuestionPanel()
    question = Question(1, say("camera_lost"), (Answer("y", "a", 1), Answer("y", "b", 2)))
    with pytest.raises(ValueError, match="distinct one-character answer keys"):
        panel.ask(question, "?")


@dataclass
class Waiting:
    what: str = "play"


@dataclass
class Output:
    events: tuple[GameEvent, ...] = ()
    announcements: tuple[Announcement, ...] = ()
    question: Any = None
    notice: str | None = None
    waiting: Waiting = field(default_factory=Waiting)


@dataclass
class FakeReferee:
    """Submits a Played fact for every face-down card it sees, like the live referee."""

    session: GameSession
    answers: list[tuple[Any, object]] = field(default_factory=list)
    undos: int = 0
    question: Question | None = None
    prey: list[int | None] = field(default_factory=list)
    ignores: int = 0

    def on_table(self, table: TableState) -> Output:
        said: list[Announcement] = []
        events: list[GameEvent] = []
        for seat, view in table.seats.items():
            if view.face_down and seat in self.session.expects().to_play:
                said.extend(self.session.submit(Played(seat)))
                events.append(Played(seat))
        if events:
            announcement = say("ask_unreadable", seat="Ben")
            self.question = Question(1, announcement, (Answer("y", "done", "ok"),))
        return Output(tuple(events), tuple(said), self.question, waiting=Waiting("answer"))

    def answer(self, question_id: Any, action: object) -> Output:
        self.answers.append((question_id, action))
        self.question = None
        return Output()

    def undo(self) -> Output:
        self.undos += 1
        return Output(announcements=self.session.undo(), notice="waiting for the table")

    def correct(self, index: int, event: GameEvent) -> Output:
        return Output(announcements=self.session.correct(index, event))

    def enter_prey(self, rank: int | None) -> Output:
        self.prey.append(rank)
        return Output()

    def ignore_stuck(self) -> Output:
        self.ignores += 1
        return Output(notice="the cards still seen in Ben are ignored from now on")


class FakeCamera:
    """Posts a few frames from its own thread, as the camera thread of issue 5 will."""

    def __init__(self, session: GameSession) -> None:
        self.referee = FakeReferee(session)
        self.thread: threading.Thread | None = None
        self.stopped = False

    def start(self, app: App) -> None:
        def post() -> None:
            image = np.full((120, 160, 3), 60, np.uint8)
            corners = np.array([[20, 20], [60, 20], [60, 80], [20, 80]], np.float32)
            reading = CardReading(corners, "down", None, None, "back", 0.9)
            seats = {"Alia": SeatView(face_down=1), "Ben": SeatView(face_down=1)}
            for frame_id in range(3):
                table = TableState(frame_id, frame_id / 30, seats)
                app.post_message(
                    TableFrame(Frame(frame_id, frame_id / 30, image), [reading], table)
                )

        self.thread = threading.Thread(target=post)
        self.thread.start()

    def stop(self) -> None:
        self.stopped = True
        if self.thread is not None:
            self.thread.join()


def live_app(store: Store, session: GameSession) -> tuple[CompanionApp, list[FakeCamera]]:
    """The dashboard with a fake camera; the list gets the camera once the app starts it."""
    cameras: list[FakeCamera] = []

    def factory(live_session: GameSession) -> FakeCamera:
        cameras.append(FakeCamera(live_session))
        return cameras[-1]

    return CompanionApp(store, session=session, live=factory), cameras


@run_async
async def test_a_live_source_drives_the_view_the_referee_and_questions(
    store: Store, session: GameSession
):
    app, cameras = live_app(store, session)
    async with app.run_test(size=(120, 40)) as pilot:
        assert cameras and cameras[0].thread is not None
        cameras[0].thread.join()
        await pilot.pause()
        assert app.screen.query_one(LiveView).frames_shown >= 1
        assert session.events[:2] == (Played("Alia"), Played("Ben"))
        text = screen_text(app)
        assert "your card is unreadable" in text
        assert "Waiting for an answer to the question above." in text
        await pilot.press("y")
        await pilot.pause()
        assert cameras[0].referee.answers == [(1, "ok")]
        await pilot.press("u")  # in live play, undo goes through the referee
        await pilot.pause()
        assert cameras[0].referee.undos == 1
        assert session.events == (Played("Alia"),)
        assert "waiting for the table" in screen_text(app)
    assert cameras[0].stopped


@run_async
async def test_a_question_is_asked_once_however_many_frames_repeat_it(
    store: Store, session: GameSession
):
    referee = FakeReferee(session)
    referee.question = Question(3, say("ask_disagree", seat="Ben"), (Answer("y", "ok", 1),))
    spoken: list[object] = []

    class Camera:
        def __init__(self) -> None:
            self.referee = referee

        def start(self, app: App) -> None:
            pass

        def stop(self) -> None:
            pass

    app = CompanionApp(store, session=session, live=lambda _: Camera())
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        table = app.screen
        table.voice.speak = spoken.extend  # type: ignore[attr-defined,method-assign]
        image = np.zeros((60, 80, 3), np.uint8)
        for frame_id in range(4):
            state = TableState(frame_id, frame_id / 30, {})
            app.post_message(TableFrame(Frame(frame_id, frame_id / 30, image), (), state))
            await pilot.pause()
        assert [a.msg for a in spoken] == ["ask_disagree"]  # type: ignore[attr-defined]


def test_outlines_colour_a_doubtful_reading_apart():
    corners = np.zeros((4, 2), np.float32)
    sure = Outline.of_reading(CardReading(corners, "up", 3, None, "lynx", 0.95))
    doubtful = Outline.of_reading(CardReading(corners, "up", 3, None, "lynx", 0.2))
    assert sure.colour != doubtful.colour


class ViewApp(App[None]):
    def compose(self) -> ComposeResult:
        yield LiveView()


@run_async
async def test_frames_sooner_than_the_frame_rate_wait_and_the_newest_is_drawn():
    app = ViewApp()
    async with app.run_test(size=(40, 12)) as pilot:
        view = app.query_one(LiveView)
        view.show(np.zeros((60, 80, 3), np.uint8))
        view.show(np.full((60, 80, 3), 128, np.uint8))
        view.show(np.full((60, 80, 3), 255, np.uint8))
        assert view.frames_shown == 1
        for _ in range(40):  # the deferred draw comes after 1 / MAX_FPS seconds
            await pilot.pause(0.05)
            if view.frames_shown == 2:
                break
        assert view.frames_shown == 2
        segment = next(iter(view.render_line(0)))
        assert segment.style is not None and segment.style.color.triplet == (251, 251, 251)


def test_frames_coalesce_unless_the_older_one_carries_a_change_of_the_table():
    image = np.zeros((4, 4, 3), np.uint8)
    one_back = {"Alia": SeatView(face_down=1)}
    two_backs = {"Alia": SeatView(face_down=1), "Ben": SeatView(face_down=1)}

    def frame(n: int, seats: dict[str, SeatView] | None) -> TableFrame:
        table = None if seats is None else TableState(n, n / 30, seats)
        return TableFrame(Frame(n, n / 30, image), (), table)

    assert frame(1, None).can_replace(frame(2, one_back))  # a picture only: drop it
    assert frame(1, one_back).can_replace(frame(2, one_back))  # same table, later time
    assert not frame(1, one_back).can_replace(frame(2, two_backs))  # a change: keep it
    assert not frame(1, one_back).can_replace(frame(2, None))


@run_async
async def test_new_frame_messages_from_another_thread_reach_the_view():
    app = ViewApp()
    async with app.run_test(size=(40, 12)) as pilot:
        view = app.query_one(LiveView)
        corners = np.array([[10, 10], [30, 10], [30, 40], [10, 40]], np.float32)
        outline = Outline(corners, "owl", (80, 220, 80))
        image = np.full((60, 80, 3), 90, np.uint8)
        sender = threading.Thread(
            target=lambda: view.post_message(LiveView.NewFrame(image, [outline]))
        )
        sender.start()
        sender.join()
        await pilot.pause()
        assert view.frames_shown == 1
        assert "▀" in screen_text(app)


@run_async
async def test_in_live_play_a_hunters_prey_key_goes_to_the_referee(
    store: Store, session: GameSession
):
    """The camera sees whose cards turn up: the operator names only the rank (or n)."""
    for player in session.config.players:
        session.submit(Played(player))
    session.submit(Revealed("Alia", 1))
    session.submit(CallClosed())
    assert session.state.phase == "hunt"
    app, cameras = live_app(store, session)
    async with app.run_test(size=(120, 40)) as pilot:
        cameras[0].thread.join()
        await pilot.pause()
        await pilot.press("1")  # not above the bear: no prey key, the manual flow refuses
        await pilot.press("4", "n")
        await pilot.pause()
        assert cameras[0].referee.prey == [4, None]


@run_async
async def test_in_live_play_x_ignores_what_the_camera_still_sees(
    store: Store, session: GameSession
):
    """A card the camera keeps seeing in a seat that should be clear: one key, and the
    referee's notice says what is ignored."""
    app, cameras = live_app(store, session)
    async with app.run_test(size=(120, 40)) as pilot:
        cameras[0].thread.join()
        await pilot.pause()
        await pilot.press("x")
        await pilot.pause()
        assert cameras[0].referee.ignores == 1
        assert "ignored from now on" in screen_text(app)
