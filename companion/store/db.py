"""The history store: every game and every log entry, in one SQLite file.

Entries are append-only and each `append` is committed (WAL, synchronous=FULL) before it
returns, so killing the program at any moment loses nothing that was shown. Games are
rebuilt by replaying their entries (`companion.rules.log`), so the store keeps no state
that could disagree with the rules.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType

import platformdirs

from companion.rules.events import GameConfig
from companion.rules.log import (
    LogEntry,
    decode_config,
    decode_entry,
    encode_config,
    encode_entry,
)

APP_NAME = "prey-companion"
DB_FILE_NAME = "companion.sqlite3"
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY,
    created  TEXT NOT NULL,
    updated  TEXT NOT NULL,
    config   TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    winner   TEXT,
    touched  INTEGER NOT NULL DEFAULT 0  -- rises with every change: "most recent" order
);
CREATE TABLE IF NOT EXISTS entries (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq     INTEGER NOT NULL,
    created TEXT NOT NULL,
    entry   TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""

_NEXT_TOUCH = "(SELECT COALESCE(MAX(touched), 0) + 1 FROM games)"


class UnknownGame(LookupError):
    """A game id that is not in this store."""


@dataclass(frozen=True, slots=True)
class GameRow:
    """One line of `companion history`: a game and how far it went."""

    id: int
    created: str
    updated: str
    players: tuple[str, ...]
    rules: str
    finished: bool
    winner: str | None
    entries: int


def default_db_path() -> Path:
    """`companion.sqlite3` in the user's data directory (platformdirs)."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / DB_FILE_NAME


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Store:
    """A history store on one SQLite file; safe to share between threads of one process."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_db_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.DatabaseError as error:
            raise OSError(f"{self.path} is not a usable history database: {error}") from error
        self._lock = threading.Lock()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the file (everything is already committed)."""
        self._db.close()

    def create_game(self, config: GameConfig) -> int:
        """Record a new game and return its id."""
        now = _now()
        with self._lock, self._db:
            cursor = self._db.execute(
                "INSERT INTO games (created, updated, config, touched) VALUES (?, ?, ?, "
                f"{_NEXT_TOUCH})",
                (now, now, json.dumps(encode_config(config))),
            )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def append(self, game_id: int, entry: LogEntry) -> None:
        """Append one log entry to a game; committed to disk before this returns."""
        data = json.dumps(encode_entry(entry))
        now = _now()
        with self._lock, self._db:
            self._require(game_id)
            self._db.execute(
                "INSERT INTO entries (game_id, seq, created, entry) VALUES "
                "(?, (SELECT COUNT(*) FROM entries WHERE game_id = ?), ?, ?)",
                (game_id, game_id, now, data),
            )
            self._db.execute(
                f"UPDATE games SET updated = ?, touched = {_NEXT_TOUCH} WHERE id = ?",
                (now, game_id),
            )

    def entries(self, game_id: int) -> tuple[LogEntry, ...]:
        """Every log entry of a game, in the order they were appended."""
        with self._lock:
            self._require(game_id)
            rows = self._db.execute(
                "SELECT entry FROM entries WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        return tuple(decode_entry(json.loads(row[0])) for row in rows)

    def config(self, game_id: int) -> GameConfig:
        """The set-up a game was created with."""
        with self._lock:
            row = self._require(game_id)
        return decode_config(json.loads(row[0]))

    def games(self) -> list[GameRow]:
        """Every game, the most recently played first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.created, g.updated, g.config, g.finished, g.winner, "
                "(SELECT COUNT(*) FROM entries e WHERE e.game_id = g.id) "
                "FROM games g ORDER BY g.touched DESC, g.id DESC"
            ).fetchall()
        return [_game_row(row) for row in rows]

    def last_unfinished(self) -> int | None:
        """The id of the most recently played unfinished game, or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT id FROM games WHERE finished = 0 ORDER BY touched DESC, id DESC LIMIT 1"
            ).fetchone()
        return None if row is None else int(row[0])

    def set_finished(self, game_id: int, winner: str) -> None:
        """Mark a game as over with its winner."""
        self._set_status(game_id, finished=True, winner=winner)

    def set_unfinished(self, game_id: int) -> None:
        """Mark a game as in progress again (its end was undone or corrected away)."""
        self._set_status(game_id, finished=False, winner=None)

    def _set_status(self, game_id: int, *, finished: bool, winner: str | None) -> None:
        with self._lock, self._db:
            self._require(game_id)
            self._db.execute(
                "UPDATE games SET finished = ?, winner = ?, updated = ?, "
                f"touched = {_NEXT_TOUCH} WHERE id = ?",
                (int(finished), winner, _now(), game_id),
            )

    def _require(self, game_id: int) -> tuple[str]:
        row = self._db.execute("SELECT config FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise UnknownGame(f"no game {game_id} in {self.path} (see `companion history`)")
        return row


def _game_row(row: tuple) -> GameRow:
    game_id, created, updated, config_json, finished, winner, count = row
    config = decode_config(json.loads(config_json))
    return GameRow(
        id=game_id,
        created=created,
        updated=updated,
        players=config.players,
        rules=config.rules,
        finished=bool(finished),
        winner=winner,
        entries=count,
    )
