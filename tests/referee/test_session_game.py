"""GameSession: facts checked, stored, then announced; undo, corrections, resume."""

from __future__ import annotations

import pytest

from companion.referee.session import GameSession, NoGameToResume
from companion.rules.events import CallClosed, GameConfig, Hunted, Played, Revealed
from companion.rules.state import ConfigError, IllegalMove
from companion.store import Store

CONFIG = GameConfig(("Alia", "Ben", "Carmen"))


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "h.sqlite3") as opened:
        yield opened


def msgs(announcements) -> list[str]:
    return [a.msg for a in announcements]


def test_submit_stores_then_announces(store):
    session = GameSession.new(store, CONFIG)
    assert msgs(session.opening()) == ["round_start", "hunt_start"]
    assert session.submit(Played("Alia")) == ()
    session.submit(Played("Ben"))
    said = session.submit(Played("Carmen"))
    assert msgs(said) == ["call"] and said[0].params["rank"] == 1
    assert store.entries(session.game_id) == (Played("Alia"), Played("Ben"), Played("Carmen"))
    assert session.expects().call_rank == 1


def test_refused_fact_changes_nothing(store):
    session = GameSession.new(store, CONFIG)
    session.submit(Played("Alia"))
    before = session.state
    with pytest.raises(IllegalMove, match="already played a card in hunt 1"):
        session.submit(Played("Alia"))
    assert session.state == before
    assert store.entries(session.game_id) == (Played("Alia"),)


def test_bad_config_stores_nothing(store):
    with pytest.raises(ConfigError, match="expected 2 to 5 players"):
        GameSession.new(store, GameConfig(("Solo",)))
    assert store.games() == []


def test_undo_back_to_the_start_gives_the_initial_state(store):
    session = GameSession.new(store, CONFIG)
    start = session.state
    for player in CONFIG.players:
        session.submit(Played(player))
    for _ in CONFIG.players:
        assert msgs(session.undo()) == ["undone"]
    assert session.state == start and session.events == ()
    with pytest.raises(IllegalMove, match="nothing to undo"):
        session.undo()
    assert len(session.log) == 6


def test_correction_replays_and_refuses_what_would_break(store):
    session = GameSession.new(store, CONFIG)
    for event in [Played("Alia"), Played("Ben"), Played("Carmen"), Revealed("Alia", 1)]:
        session.submit(event)
    session.submit(CallClosed())
    session.submit(Hunted("Alia", 3, ("Ben",)))
    assert msgs(session.correct(5, Hunted("Alia", 4, ("Ben", "Carmen")))) == ["corrected"]
    assert session.state.rounds[0].survivors == ("Alia",)
    with pytest.raises(IllegalMove, match="that correction cannot be kept: fact 6"):
        session.correct(3, Revealed("Ben", 1))
    assert session.state.rounds[0].survivors == ("Alia",)


def test_resume_continues_exactly_where_it_stopped(store, tmp_path):
    session = GameSession.new(store, CONFIG)
    for event in [Played("Alia"), Played("Ben"), Played("Carmen"), Revealed("Ben", 1)]:
        session.submit(event)
    session.undo()
    session.submit(Revealed("Carmen", 1))
    resumed = GameSession.resume(Store(tmp_path / "h.sqlite3"))
    assert resumed.game_id == session.game_id
    assert resumed.state == session.state
    assert resumed.events == session.events and resumed.log == session.log
    assert msgs(resumed.opening()) == ["round_start", "call"]


def test_finished_game_is_marked_and_undo_reopens_it(store):
    session = GameSession.new(store, GameConfig(("Alia", "Ben")))
    alia_alone = [Played("Alia"), Played("Ben"), Revealed("Alia", 1), CallClosed()]
    alia_alone.append(Hunted("Alia", 2, ("Ben",)))
    for _ in range(3):
        for event in alia_alone:
            said = session.submit(event)
    assert session.state.winner == "Alia" and msgs(said)[-1] == "winner"
    assert store.games()[0].finished and store.last_unfinished() is None
    session.undo()
    assert store.last_unfinished() == session.game_id


def test_resume_with_nothing_to_resume(store):
    with pytest.raises(NoGameToResume, match="no unfinished game"):
        GameSession.resume(store)
