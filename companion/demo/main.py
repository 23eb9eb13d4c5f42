"""`companion demo`: a scripted game, filmed and played through the whole real pipeline.

The film goes through the card pipeline (deck `demo-animals`, or `playing-cards` for the
variant: `--deck`), the tracker, the live referee, the engine, the narration and the
history store, exactly as a camera's frames would. The companion calls the ranks
(`--caller table`: a player does, as in a video).
Three ways to watch it:
- the dashboard, in real time (`--speed` to go faster);
- `--headless`: the game's events and final scores printed; exit 0 only if the
  table log the referee produced is exactly the script's;
- `--save-video FILE`: the film written to a video file for `companion play --video`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from pathlib import Path

from companion.demo.film import Instant
from companion.demo.game import DemoFilm, load_game, make_film
from companion.demo.layout import seats_argument
from companion.demo.run import FilmRun, play_film
from companion.demo.script import complete_hunts
from companion.referee.eyes import SetupError, VisionEyes, open_eyes, seat_calibration
from companion.referee.feed import FeedItem, FrameFeed
from companion.referee.headless import EventPrinter, final_scores
from companion.referee.live import LiveReferee
from companion.referee.session import GameSession
from companion.rules.state import initial_state
from companion.rules.tablelog import TableLogError
from companion.store import Store
from companion.vision.sources import SourceError, VideoWriter
from companion.vision.types import Frame


def main(args: argparse.Namespace) -> int:
    """Run the demo as the options ask; 2 for bad input, with one line saying why."""
    try:
        config, events = load_game(args.log, args.seed)
        film = make_film(
            config,
            events,
            fps=args.fps,
            size=args.size,
            seed=args.film_seed,
            caller=args.caller,
            deck=args.deck,
        )
        seats = seat_calibration(seats=film.layout.anchors(), calibration=None)
        eyes = open_eyes(film.deck, seats, config.players, film.fps)
    except (TableLogError, OSError, SetupError, ValueError) as error:
        print(f"companion demo: {error}", file=sys.stderr)
        return 2
    if not complete_hunts(initial_state(config), events):
        print("companion demo: the log has no complete hunt to film", file=sys.stderr)
        return 2
    with ExitStack() as stack:
        db = args.db or Path(stack.enter_context(tempfile.TemporaryDirectory())) / "demo.db"
        store = stack.enter_context(Store(db))
        sink = None
        if args.save_video:
            sink = stack.enter_context(VideoWriter(args.save_video, film.fps))
        try:
            if args.headless:
                return headless(film, eyes, store, sink, args.lang or "en")
            if sink is not None:
                return save_only(film, sink)
            return dashboard(film, eyes, store, args)
        except SourceError as error:  # the video file cannot be written
            print(f"companion demo: {error}", file=sys.stderr)
            return 2


def headless(
    film: DemoFilm, eyes: VisionEyes, store: Store, sink: VideoWriter | None, lang: str
) -> int:
    """Play the film with no UI, print what happened, compare with the script."""
    session = GameSession.new(store, film.config)
    referee = LiveReferee(session, caller=film.caller, timing=film.timing)
    printer = EventPrinter(sys.stdout, lang, film.config.rules)
    frames = film.pictures()
    if sink is not None:
        frames = recorded(frames, sink)
    print(f"Demo: {len(film.config.players)} players, {film.frames} frames at {film.fps:g} fps")
    run = play_film(
        referee,
        frames,
        lambda instant, frame: eyes.see(frame).table,
        film.events,
        on_output=lambda instant, output: printer.show(instant.index, instant.t, output),
    )
    print(final_scores(session.state))
    if sink is not None:
        print(replay_command(film, sink.path))
    return report(run)


def report(run: FilmRun) -> int:
    """Say whether the pipeline saw the scripted game; 0 only if it did, exactly."""
    if run.matches:
        print("The pipeline saw exactly the scripted game.")
        return 0
    print("The pipeline did NOT see the scripted game. Expected, then seen:")
    expected, seen = run.expected_log.splitlines(), run.seen_log.splitlines()
    for number in range(max(len(expected), len(seen))):
        want = expected[number] if number < len(expected) else "(nothing)"
        got = seen[number] if number < len(seen) else "(nothing)"
        if want != got:
            print(f"  line {number + 1}:\n    expected {want}\n    seen     {got}")
    return 1


def save_only(film: DemoFilm, sink: VideoWriter) -> int:
    """Render the film into `sink` and say how to replay it."""
    for _ in recorded(film.pictures(), sink):
        pass
    print(f"Wrote {film.frames} frames to {sink.path}")
    print(replay_command(film, sink.path))
    return 0


def replay_command(film: DemoFilm, path: Path) -> str:
    players = ",".join(film.config.players)
    return (
        f"Replay it: companion play --video {path} --headless --players {players} "
        f'--seats "{seats_argument(film.layout)}" --deck {film.deck} '
        f"--rules {film.config.rules} --log-out out.jsonl"
    )


def dashboard(film: DemoFilm, eyes: VisionEyes, store: Store, args: argparse.Namespace) -> int:
    """The film on the dashboard in real time (times `--speed`)."""
    from companion.cli.play import table_voice
    from companion.ui.app import CompanionApp

    def film_items() -> Iterator[FeedItem]:
        frames = film.pictures()
        return (_feed_item(instant, frame) for instant, frame in frames)

    def live(session: GameSession) -> FrameFeed:
        referee = LiveReferee(session, caller=film.caller, timing=film.timing)
        return FrameFeed(referee, film_items, eyes, speed=args.speed, reopen=False)

    session = GameSession.new(store, film.config)
    lang, narrator_for = table_voice(args)
    CompanionApp(store, session=session, lang=lang, narrator_for=narrator_for, live=live).run()
    return 0


def recorded(
    items: Iterable[tuple[Instant, Frame | None]], sink: VideoWriter
) -> Iterator[tuple[Instant, Frame | None]]:
    """Pass the film through, writing each picture to `sink` (a camera gap writes nothing)."""
    for instant, frame in items:
        if frame is not None:
            sink.write(frame.image)
        yield instant, frame


def _feed_item(instant: Instant, frame: Frame | None) -> FeedItem:
    return frame, instant.operator
