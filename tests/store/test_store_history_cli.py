"""`companion history` and the exports: list, show, jsonl/csv/md, re-import."""

from __future__ import annotations

import csv
import io

import pytest

from companion.cli import main
from companion.referee.session import GameSession
from companion.rules.events import Played
from companion.rules.examples import DEMO_GAME, read_example
from companion.rules.log import Corrected, Undone, effective
from companion.rules.tablelog import read_table_log, replay_summary
from companion.store import Store
from companion.store.export import to_csv, to_markdown, to_text


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    """A history with a finished game (1) and one stopped after 30 facts (2); read only."""
    path = tmp_path_factory.mktemp("history") / "history.sqlite3"
    config, events = read_table_log(read_example(DEMO_GAME))
    with Store(path) as store:
        finished = GameSession.new(store, config)
        for event in events:
            finished.submit(event)
        stopped = GameSession.new(store, config)
        for event in events[:30]:
            stopped.submit(event)
        stopped.undo()
    return path


def test_list(db, capsys):
    assert main(["history", "--db", str(db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "in progress (31 entries): Alia, Ben, Carmen, Dori" in lines[1]
    assert lines[1].split()[0] == "2"
    assert "Alia won: Alia, Ben, Carmen, Dori" in lines[2]


def test_list_empty(tmp_path, capsys):
    assert main(["history", "--db", str(tmp_path / "new.sqlite3")]) == 0
    assert capsys.readouterr().out.startswith("No games yet in")


def test_show(db, capsys):
    assert main(["history", "show", "1", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Game 1\nPlayers: Alia, Ben, Carmen, Dori (rules: original)\n")
    assert "Round 5 (3 hunts)" in out and out.endswith("Winner: Alia with 6 food.\n")


def test_export_jsonl_reimports_with_replay(db, tmp_path, capsys):
    out = tmp_path / "game.jsonl"
    assert (
        main(["history", "--db", str(db), "export", "1", "--format", "jsonl", "--out", str(out)])
        == 0
    )
    assert read_table_log(out.read_text()) == read_table_log(read_example(DEMO_GAME))
    assert main(["replay", str(out), "--json"]) == 0
    assert '"status": "finished"' in capsys.readouterr().out


def test_export_of_a_game_in_progress_keeps_whole_hunts(db, capsys):
    assert main(["history", "export", "2", "--db", str(db)]) == 0
    config, events = read_table_log(capsys.readouterr().out)
    summary = replay_summary(config, events)
    assert summary["status"] == "in_progress" and len(summary["rounds"]) == 1


def test_export_csv_and_markdown(db, capsys):
    assert main(["history", "export", "1", "--format", "csv", "--db", str(db)]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(rows) == 5 * 4
    last = rows[-1]
    assert (last["round"], last["player"], last["result"], last["food"]) == (
        "5",
        "Dori",
        "eaten",
        "0",
    )
    assert last["total"] == "2"
    assert main(["history", "export", "1", "--format", "md", "--db", str(db)]) == 0
    markdown = capsys.readouterr().out
    assert markdown.startswith("# Prey Another Day: Alia, Ben, Carmen, Dori")
    assert "## Round 5 (3 hunts)" in markdown and "Winner: Alia with 6 food." in markdown


def test_unknown_game_exits_2(db, capsys):
    assert main(["history", "show", "99", "--db", str(db)]) == 2
    assert capsys.readouterr().err == (
        f"companion history: no game 99 in {db} (see `companion history`)\n"
    )


def test_exports_follow_undo_and_corrections():
    config, events = read_table_log(read_example("two-players.jsonl"))
    facts = effective([*events, Undone(), Corrected(0, events[0])])
    assert facts == events[:-1]
    assert "In progress" in to_text(config, facts)
    assert to_csv(config, facts).count("\n") == 1 + 2 * 4
    assert "## Round 4" in to_markdown(config, facts)


def test_a_stored_game_that_no_longer_replays_is_reported(tmp_path, capsys):
    path = tmp_path / "broken.sqlite3"
    with Store(path) as store:
        game = store.create_game(read_table_log(read_example(DEMO_GAME))[0])
        store.append(game, Played("Alia"))
        store.append(game, Played("Alia"))  # as if written by a buggy older version
    assert main(["history", "show", str(game), "--db", str(path)]) == 2
    assert "fact 2 (Alia plays a card): Alia already played" in capsys.readouterr().err
