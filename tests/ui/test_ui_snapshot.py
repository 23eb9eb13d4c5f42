"""What the table screen looks like in a fixed state (pytest-textual-snapshot, 120x40).

Update after an intended change of the layout with `pytest tests/ui --snapshot-update`
and look at the SVG under __snapshots__/ before committing it.
"""

from __future__ import annotations

from pathlib import Path

from test_ui_table import EXAMPLE_1_KEYS

from companion.referee.session import GameSession
from companion.rules.events import GameConfig
from companion.store import Store
from companion.ui.app import CompanionApp

PLAYERS = ("Alia", "Ben", "Carmen", "Dori")


def test_table_screen_after_a_round_with_a_mark_pending(snap_compare, tmp_path: Path):
    store = Store(tmp_path / "games.sqlite3")
    session = GameSession.new(store, GameConfig(PLAYERS, "original", "Alia"))
    app = CompanionApp(store, session=session)
    # Round 1 as in RULES.md example 1, then round 2: everyone plays, Ben marked at call 1.
    try:
        assert snap_compare(app, press=[*EXAMPLE_1_KEYS, "a", "2"], terminal_size=(120, 40))
    finally:
        store.close()
