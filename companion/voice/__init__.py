"""Speech for the table: backends (piper, espeak, text), players, and the narrator thread.

`Narrator(lang, deck, backend, ...)` is what the game uses; see docs/design.md.
"""

from companion.voice.audio import Audio
from companion.voice.backends import BACKENDS, list_voices, load_backend, open_backend
from companion.voice.base import Backend, BackendUnavailable, VoiceInfo
from companion.voice.narrator import Narrator, Sink
from companion.voice.player import LogPlayer, PlaybackError, Player, open_player
from companion.voice.settings import VoiceSettings, load_settings, save_settings

__all__ = [
    "BACKENDS",
    "Audio",
    "Backend",
    "BackendUnavailable",
    "LogPlayer",
    "Narrator",
    "PlaybackError",
    "Player",
    "Sink",
    "VoiceInfo",
    "VoiceSettings",
    "list_voices",
    "load_backend",
    "load_settings",
    "open_backend",
    "open_player",
    "save_settings",
]
