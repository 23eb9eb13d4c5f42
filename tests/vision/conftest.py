"""Fixtures shared by the vision tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def private_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Enrolled decks go to a temporary user data directory, never the real one."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data"
