"""`companion demo --headless` through the real card pipeline (finder, reader, tracker)."""

from __future__ import annotations

from companion.cli import main

ONE_ROUND = (
    '{"game": {"players": ["Alia", "Ben", "Carmen"]}}\n'
    '{"hunt": {"played": {"Alia": 1, "Ben": 3, "Carmen": 2}, "prey": {"Alia": 3}}}\n'
    '{"hunt": {"played": {"Alia": 2, "Carmen": 1}, "prey": {"Carmen": 2}}}\n'
)


def test_the_demo_sees_the_scripted_game_through_the_real_pipeline(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    log.write_text(ONE_ROUND)
    code = main(["demo", "--headless", "--log", str(log), "--size", "960x540", "--fps", "10"])
    printed = capsys.readouterr().out
    assert "The pipeline saw exactly the scripted game." in printed, printed
    assert code == 0
