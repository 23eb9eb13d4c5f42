"""Fixtures for the dashboard tests: a store in a temporary folder, a four-player game."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.app import App

from companion.referee.session import GameSession
from companion.rules.events import GameConfig
from companion.store import Store

PLAYERS = ("Alia", "Ben", "Carmen", "Dori")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def store(db_path: Path) -> Iterator[Store]:
    with Store(db_path) as opened:
        yield opened


@pytest.fixture
def session(store: Store) -> GameSession:
    return GameSession.new(store, GameConfig(PLAYERS, "original", "Alia"))


def screen_text(app: App) -> str:
    """The active screen as plain text, line by line (for asserting what a player sees)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


def run_async(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async test in its own event loop (no asyncio plugin is installed in CI)."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))

    return run
