"""`companion say` and `companion voice`, run in-process with a private config folder."""

from __future__ import annotations

import wave

import pytest

from companion.cli import main
from companion.voice import BackendUnavailable, open_backend


@pytest.fixture(autouse=True)
def private_config(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("HOME", str(tmp_path))


def test_say_writes_a_wav(tmp_path, capsys):
    try:
        open_backend("espeak", "de")
    except BackendUnavailable as why:
        pytest.skip(str(why))
    out = tmp_path / "bear.wav"
    argv = ["say", "--msg", "call", "--param", "rank=1", "--lang", "de", "--out", str(out)]
    assert main(argv) == 0
    with wave.open(str(out), "rb") as wav:
        assert wav.getnframes() > 0
    assert "espeak voice de" in capsys.readouterr().err


def test_say_with_text_backend_prints_the_text(capsys):
    assert main(["say", "Hello table", "--backend", "text"]) == 0
    assert "Hello table" in capsys.readouterr().out


def test_say_text_backend_cannot_write_audio(tmp_path, capsys):
    assert main(["say", "Hi", "--backend", "text", "--out", str(tmp_path / "x.wav")]) == 1
    assert "nothing written" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["say"], "expected a TEXT to say, or --msg ID"),
        (["say", "--msg", "call"], "needs params rank"),
        (["say", "--msg", "call", "--param", "rank"], "--param expects NAME=VALUE"),
        (["say", "hi", "--rate", "7"], "rate must be a number from 0.5 to 2.0"),
    ],
)
def test_say_bad_input(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_voice_settings_are_kept(capsys):
    assert main(["voice", "settings", "--lang", "fr", "--rate", "1.2", "--pause", "1.5"]) == 0
    capsys.readouterr()
    assert main(["voice", "settings"]) == 0
    shown = capsys.readouterr().out
    assert "fr" in shown and "1.2" in shown and "1.5" in shown


def test_voice_list_shows_every_backend(capsys):
    assert main(["voice", "list", "--lang", "de"]) == 0
    shown = capsys.readouterr().out
    assert "text" in shown and ("espeak" in shown or "not available: espeak" in shown)
