"""`companion bench voice`: time to first audio, per installed backend and language.

Measured through the real narrator (queue, thread, cache) with a player that plays
nothing, from `say()` to the moment the first sound is handed to the player:
- call: a rank call, which the narrator synthesized ahead (the 100 ms promise);
- announcement: a sentence never said before (synthesized on demand);
plus the backend's load time and its real-time factor (synthesis time / speech length:
below 1 is faster than speaking). Medians over --runs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import threading
import time
from dataclasses import asdict, dataclass

from companion.i18n import LANGUAGES, render
from companion.voice.audio import Audio
from companion.voice.backends import open_backend
from companion.voice.base import Backend, BackendUnavailable
from companion.voice.narrator import Narrator

SPEAKING_BACKENDS = ("piper", "espeak")
NAMES = ("Alia", "Ben", "Carmen", "Dori", "Emil", "Fatou", "Gus", "Hana", "Ivo", "Jun")


@dataclass(frozen=True)
class VoiceBenchRow:
    """One backend in one language: load time and medians of time to first audio (ms)."""

    backend: str
    lang: str
    voice: str
    load_ms: float
    call_ms: float
    announcement_ms: float
    real_time_factor: float
    runs: int


@dataclass(frozen=True)
class _Message:
    msg: str
    params: dict[str, object]


class _TimingPlayer:
    """Plays nothing; records when the first sound of the next utterance reaches it."""

    name = "bench"

    def __init__(self) -> None:
        self._started = threading.Event()
        self._at = 0.0

    def start(self, audio: Audio, text: str) -> None:
        """Note the time of the first start since `seconds_after` began."""
        if not self._started.is_set():
            self._at = time.perf_counter()
            self._started.set()

    def wait(self) -> None:
        """Nothing plays."""

    def stop(self) -> None:
        """Nothing to stop."""

    def seconds_after(self, narrator: Narrator, item: _Message) -> float:
        """Seconds from `narrator.say(item)` to its first sound reaching this player."""
        self._started.clear()
        begin = time.perf_counter()
        narrator.say(item)
        if not self._started.wait(10):
            raise RuntimeError(f"no audio within 10 s for {item.msg}")
        narrator.wait_idle()
        return self._at - begin


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `companion bench voice`."""
    parser.add_argument("--runs", type=int, default=5, help="measurements per median (1-50)")
    parser.add_argument("--lang", choices=LANGUAGES, action="append", help="default: all")
    parser.add_argument(
        "--backend", choices=SPEAKING_BACKENDS, action="append", help="default: all installed"
    )
    parser.add_argument("--json", action="store_true", help="print JSON rows instead of a table")


def measure(backend_name: str, lang: str, runs: int) -> VoiceBenchRow:
    """Time one backend in one language (raises BackendUnavailable if it cannot load)."""
    start = time.perf_counter()
    backend = open_backend(backend_name, lang)
    load_ms = (time.perf_counter() - start) * 1000
    player = _TimingPlayer()
    narrator = Narrator(lang, backend=backend, player=player, pause_after_call=0.0)
    with narrator:
        narrator.wait_idle()  # the calls are cached, as in a game
        calls, announcements = [], []
        for run in range(runs):
            call = _Message("call", {"rank": run % 5 + 1})
            calls.append(player.seconds_after(narrator, call))
            name = NAMES[run % len(NAMES)] + str(run // len(NAMES) or "")
            fresh = _Message("lone_hunter", {"player": name, "rank": run % 4 + 1})
            announcements.append(player.seconds_after(narrator, fresh))
    return VoiceBenchRow(
        backend_name,
        lang,
        backend.voice,
        round(load_ms, 1),
        round(statistics.median(calls) * 1000, 1),
        round(statistics.median(announcements) * 1000, 1),
        round(_real_time_factor(backend, lang, runs), 3),
        runs,
    )


def _real_time_factor(backend: Backend, lang: str, runs: int) -> float:
    """Median of synthesis time over speech duration, on an end-of-round sentence."""
    text = render(_Message("hunt_end", {"hunt": 2, "survivors": NAMES[:3]}), lang)
    factors = []
    for _ in range(runs):
        start = time.perf_counter()
        audio = backend.synthesize(text)
        factors.append((time.perf_counter() - start) / max(audio.duration, 1e-6))
    return statistics.median(factors)


def main(args: argparse.Namespace) -> int:
    """Run the voice benchmark and print one row per backend and language."""
    if not 1 <= args.runs <= 50:
        print("companion bench voice: --runs must be from 1 to 50")
        return 2
    rows, skipped = [], []
    for backend_name in args.backend or SPEAKING_BACKENDS:
        for lang in args.lang or LANGUAGES:
            try:
                rows.append(measure(backend_name, lang, args.runs))
            except BackendUnavailable as why:
                skipped.append(str(why))
    if args.json:
        print(json.dumps([asdict(row) for row in rows], indent=2))
    else:
        print("time to first audio (median ms, from say() to the player), load time (ms)")
        print(
            f"{'backend':8} {'lang':4} {'voice':8} {'load':>8} {'call':>8} {'announce':>9} "
            f"{'rtf':>6}"
        )
        for row in rows:
            print(
                f"{row.backend:8} {row.lang:4} {row.voice:8} {row.load_ms:8.1f} "
                f"{row.call_ms:8.1f} {row.announcement_ms:9.1f} {row.real_time_factor:6.3f}"
            )
        for why in skipped:
            print(f"skipped: {why}")
    return 0 if rows else 1
