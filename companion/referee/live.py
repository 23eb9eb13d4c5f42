"""The live referee: settled table states in, rules events (or questions) out.

The camera only says what lies where; the engine only knows the facts so far. The
referee compares the two on every settled `TableState` and turns the difference into
the one fact the engine expects next (`expects()`): a new back in a seat that must play
is `Played`, a face of the called rank is `Revealed`, a quiet table closes the call,
the next faces after a lone revealer are its prey. What the rules cannot accept, or the
camera cannot decide, becomes a `Question`; the game waits and nothing is recorded.
A face must stay wrong for `Timing.doubt_grace` before it is asked about (a card still
turning, one misread), and the game waits silently meanwhile. A new round starts once
each seat has been seen empty (the cards picked up).

Every clock here is the table state's own time `t`, never the wall clock, so a video
or a rendered demo replays the same way at any speed.

Two ways to call (`caller`):
- ``"companion"``: the companion calls each rank aloud and closes the call once the
  table has been still for `Timing.call_window` seconds.
- ``"table"``: a player calls; the referee follows the reveals in rank order and closes
  a call when a higher rank turns up. After a lone revealer the next faces are either
  its prey or the next call: an eaten player lays the cards left in hand face down,
  so backs appearing in those seats mean "eaten"; no backs within
  `Timing.signal_window` means "next call"; anything else is asked.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from companion.referee.questions import (
    WAIT_ANSWER,
    Answer,
    PreyOrCall,
    Question,
    ReadAs,
    WaitForTable,
    rank_answers,
)
from companion.referee.session import GameSession
from companion.referee.table_view import (
    Alias,
    SeatSight,
    extra_backs,
    new_faces,
    sights_of,
)
from companion.rules.events import CallClosed, Declined, GameEvent, Hunted, Played, Revealed
from companion.rules.narration import Announcement, say
from companion.rules.state import Expectation, GameState, IllegalMove, SeatState
from companion.vision.types import SeatView, TableState

CallerMode = Literal["companion", "table"]
CALLER_MODES: tuple[CallerMode, ...] = ("companion", "table")
MAX_STEPS_PER_STATE = 64  # far more facts than one picture can hold; guards against loops


@dataclass(frozen=True, slots=True)
class Timing:
    """How long the referee waits, in seconds of table time."""

    call_window: float = 3.0  # companion calls: stillness before a call is closed
    prey_settle: float = 0.3  # stillness before the prey of a hunt are counted
    hunt_timeout: float = 5.0  # a lone hunter with no prey turning up: declined
    signal_window: float = 2.5  # table calls: time for the eaten to lay their hand down
    doubt_grace: float = 1.0  # a face unreadable or read with little confidence: time to ask


@dataclass(frozen=True, slots=True)
class Waiting:
    """What the referee waits for, for the dashboard's status line.

    `what` is one of "table_clear", "play", "reveals", "prey", "answer", "camera", "over".
    """

    what: str
    players: tuple[str, ...] = ()
    rank: int | None = None


@dataclass(frozen=True, slots=True)
class RefereeOutput:
    """The result of one input: facts recorded, what to say, the open question, status."""

    events: tuple[GameEvent, ...] = ()
    announcements: tuple[Announcement, ...] = ()
    question: Question | None = None
    waiting: Waiting = Waiting("play")
    notice: str | None = None  # an engine refusal, in English, for the operator


@dataclass(frozen=True, slots=True)
class _Anomaly:
    """Something the table must fix or explain before the game goes on."""

    key: tuple[object, ...]
    announcement: Announcement
    answers: tuple[Answer, ...]


@dataclass
class _Step:
    """What one pass over the table decided."""

    events: list[GameEvent] = field(default_factory=list)
    anomaly: _Anomaly | None = None


class LiveReferee:
    """Drives a `GameSession` from the tracker's table states (see the module docstring)."""

    def __init__(
        self,
        session: GameSession,
        *,
        caller: CallerMode = "companion",
        timing: Timing | None = None,
    ) -> None:
        if caller not in CALLER_MODES:
            raise ValueError(f"expected caller {' or '.join(CALLER_MODES)}, got {caller!r}")
        self.session = session
        self.caller = caller
        self.timing = timing or Timing()
        self.paused = False
        self.question: Question | None = None
        self._question_seq = 0
        self._waved: set[tuple[object, ...]] = set()  # anomalies answered "wait"
        self._aliases: dict[str, list[Alias]] = {}
        self._confirmed: set[tuple[str, int]] = set()  # (seat, rank) the table vouched for
        self._prey_answer: bool | None = None
        self._round = session.state.round
        # A game starts (or resumes) on the table as it is; later rounds start on a clear one.
        self._cleared: set[str] = set(session.config.players)
        self._sights: dict[str, SeatSight] = {}
        self._last_seats: Mapping[str, SeatView] = {}
        self._question_key: tuple[object, ...] = ()
        self._now = 0.0
        self._last_change = 0.0
        self._phase_key: tuple[object, ...] = ()
        self._phase_since = 0.0
        self._face_since: dict[tuple[str, int | None], float] = {}
        self._muted: tuple[object, ...] | None = None
        self._notice: str | None = None

    # --- inputs ------------------------------------------------------------------

    def on_table(self, table: TableState) -> RefereeOutput:
        """Take one table state; act on it only if the tracker calls it settled."""
        said: list[Announcement] = []
        if self.paused:
            said.extend(self.camera_back().announcements)
        self._now = table.t
        self._track_phase()
        if not table.settled:
            return self._output([], said)
        self._observe(table)
        if self._muted is not None:
            if self._signature() == self._muted:
                return self._output([], said)
            self._muted = None
        events: list[GameEvent] = []
        for _ in range(MAX_STEPS_PER_STATE):
            step = self._step()
            self._ask(step.anomaly)
            if not step.events or not self._submit_all(step.events, events, said):
                break
        return self._output(events, said)

    def answer(self, question_id: int, action: object) -> RefereeOutput:
        """Apply the table's answer to the open question (a stale id changes nothing)."""
        question = self.question
        if question is None or question.id != question_id:
            return self._output([], [])
        if action not in [answer.action for answer in question.answers]:
            raise ValueError(f"expected one of the question's answer actions, got {action!r}")
        self.question = None
        match action:
            case WaitForTable():
                self._waved.add(self._question_key)
            case ReadAs(seat, seen, rank):
                if seen != rank:
                    self._aliases.setdefault(seat, []).append((seen, rank))
                self._confirmed.add((seat, rank))
            case PreyOrCall(eaten):
                self._prey_answer = eaten
        return self._replay_last_table()

    def enter_prey(self, rank: int | None) -> RefereeOutput:
        """The operator's key for the lone hunter: the rank named, or None for "nobody"."""
        state = self.session.state
        events: list[GameEvent] = []
        said: list[Announcement] = []
        if state.phase == "call" and len(state.revealers) == 1:
            if not self._submit_all([CallClosed()], events, said):
                return self._output(events, said)
            state = self.session.state
        if state.phase != "hunt":
            self._notice = "no lone hunter is waiting to name a prey"
            return self._output(events, said)
        hunter = state.revealers[0]
        if rank is None:
            decision: GameEvent = Declined(hunter)
        else:
            eaten = tuple(
                seat.name
                for seat in self._active(state)
                if seat.name != hunter and rank in new_faces(self._sight(seat.name), seat)
            )
            decision = Hunted(hunter, rank, eaten)
        self._prey_answer = None
        self._submit_all([decision], events, said)
        return self._output(events, said)

    def undo(self) -> RefereeOutput:
        """Take back the last fact; the referee then waits for the table to change."""
        return self._operator(self.session.undo)

    def correct(self, index: int, event: GameEvent) -> RefereeOutput:
        """Replace fact `index` (a misread), as an entry of the log; then wait for a change."""
        return self._operator(lambda: self.session.correct(index, event))

    def status(self, notice: str | None = None) -> RefereeOutput:
        """Nothing new: what the referee waits for now, with `notice` to show if given."""
        if notice is not None:
            self._notice = notice
        return self._output([], [])

    def camera_lost(self) -> RefereeOutput:
        """The frames stopped: pause (the game state is in the store, nothing is lost)."""
        if self.paused:
            return self._output([], [])
        self.paused = True
        return self._output([], [say("camera_lost")])

    def camera_back(self) -> RefereeOutput:
        """Frames again: resume; the waiting clocks restart so nothing times out at once."""
        if not self.paused:
            return self._output([], [])
        self.paused = False
        self._phase_since = self._last_change = self._now
        self._face_since.clear()
        return self._output([], [say("camera_back")])

    @property
    def waiting(self) -> Waiting:
        """What the game waits for now."""
        state = self.session.state
        wanted = self.session.expects()
        if self.paused:
            return Waiting("camera")
        if self.question is not None:
            return Waiting("answer")
        if wanted.phase == "over":
            return Waiting("over", (state.winner,) if state.winner else ())
        if wanted.phase == "play":
            unclear = tuple(p for p in state.config.players if p not in self._cleared)
            if unclear:
                return Waiting("table_clear", unclear)
            return Waiting("play", wanted.to_play)
        if wanted.phase == "hunt":
            return Waiting("prey", (wanted.hunter or "",), wanted.call_rank)
        return Waiting("reveals", (), wanted.call_rank)

    # --- observing ---------------------------------------------------------------

    def _observe(self, table: TableState) -> None:
        players = self.session.config.players
        self._last_seats = table.seats
        sights = sights_of(table.seats, players, self._aliases)
        if _layout(sights) != _layout(self._sights):
            self._last_change = table.t
        self._sights = sights
        state = self.session.state
        for seat in state.seats:
            if seat.name in self._cleared:
                continue
            if sights[seat.name].empty:
                self._cleared.add(seat.name)
        seen_now = set()
        for seat in state.seats:
            for rank in new_faces(sights[seat.name], seat):
                seen_now.add((seat.name, rank))
                self._face_since.setdefault((seat.name, rank), table.t)
        for key in list(self._face_since):
            if key not in seen_now:
                del self._face_since[key]

    def _track_phase(self) -> None:
        """Note when the engine entered its current wait (a new round also resets seats)."""
        state = self.session.state
        if state.round != self._round:
            # A new round waits for a clear table; an undo back into the last round finds
            # that round's cards still lying there.
            forward = state.round > self._round
            self._round = state.round
            self._cleared = set() if forward else set(state.config.players)
            self._aliases.clear()
            self._confirmed.clear()
            self._waved.clear()
        key = (state.round, state.hunt, state.phase, state.call_rank, len(state.revealers))
        if key != self._phase_key:
            self._phase_key = key
            self._phase_since = self._now

    def _signature(self) -> tuple[object, ...]:
        return _layout(self._sights)

    def _sight(self, name: str) -> SeatSight:
        return self._sights.get(name, SeatSight())

    @staticmethod
    def _active(state: GameState) -> list[SeatState]:
        return [seat for seat in state.seats if seat.active]

    # --- deciding ----------------------------------------------------------------

    def _step(self) -> _Step:
        """The next fact(s) the table shows, or the anomaly that stops the game."""
        self._track_phase()
        state = self.session.state
        wanted = self.session.expects()
        if wanted.phase == "over":
            return _Step()
        anomaly = self._anomaly(state, wanted)
        if anomaly is not None:
            return _Step(anomaly=anomaly)
        if wanted.phase == "play":
            return _Step(self._plays(state, wanted))
        if wanted.phase == "hunt":
            return self._hunt_decision(state, wanted)
        return self._call(state, wanted)

    def _plays(self, state: GameState, wanted: Expectation) -> list[GameEvent]:
        return [
            Played(name)
            for name in wanted.to_play
            if name in self._cleared and extra_backs(self._sight(name), state.seat(name)) >= 1
        ]

    def _faces(self, state: GameState, *, exclude: str | None = None) -> dict[str, list[int]]:
        """New readable faces in active, cleared seats, by seat."""
        faces: dict[str, list[int]] = {}
        for seat in self._active(state):
            if seat.name in self._cleared and seat.name != exclude:
                ranks = [r for r in new_faces(self._sight(seat.name), seat) if r is not None]
                if ranks:
                    faces[seat.name] = ranks
        return faces

    def _call(self, state: GameState, wanted: Expectation) -> _Step:
        rank = wanted.call_rank
        assert rank is not None
        faces = self._faces(state)
        revealed = [name for name, ranks in faces.items() if rank in ranks]
        if revealed:
            return _Step([Revealed(name, rank) for name in revealed])
        anything_down = any(seat.face_down for seat in self._active(state))
        if not anything_down:
            return _Step([CallClosed()])
        if self.caller == "companion":
            still_since = max(self._phase_since, self._last_change)
            if self._now - still_since >= self.timing.call_window:
                return _Step([CallClosed()])
            return _Step()
        higher = sorted({r for ranks in faces.values() for r in ranks if r > rank})
        if not higher:
            return _Step()
        if len(wanted.revealers) == 1 and rank < 5:
            return self._prey_or_call(state, wanted.revealers[0], higher[0], faces)
        return _Step([CallClosed()])

    def _prey_or_call(
        self, state: GameState, hunter: str, rank: int, faces: dict[str, list[int]]
    ) -> _Step:
        """Table calls, after a lone revealer: are the faces of `rank` prey or a call?"""
        shown = [name for name, ranks in faces.items() if rank in ranks and name != hunter]
        if self._prey_answer is None:
            laid = [name for name in shown if self._laid_hand_down(state.seat(name))]
            first_seen = min(self._face_since.get((name, rank), self._now) for name in shown)
            waited = self._now - first_seen >= self.timing.signal_window
            quiet = self._now - self._last_change >= self.timing.prey_settle
            if laid and len(laid) == len(shown) and quiet:
                eaten = True
            elif not laid and waited and quiet:
                eaten = False
            elif laid and self._now - self._last_change >= self.timing.signal_window:
                return _Step(anomaly=self._prey_or_call_question(shown[0], rank))
            else:
                return _Step()
        else:
            eaten = self._prey_answer
        self._prey_answer = None
        if eaten:
            return _Step([CallClosed(), Hunted(hunter, rank, tuple(shown))])
        return _Step([CallClosed(), Declined(hunter)])

    def _laid_hand_down(self, seat: SeatState) -> bool:
        """The eaten signal: the seat's hand lies face down next to its turned card."""
        backs_laid = extra_backs(self._sight(seat.name), seat) + 1  # its own card turned up
        return backs_laid >= min(2, seat.cards_in_hand)

    def _hunt_decision(self, state: GameState, wanted: Expectation) -> _Step:
        hunter = wanted.hunter
        assert hunter is not None
        faces = self._faces(state, exclude=hunter)
        prey = sorted({r for ranks in faces.values() for r in ranks if r in wanted.prey_ranks})
        if prey:
            if self._now - self._last_change < self.timing.prey_settle:
                return _Step()
            eaten = tuple(name for name, ranks in faces.items() if prey[0] in ranks)
            return _Step([Hunted(hunter, prey[0], eaten)])
        timed_out = self._now - self._phase_since >= self.timing.hunt_timeout
        if timed_out and not self._any_news(state):
            return _Step([Declined(hunter)])
        return _Step()

    def _any_news(self, state: GameState) -> bool:
        """Some active seat shows a face the engine does not know (even unreadable)."""
        return any(
            new_faces(self._sight(seat.name), seat)
            for seat in self._active(state)
            if seat.name in self._cleared
        )

    # --- anomalies ---------------------------------------------------------------

    def _anomaly(self, state: GameState, wanted: Expectation) -> _Anomaly | None:
        """The first thing on the table the rules cannot accept as it is."""
        for seat in state.seats:
            if seat.name not in self._cleared:
                continue
            news = new_faces(self._sight(seat.name), seat)
            if not news:
                continue
            found = self._seat_anomaly(seat, news, wanted)
            if found is not None and found.key not in self._waved:
                return found
            if found is not None:
                return _Anomaly(found.key, found.announcement, ())  # waved: still waiting
        return None

    def _seat_anomaly(
        self, seat: SeatState, news: tuple[int | None, ...], wanted: Expectation
    ) -> _Anomaly | None:
        """What is wrong with `seat`'s new faces; the game waits silently for
        `Timing.doubt_grace` (a card still turning, one misread) before asking."""
        found = self._seat_problem(seat, news, wanted)
        if found is None:
            return None
        since = min(self._face_since.get((seat.name, r), self._now) for r in news)
        if self._now - since < self.timing.doubt_grace:
            return _Anomaly(("grace", *found.key), found.announcement, ())
        return found

    def _seat_problem(
        self, seat: SeatState, news: tuple[int | None, ...], wanted: Expectation
    ) -> _Anomaly | None:
        name = seat.name
        likely = self._likely_ranks(seat, wanted)
        if seat.eaten:
            return _Anomaly(("eaten", name, news), say("ask_eaten_card", seat=name), (WAIT_ANSWER,))
        if not seat.active:
            return None
        if None in news:
            answers = (*rank_answers(name, None, likely), WAIT_ANSWER)
            return _Anomaly(("unreadable", name), say("ask_unreadable", seat=name), answers)
        doubtful = self._sight(name).doubtful
        doubts = [r for r in news if r in doubtful and (name, r) not in self._confirmed]
        if doubts:
            answers = (*rank_answers(name, doubts[0], likely), WAIT_ANSWER)
            return _Anomaly(("disagree", name, news), say("ask_disagree", seat=name), answers)
        for rank in news:
            if rank not in seat.hand:
                answers = (*rank_answers(name, rank, likely), WAIT_ANSWER)
                announcement = say("ask_played_twice", seat=name, rank=rank)
                return _Anomaly(("twice", name, rank), announcement, answers)
        if not seat.face_down or self._early(news, name, wanted):
            answers = (*rank_answers(name, news[0], likely if seat.face_down else ()), WAIT_ANSWER)
            return _Anomaly(("early", name, news), say("ask_early_flip", seat=name), answers)
        return None

    def _early(self, news: tuple[int | None, ...], name: str, wanted: Expectation) -> bool:
        """A face that was neither called nor hunted, given who calls."""
        if wanted.phase == "play":
            return True
        rank = wanted.call_rank
        assert rank is not None
        if wanted.phase == "hunt":
            return name == wanted.hunter or any(r not in wanted.prey_ranks for r in news)
        if self.caller == "companion":
            return any(r != rank for r in news)
        return any(r is not None and r < rank for r in news)

    def _likely_ranks(self, seat: SeatState, wanted: Expectation) -> tuple[int, ...]:
        """The ranks this seat's new face may be, the most likely first."""
        hand = sorted(seat.hand)
        first = [r for r in (wanted.call_rank,) if r is not None and r in seat.hand]
        return tuple(first + [r for r in hand if r not in first])

    def _prey_or_call_question(self, name: str, rank: int) -> _Anomaly:
        answers = (
            Answer("e", "eaten by the hunter", PreyOrCall(True)),
            Answer("c", "revealed at the next call", PreyOrCall(False)),
        )
        return _Anomaly(
            ("prey_or_call", name, rank), say("ask_prey_or_call", seat=name, rank=rank), answers
        )

    def _ask(self, anomaly: _Anomaly | None) -> None:
        """Open, keep or withdraw the question for `anomaly`."""
        if anomaly is None or not anomaly.answers:
            self.question = None
            return
        if self.question is not None and self._question_key == anomaly.key:
            return
        self._question_seq += 1
        self._question_key = anomaly.key
        self.question = Question(self._question_seq, anomaly.announcement, anomaly.answers)

    # --- recording ---------------------------------------------------------------

    def _submit_all(
        self, events: list[GameEvent], done: list[GameEvent], said: list[Announcement]
    ) -> bool:
        """Submit in order; on a refusal stop, keep the engine's message, return False."""
        for event in events:
            try:
                announcements = self.session.submit(event)
            except IllegalMove as refusal:
                self._notice = str(refusal)
                return False
            done.append(event)
            said.extend(self._audible(announcements))
            self._track_phase()
        self._notice = None
        return True

    def _audible(self, announcements: tuple[Announcement, ...]) -> list[Announcement]:
        """With a player calling, the companion announces only what happened."""
        if self.caller == "table":
            return [a for a in announcements if a.msg != "call"]
        return list(announcements)

    def _operator(self, action: Callable[[], tuple[Announcement, ...]]) -> RefereeOutput:
        try:
            said = list(action())
        except IllegalMove as refusal:
            self._notice = str(refusal)
            return self._output([], [])
        self._muted = self._signature()
        self._prey_answer = None
        self.question = None
        self._track_phase()
        return self._output([], said)

    def _replay_last_table(self) -> RefereeOutput:
        """After an answer, act on the table as last seen (it has not changed)."""
        events: list[GameEvent] = []
        said: list[Announcement] = []
        for _ in range(MAX_STEPS_PER_STATE):
            step = self._step_from_sights()
            self._ask(step.anomaly)
            if not step.events or not self._submit_all(step.events, events, said):
                break
        return self._output(events, said)

    def _step_from_sights(self) -> _Step:
        players = self.session.config.players
        self._sights = sights_of(self._last_seats, players, self._aliases)
        return self._step()

    def _output(self, events: list[GameEvent], said: list[Announcement]) -> RefereeOutput:
        return RefereeOutput(tuple(events), tuple(said), self.question, self.waiting, self._notice)


def _layout(sights: Mapping[str, SeatSight]) -> tuple[object, ...]:
    """What lies where, without how sure the reader is: a change of this is a change."""
    return tuple(sorted((name, sight.down, sight.up) for name, sight in sights.items()))
