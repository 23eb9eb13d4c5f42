"""Choosing a backend: what was asked for, else the next that loads, text last."""

from __future__ import annotations

import logging

import pytest

from companion.voice import BackendUnavailable, backends, load_backend, open_backend


@pytest.fixture
def espeak_installed():
    try:
        open_backend("espeak", "fr")
    except BackendUnavailable as why:
        pytest.skip(str(why))


def test_french_is_spoken_by_espeak(espeak_installed):
    chosen = load_backend("fr")
    assert (chosen.name, chosen.voice) == ("espeak", "fr")


def test_a_voice_without_backend_finds_its_backend(espeak_installed):
    chosen = load_backend("fr", voice="fr-BE")
    assert (chosen.name, chosen.voice) == ("espeak", "fr-BE")


def test_unknown_voice_falls_back_to_the_default_voice_with_a_warning(espeak_installed, caplog):
    with caplog.at_level(logging.WARNING):
        chosen = load_backend("fr", "espeak", "no-such-voice")
    assert (chosen.name, chosen.voice) == ("espeak", "fr")
    assert "no voice 'no-such-voice'" in caplog.text


def test_nothing_speaks_gives_the_text_backend(monkeypatch):
    def unavailable(language, voice=None):
        raise BackendUnavailable("not here")

    monkeypatch.setitem(backends._CLASSES, "piper", unavailable)
    monkeypatch.setitem(backends._CLASSES, "espeak", unavailable)
    chosen = load_backend("en")
    assert chosen.name == "text" and not chosen.makes_audio
    assert chosen.synthesize("Bear!").pcm == b""


def test_unknown_backend_name_says_what_was_expected():
    with pytest.raises(ValueError, match="expected one of piper, espeak, text"):
        open_backend("festival", "en")
