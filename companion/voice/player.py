"""Playing speech through whatever the machine has, and never failing the game for it.

In order: PortAudio through `sounddevice` (if importable and an output device exists), a
player command (aplay, paplay, afplay), else a log line saying what would have been said.
A player that fails while playing raises PlaybackError; the narrator then logs instead.
Playing is split in `start` and `wait` so that the narrator can synthesize the next
utterance while the sound card plays this one.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import Protocol

from companion.voice.audio import Audio

log = logging.getLogger(__name__)

# Command players, tried in order; the WAV file's path is appended.
PLAYER_COMMANDS: tuple[tuple[str, ...], ...] = (("aplay", "-q"), ("paplay",), ("afplay",))


class PlaybackError(RuntimeError):
    """Sound could not be played (no device, player command failed); says why."""


class Player(Protocol):
    """Plays one utterance at a time; `stop` may be called from another thread."""

    name: str

    def start(self, audio: Audio, text: str) -> None:
        """Start playing `audio` (the speech of `text`) and return at once."""
        ...

    def wait(self) -> None:
        """Return when the utterance started last has finished or was stopped."""
        ...

    def stop(self) -> None:
        """Cut the utterance now playing, if any."""
        ...


class LogPlayer:
    """No sound device: plays nothing and returns at once (the narrator logs the text)."""

    name = "log"

    def start(self, audio: Audio, text: str) -> None:
        """Play nothing."""

    def wait(self) -> None:
        """Nothing is ever playing."""

    def stop(self) -> None:
        """Nothing is ever playing."""


class SoundDevicePlayer:
    """PortAudio through the `sounddevice` package."""

    name = "sounddevice"

    def __init__(self) -> None:
        try:
            import sounddevice
        except (ImportError, OSError) as error:  # OSError: PortAudio library missing
            raise PlaybackError(f"sounddevice unavailable: {error}") from None
        try:
            sounddevice.query_devices(kind="output")
        except Exception as error:  # PortAudioError or ValueError: no output device
            raise PlaybackError(f"no output sound device: {error}") from None
        self._sd = sounddevice

    def start(self, audio: Audio, text: str) -> None:
        """Start playing through the default output device."""
        try:
            self._sd.play(audio.samples(), audio.sample_rate)
        except Exception as error:  # PortAudioError: device gone mid-game
            raise PlaybackError(f"sounddevice playback failed: {error}") from None

    def wait(self) -> None:
        """Block until the sound has played or was stopped."""
        try:
            self._sd.wait()
        except Exception as error:
            raise PlaybackError(f"sounddevice playback failed: {error}") from None

    def stop(self) -> None:
        """Stop the stream now playing."""
        self._sd.stop()


class CommandPlayer:
    """A platform player command fed a temporary WAV file."""

    def __init__(self, command: tuple[str, ...]) -> None:
        self.command = command
        self.name = command[0]
        self._process: subprocess.Popen[bytes] | None = None
        self._folder: tempfile.TemporaryDirectory[str] | None = None
        self._lock = threading.Lock()
        self._stopped = False

    def start(self, audio: Audio, text: str) -> None:
        """Write a WAV and start the player command on it."""
        self._folder = tempfile.TemporaryDirectory(prefix="companion-voice-")
        path = Path(self._folder.name) / "speech.wav"
        audio.write_wav(path)
        with self._lock:
            self._stopped = False
            try:
                self._process = subprocess.Popen(
                    [*self.command, str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
                )
            except OSError as error:
                raise PlaybackError(f"cannot run {self.name}: {error}") from None

    def wait(self) -> None:
        """Wait for the command; PlaybackError with its last error line if it failed."""
        process = self._process
        if process is None:
            return
        _, error = process.communicate()
        with self._lock:
            failed = process.returncode != 0 and not self._stopped
            self._process = None
        if self._folder is not None:
            self._folder.cleanup()
            self._folder = None
        if failed:
            message = error.decode(errors="replace").strip().splitlines()[-1:] or ["no message"]
            raise PlaybackError(f"{self.name} failed: {message[0]}")

    def stop(self) -> None:
        """Terminate the player process now running."""
        with self._lock:
            if self._process is not None:
                self._stopped = True
                self._process.terminate()


def open_player() -> Player:
    """The best player this machine has; LogPlayer when there is no sound at all."""
    try:
        return SoundDevicePlayer()
    except PlaybackError as why:
        log.info("%s; trying a player command", why)
    for command in PLAYER_COMMANDS:
        if shutil.which(command[0]):
            return CommandPlayer(command)
    log.info("no sound device or player command found: speech is logged instead")
    return LogPlayer()
