"""Helpers of the demo tests: short scripted games, filmed and played headless.

A plain module (not a conftest): `tests/ui` imports its own `conftest` by name, so a
second conftest would shadow it.
"""

from __future__ import annotations

from pathlib import Path

from companion.demo.game import DemoFilm, make_film
from companion.demo.run import FilmRun, RendererEyes, play_film
from companion.referee.eyes import tracker_options
from companion.referee.live import CallerMode, LiveReferee, Timing
from companion.referee.session import GameSession
from companion.rules.tablelog import read_table_log
from companion.store import Store
from companion.vision.calibration import Calibration
from companion.vision.tracker import Tracker

# Short waits and a small, slow film keep the end-to-end tests quick.
TEST_TIMING = Timing(call_window=1.5, prey_settle=0.3, hunt_timeout=2.5, signal_window=1.0)
TEST_FPS = 10.0
TEST_SIZE = (640, 360)


def film_of(log_text: str, caller: CallerMode = "table") -> DemoFilm:
    """A short test film of a table log, with a player (or the companion) calling."""
    config, events = read_table_log(log_text)
    return make_film(
        config, events, fps=TEST_FPS, size=TEST_SIZE, timing=TEST_TIMING, caller=caller
    )


def play(folder: Path, film: DemoFilm, *, answer=None, misread=None) -> FilmRun:
    """Play a film through the renderer's readings, the real tracker and the referee."""
    tracker = Tracker(Calibration(seats=film.layout.anchors()), **tracker_options(film.fps))
    eyes = RendererEyes(tracker, misread=misread)
    shots = film.shots()
    with Store(folder / "games.sqlite3") as store:
        session = GameSession.new(store, film.config)
        referee = LiveReferee(session, caller=film.caller, timing=film.timing)
        return play_film(referee, eyes.film(shots), eyes, film.events, answer=answer)
