"""The SQLite history: entries committed on append, visible to a new Store, listing."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest

from companion.rules.events import CallClosed, GameConfig, Hunted, Played, Revealed
from companion.rules.log import Corrected, Undone
from companion.store import Store, UnknownGame, default_db_path

CONFIG = GameConfig(("Alia", "Ben"), "playing-cards", "Ben")


def test_entries_round_trip_in_order(tmp_path):
    entries = [
        Played("Alia"),
        Played("Ben"),
        Revealed("Alia", 1),
        CallClosed(),
        Hunted("Alia", 3, ("Ben",)),
        Undone(),
        Corrected(0, Played("Alia")),
    ]
    with Store(tmp_path / "h.sqlite3") as store:
        game = store.create_game(CONFIG)
        for entry in entries:
            store.append(game, entry)
        assert store.entries(game) == tuple(entries)
        assert store.config(game) == CONFIG


def test_append_is_committed_before_it_returns(tmp_path):
    path = tmp_path / "h.sqlite3"
    store = Store(path)
    game = store.create_game(CONFIG)
    store.append(game, Played("Alia"))
    # Another connection (as after a crash) sees the entry without any close or flush.
    other = sqlite3.connect(path)
    assert other.execute("SELECT COUNT(*) FROM entries").fetchone() == (1,)
    other.close()
    assert Store(path).entries(game) == (Played("Alia"),)


def test_killed_process_loses_nothing(tmp_path):
    path = tmp_path / "h.sqlite3"
    script = (
        "import os, sys\n"
        "from companion.store import Store\n"
        "from companion.rules.events import GameConfig, Played\n"
        f"s = Store({str(path)!r})\n"
        "g = s.create_game(GameConfig(('Alia', 'Ben')))\n"
        "s.append(g, Played('Alia'))\n"
        "os._exit(9)  # no close, no cleanup\n"
    )
    result = subprocess.run([sys.executable, "-c", script], check=False)
    assert result.returncode == 9
    store = Store(path)
    assert store.entries(store.last_unfinished()) == (Played("Alia"),)


def test_games_listing_and_finish_status(tmp_path):
    store = Store(tmp_path / "h.sqlite3")
    first = store.create_game(CONFIG)
    second = store.create_game(GameConfig(("A", "B", "C")))
    store.append(first, Played("Alia"))
    assert store.last_unfinished() == first
    store.set_finished(first, "Alia")
    assert store.last_unfinished() == second
    rows = {row.id: row for row in store.games()}
    assert rows[first].finished and rows[first].winner == "Alia"
    assert rows[first].entries == 1 and rows[first].players == ("Alia", "Ben")
    assert rows[second].rules == "original" and not rows[second].finished
    store.set_unfinished(first)
    assert store.games()[0].id == first and store.last_unfinished() == first


def test_unknown_game_says_so(tmp_path):
    store = Store(tmp_path / "h.sqlite3")
    with pytest.raises(UnknownGame, match="no game 42"):
        store.entries(42)
    with pytest.raises(UnknownGame, match="no game 42"):
        store.append(42, Played("Alia"))


def test_not_a_database_is_refused(tmp_path):
    path = tmp_path / "junk.sqlite3"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(OSError, match="not a usable history database"):
        Store(path)


def test_default_path_is_in_the_user_data_dir():
    path = default_db_path()
    assert path.name == "companion.sqlite3" and "prey-companion" in str(path)
