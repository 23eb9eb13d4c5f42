"""The table screen: seats, calls, last round, event log, and the keys that enter facts.

The screen holds no game: the `GameSession` does. Keys go through `companion.ui.entry`
(checked against the engine, pending marks kept here until Enter), confirmed facts go
to `session.submit`, which stores them before anything is shown or said. After each
change the view is redrawn from the session's facts (`chronicle`).

In live play (issue 5) the screen also has the live referee: `show_output` shows what
the referee did with a table state, undo and corrections go through the referee, and
the camera picture is in the `LiveView` (see `companion.ui.live`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from companion.referee.session import GameSession
from companion.rules.events import GameEvent
from companion.rules.narration import Announcement
from companion.rules.state import IllegalMove, expects
from companion.ui.chronicle import Chronicle, chronicle
from companion.ui.entry import (
    KeyResult,
    Pending,
    press_all,
    press_confirm,
    press_digit,
    press_nobody,
)
from companion.ui.keys import TABLE_BINDINGS
from companion.ui.live import LiveRefereeLike, RefereeOutputLike
from companion.ui.screens.correct import Correction, CorrectScreen
from companion.ui.screens.help import HelpScreen
from companion.ui.speech import TableVoice
from companion.ui.widgets.calls import CallsPanel
from companion.ui.widgets.event_log import EventLog
from companion.ui.widgets.live_view import LiveView
from companion.ui.widgets.question import QuestionLike, QuestionPanel
from companion.ui.widgets.round_result import RoundResultPanel
from companion.ui.widgets.seat import SeatPanel, SeatView
from companion.ui.widgets.status_line import StatusLine


class TableScreen(Screen[None]):
    """The game in progress; see the module docstring for the flow of a key."""

    BINDINGS: ClassVar[list[BindingType]] = TABLE_BINDINGS

    def __init__(
        self,
        session: GameSession,
        voice: TableVoice,
        *,
        referee: LiveRefereeLike | None = None,
    ) -> None:
        super().__init__()
        self.session = session
        self.voice = voice
        self.referee = referee
        self.pending = Pending()
        self.refusal: str | None = None
        self.live_notice: str | None = None  # the live referee's refusal, if any
        self.live_wait: str | None = None
        self.ready = False  # set once mounted: live frames wait for it
        self.story: Chronicle = chronicle(session.config, session.events)

    def compose(self) -> ComposeResult:
        yield Static(id="banner")
        with Horizontal(id="seats"):
            for number, _ in enumerate(self.session.config.players, start=1):
                yield SeatPanel(id=f"seat-{number}", classes="seat")
        with Horizontal(id="middle"):
            with Vertical(id="left"):
                yield CallsPanel(id="calls")
                yield RoundResultPanel(id="round-result")
                if self.referee is not None:
                    yield LiveView(id="live-view")
            with Vertical(id="right"):
                yield QuestionPanel(id="question")
                yield EventLog(id="event-log")
        yield StatusLine(id="status")
        yield Footer()

    def on_mount(self) -> None:
        log = self.query_one(EventLog)
        log.border_title = "What was said"
        for announcement in self.story.said:
            log.add(announcement.msg, self.voice.text(announcement))
        if self.session.events:
            log.note(f"— game {self.session.game_id} resumed —")
        self.record(self.session.opening())
        self.ready = True

    # --- what other parts call ---------------------------------------------------------

    def record(self, announcements: Iterable[Announcement]) -> None:
        """Show and say announcements of facts already in the session, then redraw."""
        announcements = tuple(announcements)
        log = self.query_one(EventLog)
        for announcement in announcements:
            log.add(announcement.msg, self.voice.text(announcement))
        self.voice.speak(announcements)
        self.story = chronicle(self.session.config, self.session.events)
        self.refresh_view()

    def ask(self, question: QuestionLike, announcement: Announcement) -> None:
        """Show a question of the live referee; its answer comes back as a message."""
        self.query_one(QuestionPanel).ask(question, self.voice.text(announcement))
        self.voice.speak([announcement])

    def show_output(self, output: RefereeOutputLike) -> None:
        """Show what the live referee did: facts, words, its question, notice and wait."""
        panel = self.query_one(QuestionPanel)
        question = output.question
        if question is None and panel.question is not None:
            panel.close()
        elif question is not None and (panel.question is None or panel.question.id != question.id):
            self.ask(question, question.announcement)
        status = (output.notice, output.waiting.what)
        changed = status != (self.live_notice, self.live_wait)
        self.live_notice, self.live_wait = status
        if output.events:
            self.pending = Pending()  # the table moved on: marks made before are stale
        if output.events or output.announcements:
            self.record(output.announcements)
        elif changed:
            self.refresh_view()

    def refresh_view(self) -> None:
        """Redraw every panel from the session's state and the pending marks."""
        state = self.session.state
        wanted = expects(state)
        for number, seat in enumerate(state.seats, start=1):
            view = SeatView(
                number=number,
                seat=seat,
                total=state.totals[seat.name],
                is_caller=seat.name == state.caller,
                to_play=seat.name in wanted.to_play,
                marked=seat.name in self.pending.seats,
                is_hunter=seat.name == wanted.hunter,
            )
            self.query_one(f"#seat-{number}", SeatPanel).show(view, self.voice.rank)
        self.query_one("#banner", Static).update(self._banner())
        self.query_one(CallsPanel).show(
            state, self.story.latest_hunt, self.voice.rank, self.voice.text
        )
        self.query_one(RoundResultPanel).show(state)
        self.query_one(StatusLine).show(
            state, self.pending, self.voice.rank, self.refusal or self.live_notice, self.live_wait
        )

    def _banner(self) -> str:
        state = self.session.state
        parts = [f"Round {state.round}", f"Hunt {state.hunt}/3", f"{state.caller} calls"]
        if state.call_rank is not None and state.phase in ("call", "hunt"):
            parts.append(f"Call {state.call_rank}: {self.voice.rank(state.call_rank)}")
        if state.phase == "over":
            parts = [f"Game over: {state.winner} wins"]
        totals = "  ".join(f"{name} {state.totals[name]}" for name in state.config.players)
        return f"{' · '.join(parts)}    food: {totals}"

    # --- keys --------------------------------------------------------------------------

    def action_digit(self, digit: int) -> None:
        if self._live_prey(digit):
            return
        self._take(press_digit(self.session.state, self.pending, digit))

    def action_all_played(self) -> None:
        self._take(press_all(self.session.state, self.pending))

    def action_confirm(self) -> None:
        self._take(press_confirm(self.session.state, self.pending))

    def action_nobody(self) -> None:
        if self._live_prey(None):
            return
        self._take(press_nobody(self.session.state, self.pending))

    def _live_prey(self, rank: int | None) -> bool:
        """In live play a lone hunter's prey key goes to the referee: the camera sees who
        turned that rank up, so the operator names the rank (or `n`) and nothing more."""
        state = self.session.state
        if self.referee is None or state.phase != "hunt":
            return False
        if rank is not None and (state.call_rank is None or rank <= state.call_rank):
            return False
        self.pending = Pending()
        self.show_output(self.referee.enter_prey(rank))
        return True

    def action_ignore_stuck(self) -> None:
        """Live play: stop counting the cards the camera still sees in seats that should
        be clear (a card it cannot tell from the table, or one nobody may touch)."""
        if self.referee is None:
            self._refuse("x is for camera play: the camera is not in use")
            return
        self.show_output(self.referee.ignore_stuck())

    def action_clear(self) -> None:
        self.pending = Pending()
        self.refusal = None
        self.refresh_view()

    def action_undo(self) -> None:
        self.pending = Pending()
        if self.referee is not None:
            self.show_output(self.referee.undo())
            return
        try:
            said = self.session.undo()
        except IllegalMove as error:
            self._refuse(str(error))
            return
        self.refusal = None
        self.record(said)

    def action_correct(self) -> None:
        screen = CorrectScreen(self.session.config, self.session.events)
        self.app.push_screen(screen, self._apply_correction)

    def _apply_correction(self, correction: Correction | None) -> None:
        if correction is None:
            return
        index, event = correction
        self.pending = Pending()
        if self.referee is not None:
            self.show_output(self.referee.correct(index, event))
            return
        try:
            said = self.session.correct(index, event)
        except IllegalMove as error:
            self._refuse(str(error))
            return
        self.refusal = None
        self.record(said)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    def action_mute(self) -> None:
        self.notify(self.voice.toggle_mute())

    def action_repeat(self) -> None:
        self.notify(self.voice.repeat())

    def action_faster(self) -> None:
        self.notify(self.voice.faster())

    def action_slower(self) -> None:
        self.notify(self.voice.slower())

    def _take(self, result: KeyResult) -> None:
        """Adopt a key's result: refuse it, keep its marks, or submit its facts."""
        if result.refused:
            self._refuse(result.refused)
            return
        self.pending = result.pending
        self.refusal = None
        if result.hint:
            self.notify(result.hint)
        if result.events:
            self._submit(result.events)
        else:
            self.refresh_view()

    def _submit(self, events: Iterable[GameEvent]) -> None:
        said: list[Announcement] = []
        try:
            for event in events:
                said.extend(self.session.submit(event))
        except IllegalMove as error:  # the state moved under the key (live play)
            self.refusal = str(error)
        self.record(said)

    def _refuse(self, message: str) -> None:
        self.refusal = message
        self.app.bell()
        self.refresh_view()
