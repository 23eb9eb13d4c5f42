"""Real backends write real speech: WAV format and a sane duration, per language installed."""

from __future__ import annotations

import wave
from functools import cache

import pytest

from companion.i18n import rank_name
from companion.voice import BackendUnavailable, open_backend

INSTALLED_PAIRS = [("piper", "en"), ("espeak", "en"), ("espeak", "fr"), ("espeak", "de")]


@cache
def _backend(name: str, lang: str):
    """Each backend once per run: loading the Piper model takes about a second."""
    try:
        return open_backend(name, lang)
    except BackendUnavailable as why:
        pytest.skip(str(why))


@pytest.mark.parametrize(("name", "lang"), INSTALLED_PAIRS)
def test_speech_is_a_mono_16bit_wav_of_sane_length(name, lang, tmp_path):
    backend = _backend(name, lang)
    audio = backend.synthesize(f"{rank_name(3, lang)}!")
    path = tmp_path / f"{name}-{lang}.wav"
    audio.write_wav(path)
    with wave.open(str(path), "rb") as wav:
        assert wav.getnchannels() == 1
        assert wav.getsampwidth() == 2
        assert 8000 <= wav.getframerate() <= 48000
        duration = wav.getnframes() / wav.getframerate()
    assert 0.1 < duration < 3.0, f"{name} {lang}: a one-word call lasted {duration:.2f} s"
    assert audio.samples().any(), "the call is silent"


@pytest.mark.parametrize(("name", "lang"), INSTALLED_PAIRS)
def test_faster_rate_makes_shorter_speech(name, lang):
    backend = _backend(name, lang)
    text = "Alia, Ben."
    assert backend.synthesize(text, rate=2.0).duration < backend.synthesize(text).duration


def test_unknown_espeak_voice_says_why():
    with pytest.raises(BackendUnavailable, match="no voice 'no-such-voice'"):
        open_backend("espeak", "fr", "no-such-voice")


def test_piper_has_no_french_voice_of_its_own():
    with pytest.raises(BackendUnavailable, match="no 'fr' voice installed"):
        open_backend("piper", "fr")
