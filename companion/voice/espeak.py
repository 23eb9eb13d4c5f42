"""eSpeak NG through ctypes, on the library the `espeakng-loader` wheel carries.

No apt package and no subprocess: the library is initialised once per process in
synchronous mode and hands PCM to a callback. eSpeak keeps global state (one voice, one
rate), so every synthesis takes a process-wide lock and sets its own voice and rate.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import threading
from functools import cache

from companion.voice.audio import Audio
from companion.voice.base import BackendUnavailable, VoiceInfo

DEFAULT_VOICES = {"en": "en-us", "fr": "fr", "de": "de"}
NATURAL_WPM = 175
_MIN_WPM, _MAX_WPM = 80, 450

_AUDIO_OUTPUT_SYNCHRONOUS = 2
_INITIALIZE_DONT_EXIT = 0x8000  # without it, eSpeak calls exit() on a bad data folder
_POS_CHARACTER = 1
_ESPEAK_CHARS_UTF8 = 1
_ESPEAK_RATE = 1
_EE_OK = 0

_SynthCallback = ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.POINTER(ctypes.c_short), ctypes.c_int, ctypes.c_void_p
)


class _EspeakVoice(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("languages", ctypes.c_char_p),
        ("identifier", ctypes.c_char_p),
        ("gender", ctypes.c_ubyte),
        ("age", ctypes.c_ubyte),
        ("variant", ctypes.c_ubyte),
        ("xx1", ctypes.c_ubyte),
        ("score", ctypes.c_int),
        ("spare", ctypes.c_void_p),
    ]


class _Library:
    """The process's one initialised eSpeak NG, guarded by a lock."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self._chunks: list[bytes] = []
        library_path, data_path = _locate_library()
        try:
            self._lib = ctypes.CDLL(library_path)
        except OSError as error:
            raise BackendUnavailable(f"espeak: cannot load {library_path}: {error}") from None
        lib = self._lib
        lib.espeak_Initialize.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_char_p, ctypes.c_int]
        lib.espeak_Initialize.restype = ctypes.c_int
        lib.espeak_SetVoiceByName.argtypes = [ctypes.c_char_p]
        lib.espeak_SetParameter.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int]
        lib.espeak_Synth.argtypes = [
            ctypes.c_void_p,
            ctypes.c_size_t,
            ctypes.c_uint,
            ctypes.c_int,
            ctypes.c_uint,
            ctypes.c_uint,
            ctypes.c_void_p,
            ctypes.c_void_p,
        ]
        lib.espeak_ListVoices.argtypes = [ctypes.c_void_p]
        lib.espeak_ListVoices.restype = ctypes.POINTER(ctypes.POINTER(_EspeakVoice))
        data = data_path.encode() if data_path else None
        self.sample_rate = lib.espeak_Initialize(
            _AUDIO_OUTPUT_SYNCHRONOUS, 0, data, _INITIALIZE_DONT_EXIT
        )
        if self.sample_rate <= 0:
            raise BackendUnavailable(f"espeak: initialisation failed (data at {data_path})")
        self._callback = _SynthCallback(self._collect)  # kept alive as long as the library
        lib.espeak_SetSynthCallback(self._callback)

    def _collect(self, wav: ctypes._Pointer, count: int, _events: int) -> int:
        if count > 0:
            self._chunks.append(ctypes.string_at(wav, count * 2))
        return 0  # 0: go on synthesizing

    def set_voice(self, voice: str) -> bool:
        """Select `voice` (name or identifier); False if eSpeak does not know it."""
        return self._lib.espeak_SetVoiceByName(voice.encode()) == _EE_OK

    def synthesize(self, voice: str, text: str, wpm: int) -> bytes:
        """PCM for `text` in `voice` at `wpm` words per minute; caller holds the lock."""
        if not self.set_voice(voice):
            raise BackendUnavailable(f"espeak: no voice named {voice!r}")
        self._lib.espeak_SetParameter(_ESPEAK_RATE, wpm, 0)
        self._chunks = []
        data = text.encode()
        self._lib.espeak_Synth(
            data, len(data) + 1, 0, _POS_CHARACTER, 0, _ESPEAK_CHARS_UTF8, None, None
        )
        self._lib.espeak_Synchronize()
        return b"".join(self._chunks)

    def voices(self) -> list[tuple[str, str, str]]:
        """(name, identifier, language) of every voice the library has."""
        found = []
        table = self._lib.espeak_ListVoices(None)
        index = 0
        while table[index]:
            voice = table[index].contents
            # `languages` is a priority byte then the language code.
            language = (voice.languages or b"?")[1:].decode(errors="replace")
            found.append((voice.name.decode(), voice.identifier.decode(), language))
            index += 1
        return found


def _locate_library() -> tuple[str, str | None]:
    """The wheel's library and data; else a system libespeak-ng with its own data."""
    try:
        import espeakng_loader
    except ImportError:
        system = ctypes.util.find_library("espeak-ng")
        if system is None:
            raise BackendUnavailable(
                "espeak: neither the espeakng-loader package nor a system libespeak-ng "
                "is installed (pip install 'prey-companion[voice]')"
            ) from None
        return system, None
    return espeakng_loader.get_library_path(), espeakng_loader.get_data_path()


@cache
def _library() -> _Library:
    return _Library()


class EspeakBackend:
    """eSpeak NG voices: robotic but clear, every language of the game, a few ms a sentence."""

    name = "espeak"
    makes_audio = True

    def __init__(self, language: str, voice: str | None = None) -> None:
        self.language = language
        self.voice = voice or DEFAULT_VOICES.get(language, language)
        self._library = _library()
        with self._library.lock:
            if not self._library.set_voice(self.voice):
                raise BackendUnavailable(
                    f"espeak: no voice {self.voice!r} (see `companion voice list`)"
                )

    def synthesize(self, text: str, rate: float = 1.0) -> Audio:
        """Speech for `text` at `rate` times the natural pace (175 words a minute)."""
        wpm = round(min(max(NATURAL_WPM * rate, _MIN_WPM), _MAX_WPM))
        with self._library.lock:
            pcm = self._library.synthesize(self.voice, text, wpm)
        return Audio(pcm, self._library.sample_rate)


def espeak_voices(languages: tuple[str, ...]) -> list[VoiceInfo]:
    """The eSpeak voices for `languages` (by language prefix), named as `--voice` takes them."""
    found = []
    for name, identifier, language in _library().voices():
        base = language.split("-")[0]
        if base in languages:
            voice = identifier.rsplit("/", 1)[-1]
            found.append(VoiceInfo("espeak", voice, (base,), f"{name}, language {language}"))
    return found
