"""Synthesized speech as plain PCM: what every backend returns and every player accepts.

One format everywhere (mono, signed 16-bit, native rate of the backend) keeps backends,
players, the cache and `--out FILE.wav` independent of each other.
"""

from __future__ import annotations

import io
import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np

SAMPLE_WIDTH = 2  # bytes: signed 16-bit samples


@dataclass(frozen=True, slots=True)
class Audio:
    """Mono signed 16-bit little-endian PCM at `sample_rate` Hz."""

    pcm: bytes
    sample_rate: int

    @property
    def duration(self) -> float:
        """Length in seconds."""
        return len(self.pcm) / (SAMPLE_WIDTH * self.sample_rate)

    def samples(self) -> np.ndarray:
        """The samples as an int16 array (a view, no copy)."""
        return np.frombuffer(self.pcm, dtype="<i2")

    def scaled(self, volume: float) -> Audio:
        """The same speech at `volume` (1.0 unchanged), clipped to the 16-bit range."""
        if volume == 1.0:
            return self
        louder = np.clip(self.samples().astype(np.float32) * volume, -32768, 32767)
        return Audio(louder.astype("<i2").tobytes(), self.sample_rate)

    def wav_bytes(self) -> bytes:
        """A complete WAV file holding this audio."""
        buffer = io.BytesIO()
        with wave.open(buffer, "wb") as wav:
            wav.setnchannels(1)
            wav.setsampwidth(SAMPLE_WIDTH)
            wav.setframerate(self.sample_rate)
            wav.writeframes(self.pcm)
        return buffer.getvalue()

    def write_wav(self, path: str | Path) -> None:
        """Write this audio as a WAV file at `path`."""
        Path(path).write_bytes(self.wav_bytes())
