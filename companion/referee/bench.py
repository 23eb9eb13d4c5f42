"""`companion bench live`: from a card's flip in the frames to the engine's event.

The rendered demo film goes through the pipeline, tracker and referee as in `companion
demo --headless`. For each fact the referee records, the bench finds the frame on which
the table first showed it with no hand in the way (a card put down, turned up) and
reports the delay in frames and in milliseconds of film time; and it times the whole
chain (card pipeline, tracker, referee) per frame on one core, rendering excluded. As in
live play, a frame that shows nothing new since the last one read keeps its readings
(`vision.change.ChangeGate`); the report says how many frames were read in full, and
their own median time.

Targets (issue 5): every event within 5 frames of its flip; the chain keeps up with
30 frames per second. Facts that wait on purpose are reported apart: with a player
calling, the faces after a lone revealer wait for the eaten player's hand (prey) or
for the signal window (next call).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from companion.cli.args import parse_size
from companion.demo.film import film_timeline
from companion.demo.game import DEMO_DECK, PLAYING_DECK, DemoFilm, load_game, make_film
from companion.demo.run import Eyes, RendererEyes, SeenEvent, play_film
from companion.referee.eyes import open_eyes, seat_calibration, tracker_options
from companion.referee.live import LiveReferee
from companion.referee.session import GameSession
from companion.rules.events import Hunted, Played, Revealed
from companion.store import Store
from companion.vision.types import Frame, TableState

TARGET_FRAMES = 5
TARGET_FPS = 30.0
Change = tuple[str, str, int | None]  # (seat, "down" | "up", rank)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--log", type=argparse.FileType("r"), help="film this table log")
    parser.add_argument("--seed", type=int, help="film a random game from this seed")
    parser.add_argument("--fps", type=float, default=TARGET_FPS, help="film frames per second")
    parser.add_argument("--size", type=parse_size, default=(1280, 720), help="frame size WxH")
    parser.add_argument("--frames", type=int, default=0, help="stop after N frames (0: all)")
    parser.add_argument(
        "--deck",
        choices=(DEMO_DECK, PLAYING_DECK),
        help="the cards filmed and read (default: the deck of the game's rule setting)",
    )
    parser.add_argument(
        "--eyes",
        choices=("vision", "renderer"),
        default="vision",
        help="read cards with the real pipeline, or take the renderer's truth (tracker only)",
    )


@dataclass
class Delay:
    """One recorded fact and how long after its flip it came."""

    kind: str
    frames: int


def main(args: argparse.Namespace) -> int:
    config, events = _game(args)
    try:
        film = make_film(config, events, fps=args.fps, size=args.size, deck=args.deck)
    except ValueError as error:  # playing cards for more players than suits
        print(f"companion bench live: {error}", file=sys.stderr)
        return 2
    changes = visible_changes(film)
    timer = _Timer()
    with _one_core(), Store(":memory:") as store:
        session = GameSession.new(store, film.config)
        referee = LiveReferee(session, caller=film.caller, timing=film.timing)
        shots = film.shots()
        if args.frames:
            shots = (shot for shot in shots if shot[0].index < args.frames)
        eyes, stream, full_reads = _eyes(args.eyes, film, shots)
        run = play_film(referee, stream, timer.wrap(eyes, full_reads), events)
    delays = match_delays(run.seen, changes)
    complete = not args.frames or args.frames >= film.frames
    _print_report(film, run.matches if complete else None, delays, timer)
    return 0


@contextmanager
def _one_core() -> Iterator[None]:
    """Measure on one core: pin the process and keep OpenCV to one thread, then undo."""
    import cv2

    threads = cv2.getNumThreads()
    cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    cv2.setNumThreads(1)
    if cores:
        os.sched_setaffinity(0, {min(cores)})
    try:
        yield
    finally:
        cv2.setNumThreads(threads)
        if cores:
            os.sched_setaffinity(0, cores)


def _game(args: argparse.Namespace) -> tuple:
    if args.log is not None:
        from companion.rules.tablelog import read_table_log

        return read_table_log(args.log.read())
    return load_game(None, args.seed)


def _eyes(
    kind: str, film: DemoFilm, shots: Iterable
) -> tuple[Eyes, Iterable, Callable[[], int] | None]:
    """The eyes, the stream they take, and the count of frames they read in full."""
    seats = seat_calibration(seats=film.layout.anchors(), calibration=None)
    if kind == "renderer":
        from companion.vision.tracker import Tracker

        eyes = RendererEyes(Tracker(seats, **tracker_options(film.fps)))
        return eyes, eyes.film(shots), None
    vision = open_eyes(film.deck, seats, film.config.players, film.fps)
    stream = ((instant, frame) for instant, frame, _ in shots)
    return (lambda instant, frame: vision.see(frame).table), stream, lambda: vision.full_reads


class _Timer:
    """Wall time spent in the eyes and the referee, per frame (rendering excluded), and
    whether the frame was read in full (the eyes skip frames that show nothing new)."""

    def __init__(self) -> None:
        self.seconds: list[float] = []
        self.full: list[bool] = []

    def wrap(self, eyes: Eyes, full_reads: Callable[[], int] | None) -> Eyes:
        def timed(instant, frame: Frame | None) -> TableState:
            before = full_reads() if full_reads else 0
            start = time.perf_counter()
            table = eyes(instant, frame)
            self.seconds.append(time.perf_counter() - start)
            self.full.append(full_reads() > before if full_reads else True)
            return table

        return timed


def visible_changes(film: DemoFilm) -> dict[Change, list[int]]:
    """For each card put down or turned up, in order, the first frame it shows with no
    hand over its seat. Keys: (seat, "down", None) for a card played (an eaten player's
    hand laid down is not one), (seat, "up", rank) for a face."""
    changes: dict[Change, list[int]] = defaultdict(list)
    previous: dict[str, tuple[int, list[int]]] = {}
    for instant in film_timeline(film.moments, film.fps):
        moment = film.moments[instant.moment]
        if not instant.first or not moment.camera:
            continue
        covered = moment.hand_at[0] if moment.hand_at is not None else None
        for seat, cards in moment.seats.items():
            if seat == covered:
                continue
            played = len(cards.played)
            ups = [rank for rank, face in cards.played if face == "up"]
            played_before, ups_before = previous.get(seat, (0, []))
            for rank in set(ups):
                for _ in range(ups.count(rank) - ups_before.count(rank)):
                    changes[(seat, "up", rank)].append(instant.index)
            for _ in range(played - played_before):
                changes[(seat, "down", None)].append(instant.index)
            previous[seat] = (played, ups)
    return changes


def match_delays(seen: list[SeenEvent], changes: dict[Change, list[int]]) -> list[Delay]:
    """The n-th fact about a card against the n-th time such a card showed."""
    taken: dict[Change, int] = defaultdict(int)
    delays = []
    for item in seen:
        match item.event:
            case Played(player):
                keys, kind = [(player, "down", None)], "played"
            case Revealed(player, rank):
                keys, kind = [(player, "up", rank)], "revealed"
            case Hunted(_, rank, eaten) if eaten:
                keys, kind = [(name, "up", rank) for name in eaten], "hunted"
            case _:
                continue
        flips = []
        for key in keys:
            frames = changes.get(key, [])
            if taken[key] < len(frames):
                flips.append(frames[taken[key]])
            taken[key] += 1
        if len(flips) == len(keys):
            delays.append(Delay(kind, item.frame - max(flips)))
    return delays


def _print_report(film: DemoFilm, matches: bool | None, delays: list[Delay], timer: _Timer) -> None:
    seconds = timer.seconds
    w, h = film.layout.size
    print(f"live bench: {len(seconds)} frames {w}x{h} at {film.fps:g} fps, one core")
    if matches is None:
        print("  the film was cut short (--frames): the game is not compared")
    else:
        print(f"  the referee saw the scripted game: {'yes' if matches else 'NO'}")
    by_kind: dict[str, list[int]] = defaultdict(list)
    for delay in delays:
        by_kind[delay.kind].append(delay.frames)
    ms_per_frame = 1000.0 / film.fps
    for kind, frames in sorted(by_kind.items()):
        within = sum(1 for f in frames if f <= TARGET_FRAMES)
        print(
            f"  {kind:9s} n={len(frames):3d}  delay median {statistics.median(frames):4.1f} "
            f"frames ({statistics.median(frames) * ms_per_frame:5.0f} ms), min {min(frames)}, "
            f"max {max(frames)} frames; within {TARGET_FRAMES} frames: {within}/{len(frames)}"
        )
    if seconds:
        median_ms = 1000.0 * statistics.median(seconds)
        p95_ms = 1000.0 * sorted(seconds)[int(0.95 * (len(seconds) - 1))]
        fps = 1000.0 / median_ms if median_ms else float("inf")
        verdict = "keeps up" if fps >= TARGET_FPS else "does NOT keep up"
        print(
            f"  pipeline+tracker+referee: median {median_ms:.1f} ms/frame, p95 {p95_ms:.1f} ms "
            f"= {fps:.0f} fps: {verdict} with {TARGET_FPS:g} fps"
        )
        full = [s for s, read in zip(seconds, timer.full, strict=True) if read]
        if full and len(full) < len(seconds):
            print(
                f"  frames read in full: {len(full)} of {len(seconds)} (the rest showed nothing "
                f"new), median {1000.0 * statistics.median(full):.1f} ms each"
            )
