"""What a speech backend is, and how one says it cannot load."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from companion.voice.audio import Audio


class BackendUnavailable(RuntimeError):
    """A backend that cannot speak here; the message says why (missing package, no voice)."""


class Backend(Protocol):
    """Turns text into speech for one language and one voice.

    `synthesize` is only ever called from one thread at a time (the narrator's).
    """

    name: str  # "piper", "espeak" or "text"
    language: str  # a code of companion.i18n.LANGUAGES
    voice: str  # the voice in use, as `companion voice list` names it
    makes_audio: bool  # False for the text backend

    def synthesize(self, text: str, rate: float = 1.0) -> Audio:
        """Speech for `text`; rate 1.0 is the voice's natural pace, 2.0 twice as fast."""
        ...


@dataclass(frozen=True, slots=True)
class VoiceInfo:
    """One voice a backend offers, as `companion voice list` shows it."""

    backend: str
    voice: str
    languages: tuple[str, ...]
    detail: str
