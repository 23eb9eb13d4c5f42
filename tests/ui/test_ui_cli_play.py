"""`companion play`: the options, and a clear refusal when there is nothing to resume."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import voice
from companion.cli import build_parser, main, play
from companion.referee.session import GameSession
from companion.rules.events import GameConfig, Played
from companion.store import Store
from companion.ui.app import CompanionApp
from companion.voice import VoiceSettings


def test_manual_and_resume_options_parse():
    args = build_parser().parse_args(
        ["play", "--manual", "--db", "games.sqlite3", "--lang", "fr", "--mute"]
    )
    assert args.manual and not args.resume
    assert args.db == Path("games.sqlite3") and args.lang == "fr" and args.mute


def test_manual_and_resume_exclude_each_other(capsys: pytest.CaptureFixture[str]):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["play", "--manual", "--resume"])
    assert "not allowed with argument" in capsys.readouterr().err


def test_an_unknown_language_is_refused_with_the_choices(capsys: pytest.CaptureFixture[str]):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["play", "--lang", "xx"])
    assert "choose from" in capsys.readouterr().err


def test_resume_with_no_unfinished_game_says_how_to_start_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    assert main(["play", "--resume", "--db", str(tmp_path / "none.sqlite3")]) == 1
    err = capsys.readouterr().err
    assert "no unfinished game to resume" in err
    assert "companion play --manual" in err


def test_resume_opens_the_last_unfinished_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    db = tmp_path / "games.sqlite3"
    with Store(db) as store:
        session = GameSession.new(store, GameConfig(("Alia", "Ben")))
        session.submit(Played("Alia"))
    opened: list[tuple[int, tuple[Played, ...]]] = []

    def run(app: CompanionApp) -> None:
        assert app.session is not None
        opened.append((app.session.game_id, app.session.events))

    monkeypatch.setattr(CompanionApp, "run", run)
    monkeypatch.setattr(play, "table_voice", lambda args: ("en", None))
    assert main(["play", "--resume", "--db", str(db)]) == 0
    assert opened == [(session.game_id, (Played("Alia"),))]


def test_manual_opens_the_set_up_in_the_chosen_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    stores: list[Path] = []

    def run(app: CompanionApp) -> None:
        assert app.session is None  # the set-up screen comes first
        stores.append(app.store.path)

    monkeypatch.setattr(CompanionApp, "run", run)
    monkeypatch.setattr(play, "table_voice", lambda args: ("fr", None))
    assert main(["play", "--manual", "--db", str(tmp_path / "g.sqlite3"), "--lang", "fr"]) == 0
    assert stores == [tmp_path / "g.sqlite3"]


def test_table_voice_puts_lang_and_mute_over_the_saved_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    made: list[tuple[VoiceSettings, str]] = []
    monkeypatch.setattr(voice, "load_settings", lambda: VoiceSettings(lang="de", rate=1.2))
    monkeypatch.setattr(
        voice.Narrator, "from_settings", lambda settings, deck: made.append((settings, deck))
    )
    args = build_parser().parse_args(["play", "--mute"])
    lang, narrator_for = play.table_voice(args)
    narrator_for("playing-cards")
    assert lang == "de"
    assert made == [(VoiceSettings(lang="de", rate=1.2, mute=True), "playing-cards")]
