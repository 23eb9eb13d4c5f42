"""The live referee on hand-written table states (no images)."""

from __future__ import annotations

import pytest

from companion.referee.live import LiveReferee, Timing
from companion.referee.questions import PreyOrCall, ReadAs, WaitForTable
from companion.referee.session import GameSession
from companion.rules.events import (
    CallClosed,
    Declined,
    GameConfig,
    Hunted,
    Played,
    Revealed,
)
from companion.store import Store
from companion.vision.types import FaceUpCard, SeatView, TableState

TIMING = Timing(
    call_window=1.0, prey_settle=0.2, hunt_timeout=3.0, signal_window=1.0, doubt_grace=0.2
)


def seat(spec: str) -> SeatView:
    """ "v v 1 ?": two backs, a face-up 1, an unreadable face."""
    tokens = spec.split()
    faces = tuple(
        FaceUpCard(None if tok == "?" else int(tok), None, 0.99) for tok in tokens if tok != "v"
    )
    return SeatView(face_down=tokens.count("v"), face_up=faces)


class Table:
    """Feeds a referee table states at 10 frames per second."""

    def __init__(self, referee: LiveReferee) -> None:
        self.referee = referee
        self.t = 0.0
        self.frame = 0
        self.events: list = []
        self.said: list[str] = []
        self.output = None

    def show(self, seconds: float = 0.1, settled: bool = True, **seats: str):
        for _ in range(max(1, round(seconds * 10))):
            self.frame += 1
            self.t += 0.1
            views = {name: seat(spec) for name, spec in seats.items()}
            state = TableState(self.frame, self.t, views, settled=settled)
            self.output = self.referee.on_table(state)
            self.events.extend(self.output.events)
            self.said.extend(a.msg for a in self.output.announcements)
        return self.output


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "games.sqlite3") as opened:
        yield opened


def make(store, players=("Alia", "Ben"), caller="table") -> Table:
    session = GameSession.new(store, GameConfig(players))
    return Table(LiveReferee(session, caller=caller, timing=TIMING))


def test_plays_and_reveals_in_rank_order_with_a_table_caller(store):
    table = make(store)
    table.show(Alia="", Ben="")
    table.show(Alia="v", Ben="")
    assert table.events == [Played("Alia")]
    table.show(Alia="v", Ben="v")
    table.show(Alia="1", Ben="v")
    assert table.events[2:] == [Played("Ben"), Revealed("Alia", 1)][1:]
    # Ben's 4 turns up and no hand is laid down: the next call, not prey.
    table.show(2.0, Alia="1", Ben="4")
    assert table.events[3:] == [
        CallClosed(),
        Declined("Alia"),
        CallClosed(),
        CallClosed(),
        Revealed("Ben", 4),
        CallClosed(),
    ]
    # Ben, alone at 4 with nothing left face down, may still name a prey: time runs out.
    table.show(3.0, Alia="1", Ben="4")
    assert table.events[-1] == Declined("Ben")
    assert table.referee.session.state.hunt == 2
    assert "call" not in table.said


def test_eaten_signal_makes_the_next_face_prey(store):
    table = make(store, players=("Alia", "Ben", "Carmen"))
    table.show(Alia="v", Ben="v", Carmen="v")
    table.show(Alia="2", Ben="v", Carmen="v")
    table.show(0.3, Alia="2", Ben="3", Carmen="v")
    table.show(0.5, Alia="2", Ben="3 v v v v", Carmen="v")
    assert table.events[3:] == [
        CallClosed(),
        Revealed("Alia", 2),
        CallClosed(),
        Hunted("Alia", 3, ("Ben",)),
    ]
    assert table.referee.session.state.seat("Ben").eaten


def test_companion_closes_calls_after_a_still_table_and_waits_for_prey(store):
    table = make(store, caller="companion")
    table.show(Alia="v", Ben="v")
    table.show(0.5, Alia="1", Ben="v")
    assert table.events[-1] == Revealed("Alia", 1)
    table.show(1.0, Alia="1", Ben="v")
    assert table.events[-1] == CallClosed()
    assert table.output.waiting.what == "prey"
    table.show(0.5, Alia="1", Ben="3")
    assert table.events[-1] == Hunted("Alia", 3, ("Ben",))
    # One survivor: the round is over; round 2 waits for the table to clear.
    assert table.referee.session.state.round == 2
    table.show(Alia="1", Ben="3 v v v v")
    assert table.output.waiting.what == "table_clear"
    table.show(Alia="", Ben="")
    table.show(Alia="v", Ben="v")
    assert table.events[-2:] == [Played("Alia"), Played("Ben")]


def test_a_lone_hunter_with_no_prey_declines_after_the_timeout(store):
    table = make(store, caller="companion")
    table.show(Alia="v", Ben="v")
    table.show(0.2, Alia="1", Ben="v")
    table.show(1.0, Alia="1", Ben="v")
    table.show(3.0, Alia="1", Ben="v")
    assert table.events[-1] == Declined("Alia")


def test_the_operator_names_a_prey_nobody_played(store):
    table = make(store, caller="table")
    table.show(Alia="v", Ben="v")
    table.show(Alia="1", Ben="v")
    output = table.referee.enter_prey(5)
    assert output.events == (CallClosed(), Hunted("Alia", 5, ()))


def test_an_early_flip_is_asked_and_nothing_is_recorded(store):
    table = make(store, caller="companion")
    table.show(Alia="v", Ben="")
    assert table.show(Alia="3", Ben="").question is None  # one glimpse may be a misread
    output = table.show(0.5, Alia="3", Ben="")
    assert output.question is not None
    assert output.question.announcement.msg == "ask_early_flip"
    assert table.events == [Played("Alia")]
    # The card goes back down: the question is withdrawn and play goes on.
    output = table.show(Alia="v", Ben="v")
    assert output.question is None
    assert table.events[-1] == Played("Ben")


def test_an_unreadable_card_is_read_by_key(store):
    table = make(store, caller="companion")
    table.show(Alia="v", Ben="v")
    assert table.show(Alia="?", Ben="v").question is None  # the reader gets a moment
    output = table.show(0.5, Alia="?", Ben="v")
    question = output.question
    assert question.announcement.msg == "ask_unreadable"
    assert question.answers[0].action == ReadAs("Alia", None, 1)
    output = table.referee.answer(question.id, question.answers[0].action)
    assert output.events == (Revealed("Alia", 1),)
    table.show(Alia="?", Ben="v")
    assert table.output.question is None


def test_a_card_in_an_eaten_seat_is_asked(store):
    table = make(store, players=("Alia", "Ben", "Carmen"), caller="companion")
    table.show(Alia="v", Ben="v", Carmen="v")
    table.show(0.3, Alia="1", Ben="v", Carmen="v")
    table.show(1.0, Alia="1", Ben="v", Carmen="v")
    table.show(0.5, Alia="1", Ben="2", Carmen="v")
    assert table.events[-1] == Hunted("Alia", 2, ("Ben",))
    output = table.show(0.5, Alia="1", Ben="2 5 v v v", Carmen="v")
    assert output.question.announcement.msg == "ask_eaten_card"
    output = table.referee.answer(output.question.id, WaitForTable())
    assert output.question is None
    assert table.events[-1] == Hunted("Alia", 2, ("Ben",))


def test_prey_or_call_is_asked_when_the_signal_is_mixed(store):
    table = make(store, players=("Alia", "Ben", "Carmen"))
    table.show(Alia="v", Ben="v", Carmen="v")
    table.show(Alia="1", Ben="v", Carmen="v")
    output = table.show(1.5, Alia="1", Ben="3 v v v v", Carmen="3")
    assert output.question.announcement.msg == "ask_prey_or_call"
    output = table.referee.answer(output.question.id, PreyOrCall(True))
    assert output.events[-1] == Hunted("Alia", 3, ("Ben", "Carmen"))


def test_camera_loss_pauses_and_unsettled_states_change_nothing(store):
    table = make(store)
    assert table.referee.camera_lost().announcements[0].msg == "camera_lost"
    assert table.referee.waiting.what == "camera"
    table.show(Alia="v", Ben="v", settled=False)
    assert "camera_back" in table.said
    assert table.events == []
    table.show(Alia="v", Ben="v")
    assert table.events == [Played("Alia"), Played("Ben")]


def test_undo_waits_for_the_table_to_change(store):
    table = make(store)
    table.show(Alia="v", Ben="")
    table.referee.undo()
    table.show(Alia="v", Ben="")
    assert table.referee.session.events == ()
    table.show(Alia="v", Ben="v")
    assert table.referee.session.events == (Played("Alia"), Played("Ben"))


def test_a_rank_played_twice_is_asked(store):
    table = make(store, caller="companion")
    table.show(Alia="v", Ben="v")
    table.show(0.3, Alia="1", Ben="v")
    table.show(1.0, Alia="1", Ben="v")
    table.show(3.5, Alia="1", Ben="v")  # Alia declines; calls go on to Ben's card
    table.show(0.3, Alia="1", Ben="2")
    table.show(1.0, Alia="1", Ben="2")
    table.show(3.5, Alia="1", Ben="2")
    assert table.referee.session.state.hunt == 2
    output = table.show(Alia="1 v", Ben="2 v")
    output = table.show(0.5, Alia="1 1", Ben="2 v")
    assert output.question.announcement.msg == "ask_played_twice"
    assert output.question.announcement.params["rank"] == 1


def test_a_doubtful_reading_is_asked_after_a_grace(store):
    table = make(store, caller="companion")
    table.show(Alia="v", Ben="v")
    weak_bear = SeatView(face_up=(FaceUpCard(1, None, 0.3),))
    seats = {"Alia": weak_bear, "Ben": seat("v")}
    doubted = TableState(99, table.t + 0.1, seats, uncertain=("Alia",))
    assert table.referee.on_table(doubted).question is None
    later = TableState(100, table.t + 1.5, doubted.seats, uncertain=("Alia",))
    output = table.referee.on_table(later)
    assert output.question.announcement.msg == "ask_disagree"
    assert output.events == ()
    output = table.referee.answer(output.question.id, output.question.answers[0].action)
    assert output.events == (Revealed("Alia", 1),)


def test_a_correction_by_key_is_an_entry_of_the_log(store):
    table = make(store, caller="companion")
    table.show(Alia="v", Ben="v")
    table.show(0.3, Alia="1", Ben="v")
    output = table.referee.correct(2, Revealed("Alia", 1))
    assert [a.msg for a in output.announcements] == ["corrected"]
    assert len(table.referee.session.log) == 4


def test_an_answer_that_is_not_offered_is_refused_and_the_question_stays(store):
    table = make(store, caller="companion")
    table.show(Alia="v", Ben="")
    question = table.show(0.5, Alia="3", Ben="").question
    with pytest.raises(ValueError, match="answer actions"):
        table.referee.answer(question.id, PreyOrCall(True))
    assert table.referee.question == question
    assert table.referee.answer(question.id + 1, WaitForTable()).question == question


def test_seats_take_the_players_names_in_calibration_order():
    from companion.referee.eyes import SetupError
    from companion.referee.live_play import seats_for
    from companion.vision.calibration import Calibration

    calibration = Calibration(seats={"North": (1.0, 2.0), "South": (3.0, 4.0)})
    assert seats_for(calibration, ("Alia", "Ben")).seats == {"Alia": (1.0, 2.0), "Ben": (3.0, 4.0)}
    assert seats_for(calibration, ("South", "North")) is calibration
    with pytest.raises(SetupError, match="one seat per player"):
        seats_for(calibration, ("Alia", "Ben", "Carmen"))


def test_the_play_options_offer_the_referee_s_modes_and_the_rule_settings():
    from companion.referee.live import CALLER_MODES
    from companion.referee.live_args import CALLERS, RULES
    from companion.rules.events import RULE_SETS

    assert CALLERS == CALLER_MODES
    assert RULES == RULE_SETS


def test_the_table_can_ignore_what_the_camera_still_sees_in_a_seat(store):
    """`x` in live play: while a new round waits for a clear table, the seats not yet clear
    are handed to the camera thread, which stops counting what lies there."""
    from companion.referee.feed import FeedReferee
    from companion.referee.live import Waiting

    class Waits:  # a referee waiting for Ben's seat to clear
        waiting = Waiting("table_clear", ("Ben",))

        def status(self, notice=None):
            return notice

    feed = FeedReferee(Waits())  # type: ignore[arg-type]
    assert "Ben" in feed.ignore_stuck()
    assert list(feed.ignore_requests) == [("Ben",)]
    Waits.waiting = Waiting("play", ("Alia", "Ben"))
    assert "nothing to ignore" in feed.ignore_stuck()
    assert len(feed.ignore_requests) == 1
    referee = LiveReferee(GameSession.new(store, GameConfig(("Alia", "Ben"))), timing=TIMING)
    assert referee.status("a notice").notice == "a notice"


def test_the_camera_thread_applies_an_ignore_before_its_next_frame(store):
    import time

    import numpy as np

    from companion.referee.feed import FrameFeed
    from companion.vision.types import Frame

    calls: list[object] = []

    class Eyes:
        def see(self, frame):
            from companion.referee.eyes import Sight

            calls.append(("see", frame.id))
            return Sight([], TableState(frame.id, frame.t, {"Alia": seat(""), "Ben": seat("")}))

        def ignore(self, seats):
            calls.append(("ignore", seats))
            return 1

    class App:
        def post_message(self, message):
            calls.append("posted")

    image = np.zeros((4, 4, 3), np.uint8)
    frames = [(Frame(i, i / 10, image), ()) for i in range(2)]
    referee = LiveReferee(GameSession.new(store, GameConfig(("Alia", "Ben"))), timing=TIMING)
    feed = FrameFeed(referee, lambda: frames, Eyes(), reopen=False)  # type: ignore[arg-type]
    feed.referee.ignore_requests.append(("Ben",))
    feed.start(App())
    deadline = time.monotonic() + 5.0
    while calls.count("posted") < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    feed.stop()
    assert calls[:3] == [("ignore", ("Ben",)), ("see", 0), "posted"]
    assert ("ignore", ("Ben",)) not in calls[1:]
