"""store layer: the SQLite history of every game (see docs/design.md)."""

from companion.store.db import GameRow, Store, UnknownGame, default_db_path

__all__ = ["GameRow", "Store", "UnknownGame", "default_db_path"]
