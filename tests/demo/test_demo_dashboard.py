"""The demo on the dashboard: the camera thread feeds the app, the referee plays the game."""

from __future__ import annotations

import asyncio

from demo_films import film_of

from companion.demo.film import film_timeline, render_film, truth_table
from companion.referee.eyes import Sight
from companion.referee.feed import FrameFeed
from companion.referee.live import LiveReferee
from companion.referee.session import GameSession
from companion.rules.tablelog import write_table_log
from companion.store import Store
from companion.ui.app import CompanionApp

GAME = (
    '{"game": {"players": ["Alia", "Ben"]}}\n'
    '{"hunt": {"played": {"Alia": 1, "Ben": 2}, "prey": {"Alia": 2}}}\n'
)


class ScriptEyes:
    """Sees each frame as the script says it is (the camera thread's work, without vision)."""

    def __init__(self, film) -> None:
        self.moments = film.moments
        self.moment_of = {i.index: i.moment for i in film_timeline(film.moments, film.fps)}

    def see(self, frame) -> Sight:
        moment = self.moments[self.moment_of[frame.id]]
        return Sight([], truth_table(moment, frame.id, frame.t))


def test_the_camera_thread_drives_the_dashboard(tmp_path):
    film = film_of(GAME)
    expected = write_table_log(film.config, film.events)

    def items():
        return ((frame, i.operator) for i, frame in render_film(film.moments, film.layout, 10))

    async def scenario() -> str:
        with Store(tmp_path / "games.sqlite3") as store:
            session = GameSession.new(store, film.config)

            feeds: list[FrameFeed] = []

            def live(session: GameSession) -> FrameFeed:
                referee = LiveReferee(session, caller=film.caller, timing=film.timing)
                feeds.append(FrameFeed(referee, items, ScriptEyes(film), speed=8.0, reopen=False))
                return feeds[-1]

            app = CompanionApp(store, session=session, live=live)
            async with app.run_test() as pilot:
                for _ in range(300):
                    await pilot.pause(0.05)
                    if write_table_log(film.config, session.events) == expected:
                        break
                feeds[0].stop()  # no frame may arrive while the app closes
                await pilot.pause(0.1)
            return write_table_log(film.config, session.events)

    assert asyncio.run(scenario()) == expected
