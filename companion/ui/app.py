"""The dashboard application: set-up screen, then the table screen; optional live camera.

`CompanionApp(store, session=None, ...)`: with a session (a resume, or a game set up on
the command line) it opens the table at once; without one it asks for the set-up first
and creates the session in `store`. Speech goes through `TableVoice`; the narrator is
made by `narrator_for(deck)` once the rule setting (hence the deck) is known, and closed
with the app. Without it (tests, text-only tables) the voice keys only show a notice.
The live camera side plugs in through `live=factory` (see `companion.ui.live`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from textual.app import App, SystemCommand
from textual.screen import Screen

from companion.i18n import deck_for_rules
from companion.referee.session import GameSession
from companion.rules.events import GameConfig
from companion.store import Store
from companion.ui.live import LiveFactory, LiveSource, TableFrame
from companion.ui.screens.setup import SetupScreen
from companion.ui.screens.table import TableScreen
from companion.ui.speech import NarratorLike, TableVoice
from companion.ui.widgets.live_view import LiveView
from companion.ui.widgets.question import QuestionPanel

CSS_FILE = Path(__file__).with_name("companion.tcss")

# The table screen's actions offered in the command palette: (title, help, action).
PALETTE_ACTIONS = (
    ("All played", "Everyone still to play has put a card down (a)", "all_played"),
    ("Confirm", "Confirm the marked seats of this call or hunt (Enter)", "confirm"),
    ("Nobody / no hunt", "Nobody revealed the called rank, or the hunter declines (n)", "nobody"),
    ("Clear marks", "Forget the marks not yet confirmed (Escape)", "clear"),
    ("Undo", "Take back the last fact (u)", "undo"),
    ("Correct a fact", "Replace an earlier fact and replay the rest (c)", "correct"),
    ("Mute / unmute", "Switch the voice off or on (m)", "mute"),
    ("Repeat", "Say the last announcement again (r)", "repeat"),
    ("Speak faster", "Raise the speech rate (+)", "faster"),
    ("Speak slower", "Lower the speech rate (-)", "slower"),
    ("Keys", "Show every key of the table (?)", "help"),
)


class CompanionApp(App[None]):
    """Prey Another Day table companion dashboard."""

    CSS_PATH = CSS_FILE
    TITLE = "Prey Another Day"

    def __init__(
        self,
        store: Store,
        *,
        session: GameSession | None = None,
        lang: str = "en",
        narrator_for: Callable[[str], NarratorLike] | None = None,
        preset: GameConfig | None = None,
        live: LiveFactory | None = None,
    ) -> None:
        super().__init__()
        self.store = store
        self.session = session
        self.lang = lang
        self.narrator_for = narrator_for
        self.narrator: NarratorLike | None = None
        self.preset = preset
        self.live_factory = live
        self.live_source: LiveSource | None = None

    def on_mount(self) -> None:
        if self.session is None:
            self.push_screen(SetupScreen(self.preset), self._start_game)
        else:
            self._open_table(self.session)

    def _start_game(self, config: GameConfig | None) -> None:
        if config is None:
            self.exit()
            return
        self._open_table(GameSession.new(self.store, config))

    def _open_table(self, session: GameSession) -> None:
        self.session = session
        deck = deck_for_rules(session.config.rules)
        if self.narrator_for is not None:
            self.narrator = self.narrator_for(deck)
        voice = TableVoice(self.lang, deck, self.narrator)
        if self.live_factory is None:
            self.push_screen(TableScreen(session, voice))
            return
        self.live_source = self.live_factory(session)
        self.push_screen(TableScreen(session, voice, referee=self.live_source.referee))
        self.live_source.start(self)

    @property
    def table(self) -> TableScreen | None:
        """The table screen, once the game is open."""
        return next((s for s in self.screen_stack if isinstance(s, TableScreen)), None)

    # --- live play ---------------------------------------------------------------------

    def on_table_frame(self, message: TableFrame) -> None:
        table = self.table
        if table is None or table.referee is None or not table.ready or not table.is_attached:
            return  # before the table screen is up, or while the app closes: skip the frame
        table.query_one(LiveView).show(message.frame.image, message.outlines())
        if message.table is not None:
            table.show_output(table.referee.on_table(message.table))

    def on_question_panel_answered(self, message: QuestionPanel.Answered) -> None:
        table = self.table
        if table is not None and table.referee is not None:
            table.show_output(table.referee.answer(message.question_id, message.action))

    def on_unmount(self) -> None:
        if self.live_source is not None:
            self.live_source.stop()
        if self.narrator is not None:
            self.narrator.close()

    # --- command palette ---------------------------------------------------------------

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        if isinstance(screen, TableScreen):
            for title, help_text, action in PALETTE_ACTIONS:
                yield SystemCommand(title, help_text, getattr(screen, f"action_{action}"))
