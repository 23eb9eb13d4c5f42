"""Fakes for the narrator tests: a backend that records what it synthesized, a player we hold."""

from __future__ import annotations

import threading

from companion.voice import Audio


class FakeBackend:
    """Makes 10 ms of silence per text and remembers each (text, rate) asked."""

    name = "fake"
    voice = "test"
    language = "en"
    makes_audio = True

    def __init__(self, fail: bool = False) -> None:
        self.synthesized: list[tuple[str, float]] = []
        self.fail = fail

    def synthesize(self, text: str, rate: float = 1.0) -> Audio:
        self.synthesized.append((text, rate))
        if self.fail:
            raise RuntimeError("voice model broken")
        return Audio(b"\x00\x01" * 220, 22050)


class HeldPlayer:
    """Plays instantly, except texts in `hold`: those wait until `release` or `stop`."""

    name = "held"

    def __init__(self, hold: tuple[str, ...] = ()) -> None:
        self.hold = set(hold)
        self.played: list[str] = []
        self.stops = 0
        self.playing = threading.Event()
        self._released = threading.Event()
        self._holding = False

    def start(self, audio: Audio, text: str) -> None:
        self.played.append(text)
        self._holding = text in self.hold
        if self._holding:
            self.playing.set()

    def wait(self) -> None:
        if self._holding:
            self._released.wait(5)

    def stop(self) -> None:
        self.stops += 1
        self._released.set()

    def release(self) -> None:
        self._released.set()
