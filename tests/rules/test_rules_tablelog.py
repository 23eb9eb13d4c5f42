"""The table log format: reading, writing, every refusal with its line, the CLI."""

from __future__ import annotations

import io
import json

import pytest

from companion.cli import main
from companion.rules.examples import DEMO_GAME, list_examples, read_example
from companion.rules.log import replay
from companion.rules.tablelog import (
    TableLogError,
    read_table_log,
    replay_summary,
    write_table_log,
)

GAME = '{"game": {"players": ["Alia", "Ben", "Carmen", "Dori"]}}'
HUNT_1 = '{"hunt": {"played": {"Alia": 1, "Ben": 4, "Carmen": 4, "Dori": 2}, "prey": {"Alia": 4}}}'
HUNT_2 = '{"hunt": {"played": {"Alia": 2, "Dori": 1}, "prey": {"Dori": 2}}}'
ROUND_2 = '{"hunt": {"played": {"Alia": 2, "Ben": 4, "Carmen": 3, "Dori": 1}}}'


def refused(lines: list[str], line: int, message: str) -> None:
    with pytest.raises(TableLogError) as caught:
        read_table_log("\n".join(lines))
    assert caught.value.line == line
    assert str(caught.value) == f"line {line}: {message}"


def test_comments_blank_lines_and_extra_keys_are_ignored():
    text = "\n".join(
        [
            "# a game",
            "",
            GAME,
            '{"note": "x", "hunt": {"played": {"Alia": 1, "Ben": 2, '
            '"Carmen": 3, "Dori": 4}}, "t": 12.5}',
        ]
    )
    config, events = read_table_log(text)
    assert config.first_caller == "Alia" and config.rules == "original"
    assert replay(config, events).hunt == 2


def test_the_spec_example_line_is_worked_example_1():
    config, events = read_table_log("\n".join([GAME, HUNT_1, HUNT_2]))
    assert replay_summary(config, events)["rounds"][0]["survivors"] == ["Dori"]


@pytest.mark.parametrize(
    ("lines", "line", "message"),
    [
        ([GAME, HUNT_1, HUNT_2, ROUND_2, ROUND_2], 5, "Alia played 2 twice in round 2"),
        (
            [GAME, HUNT_1, '{"hunt": {"played": {"Alia": 2, "Ben": 1, "Dori": 1}}}'],
            3,
            "Ben was eaten in round 1 and cannot play until the next round",
        ),
        (
            [GAME, HUNT_1, '{"hunt": {"played": {"Alia": 2}}}'],
            3,
            "Dori is missing from played: every player still in round 1 plays a card",
        ),
        (
            [GAME, '{"hunt": {"played": {"Alia": 1, "Ben": 2, "Carmen": 3, "Dori": 4, "Zed": 5}}}'],
            2,
            "unknown player 'Zed': expected one of Alia, Ben, Carmen, Dori",
        ),
        (
            [GAME, '{"hunt": {"played": {"Alia": 6, "Ben": 2, "Carmen": 3, "Dori": 4}}}'],
            2,
            "Alia: expected a rank from 1 to 5, got 6",
        ),
        (
            [GAME, '{"hunt": {"played": {"Alia": "1", "Ben": 2, "Carmen": 3, "Dori": 4}}}'],
            2,
            "Alia: expected a rank from 1 to 5, got '1'",
        ),
        (
            [
                GAME,
                '{"hunt": {"played": {"Alia": 1, "Ben": 2, "Carmen": 3, "Dori": 4}, '
                '"prey": {"Alia": 0}}}',
            ],
            2,
            "Alia: expected a rank from 1 to 5, got 0",
        ),
        (
            [
                GAME,
                '{"hunt": {"played": {"Alia": 3, "Ben": 3, "Carmen": 1, "Dori": 4}, '
                '"prey": {"Alia": 4}}}',
            ],
            2,
            "prey for Alia, but Alia was not the lone revealer of a call "
            "(blocked or eaten before the call of their card)",
        ),
        (
            [
                GAME,
                '{"hunt": {"played": {"Alia": 5, "Ben": 3, "Carmen": 1, "Dori": 4}, '
                '"prey": {"Alia": 4}}}',
            ],
            2,
            "prey for Alia, but Alia was not the lone revealer of a call (a 5 cannot hunt)",
        ),
        (
            [
                GAME,
                '{"hunt": {"played": {"Alia": 3, "Ben": 2, "Carmen": 1, "Dori": 4}, '
                '"prey": {"Alia": 2}}}',
            ],
            2,
            "Alia's card is 3: the prey must be higher (4 to 5), got 2",
        ),
        (
            [GAME, HUNT_1, HUNT_2.replace('{"Dori": 2}', '{"Dori": 2, "Ben": 5}')],
            3,
            "prey for Ben, who did not play in this hunt",
        ),
        (
            [GAME, '{"hunt": {"played": {"Alia": 1, "Ben": 2, "Carmen": 3, "Dori": 4'],
            2,
            "malformed JSON: Expecting ',' delimiter at column 65",
        ),
        ([GAME, "[1, 2]"], 2, "expected a JSON object, got list"),
        (
            [GAME, '{"hunt": {"played": [1, 2]}}'],
            2,
            'expected "played" as an object of player: card, got [1, 2]',
        ),
        (
            [GAME, '{"hunt": {"played": {}, "prey": []}}'],
            2,
            'expected "prey" as an object of player: rank, got []',
        ),
        ([GAME, '{"hunt": 3}'], 2, "expected the hunt as an object, got 3"),
        ([GAME, '{"round": 1}'], 2, 'expected a hunt line: {"hunt": {"played": {...}}}'),
        ([GAME, GAME], 2, "a second game line: a log holds exactly one game"),
        ([HUNT_1], 1, 'expected the game line first: {"game": {"players": [...]}}'),
        (["# nothing", ""], 1, 'empty log: expected a game line {"game": {"players": [...]}}'),
        (['{"game": {"players": ["Alia"]}}'], 1, "expected 2 to 5 players, got 1"),
        (
            ['{"game": {"players": ["Alia", "Alia"]}}'],
            1,
            "expected distinct player names, 'Alia' appears twice",
        ),
        (
            ['{"game": {"players": ["A", "B"], "rules": "chess"}}'],
            1,
            "expected rules original or playing-cards, got 'chess'",
        ),
        (
            ['{"game": {"players": ["A", "B"], "first_caller": "C"}}'],
            1,
            "expected the first caller to be one of A, B, got 'C'",
        ),
        (['{"game": {"players": "AB"}}'], 1, "expected players as a list of names, got 'AB'"),
        (['{"game": []}'], 1, "expected the game as an object, got []"),
    ],
)
def test_bad_logs_are_refused_with_their_line(lines, line, message):
    refused(lines, line, message)


def test_no_line_after_the_game_is_over():
    text = read_example("two-players.jsonl").rstrip("\n").split("\n")
    extra = '{"hunt": {"played": {"Alia": 1, "Ben": 2}}}'
    refused([*text, extra], len(text) + 1, "the game is already over (Alia won): no more hunts")


@pytest.mark.parametrize("name", ["four-players.jsonl", "tie-on-totals.jsonl", "two-players.jsonl"])
def test_examples_replay_to_a_winner_and_write_back_identically(name):
    assert name in list_examples()
    config, events = read_table_log(read_example(name))
    summary = replay_summary(config, events)
    assert summary["status"] == "finished" and summary["winner"]
    assert read_table_log(write_table_log(config, events)) == (config, events)
    last = summary["rounds"][-1]["totals"]
    assert max(last.values()) >= 5 and list(last.values()).count(last[summary["winner"]]) == 1


def test_example_shapes():
    four = replay(*read_table_log(read_example(DEMO_GAME)))
    assert len(four.config.players) == 4
    two = replay(*read_table_log(read_example("two-players.jsonl")))
    assert two.config.players == ("Alia", "Ben") and two.config.rules == "playing-cards"
    tie = replay(*read_table_log(read_example("tie-on-totals.jsonl")))
    tied = [r for r in tie.rounds if list(r.totals.values()).count(max(r.totals.values())) > 1]
    assert any(max(r.totals.values()) >= 5 for r in tied)
    with pytest.raises(FileNotFoundError, match="expected one of"):
        read_example("nope.jsonl")


def test_cli_replay_json_and_text(tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    path.write_text(read_example(DEMO_GAME))
    assert main(["replay", str(path), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert set(summary) == {"players", "rounds", "winner", "status"}
    assert set(summary["rounds"][0]) == {"round", "hunts", "eaten", "survivors", "food", "totals"}
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Players: Alia, Ben, Carmen, Dori") and "Winner: " in out
    assert "\nRound 1 (2 hunts)\n  hunt 1: Alia 2, Ben 3, Carmen 4, Dori 2 | Ben hunts 4: " in out


def test_cli_replay_bad_log_exits_2_with_one_line(tmp_path, capsys):
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join([GAME, HUNT_1, HUNT_2, ROUND_2, ROUND_2]) + "\n")
    assert main(["replay", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "line 5: Alia played 2 twice in round 2\n"


def test_cli_replay_missing_file(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "none.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_cli_replay_reads_stdin_and_a_byte_order_mark(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(read_example(DEMO_GAME)))
    assert main(["replay", "-", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "finished"
    path = tmp_path / "bom.jsonl"
    path.write_text(read_example(DEMO_GAME), encoding="utf-8-sig")
    assert main(["replay", str(path)]) == 0
