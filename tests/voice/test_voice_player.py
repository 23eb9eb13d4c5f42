"""Playback with no sound device: the game goes on and the text is logged."""

from __future__ import annotations

import logging
import sys
import types

import pytest
from voice_fakes import FakeBackend

from companion.voice import Audio, LogPlayer, Narrator, PlaybackError, load_backend, player
from companion.voice.player import CommandPlayer, SoundDevicePlayer, open_player

SPEECH = Audio(b"\x00\x00" * 100, 22050)


def _no_sound_at_all(monkeypatch):
    monkeypatch.setitem(sys.modules, "sounddevice", None)  # import fails
    monkeypatch.setattr(player.shutil, "which", lambda name: None)


def test_no_device_and_no_command_gives_the_log_player(monkeypatch):
    _no_sound_at_all(monkeypatch)
    assert isinstance(open_player(), LogPlayer)


def test_with_the_log_player_the_narrator_logs_what_would_be_said(caplog):
    heard = []
    with (
        caplog.at_level(logging.INFO),
        Narrator(
            backend=FakeBackend(), player=LogPlayer(), sink=lambda text, audio: heard.append(audio)
        ) as narrator,
    ):
        narrator.say("Bear! Wolf!")
        assert narrator.wait_idle(10)
    assert "would say: Bear! Wolf!" in caplog.text
    assert heard == [Audio(b"", 22050)]


def test_sounddevice_without_output_device_is_refused(monkeypatch):
    def no_device(kind):
        raise ValueError("No output device found")

    fake = types.SimpleNamespace(query_devices=no_device)
    monkeypatch.setitem(sys.modules, "sounddevice", fake)
    with pytest.raises(PlaybackError, match="no output sound device"):
        SoundDevicePlayer()


def test_player_command_is_used_when_present(monkeypatch):
    monkeypatch.setitem(sys.modules, "sounddevice", None)
    monkeypatch.setattr(player.shutil, "which", lambda name: f"/usr/bin/{name}")
    chosen = open_player()
    assert isinstance(chosen, CommandPlayer) and chosen.name == "aplay"


def test_command_player_runs_the_command_on_a_wav():
    reader = CommandPlayer((sys.executable, "-c", "import sys, wave; wave.open(sys.argv[1])"))
    reader.start(SPEECH, "Bear!")
    reader.wait()


def test_failing_command_player_raises_playback_error():
    failing = CommandPlayer((sys.executable, "-c", "raise SystemExit('no soundcard')"))
    failing.start(SPEECH, "Bear!")
    with pytest.raises(PlaybackError, match="no soundcard"):
        failing.wait()


def test_narrator_goes_on_when_playback_fails(caplog):
    failing = CommandPlayer((sys.executable, "-c", "raise SystemExit('device busy')"))
    heard: list[str] = []
    with (
        caplog.at_level(logging.INFO),
        Narrator(
            backend=FakeBackend(), player=failing, sink=lambda text, audio: heard.append(text)
        ) as narrator,
    ):
        narrator.say("One.")
        narrator.say("Two.")
        assert narrator.wait_idle(10)
        assert narrator.player_name == "log"
    assert heard == ["One.", "Two."]
    assert "device busy" in caplog.text and "would say: Two." in caplog.text


def test_narrator_without_any_sound(monkeypatch, caplog):
    _no_sound_at_all(monkeypatch)
    with caplog.at_level(logging.INFO), Narrator(backend=load_backend("en", "text")) as narrator:
        narrator.say("Nobody hears this.")
        assert narrator.wait_idle(10)
    assert "Nobody hears this." in caplog.text
