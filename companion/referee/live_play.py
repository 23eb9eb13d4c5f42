"""`companion play --camera N | --video FILE`: the camera drives the game.

`play_live` runs the options of `companion.referee.live_args`: on the dashboard (the
camera thread posts to the app), or `--headless` (events printed; `--log-out` writes
the table log it saw). A player calls by default with a recorded video (`--caller
table`), the companion calls with a live camera (`--caller companion`). With `--resume`
the last unfinished game goes on, with its players and rules.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from companion.referee.eyes import SetupError, VisionEyes, open_eyes, seat_calibration
from companion.referee.feed import FeedItem, FrameFeed, camera_items
from companion.referee.headless import EventPrinter, final_scores, play_frames
from companion.referee.live import LiveReferee
from companion.rules.events import GameConfig
from companion.rules.tablelog import write_table_log

if TYPE_CHECKING:
    from companion.referee.session import GameSession
    from companion.store import Store
    from companion.vision.calibration import Calibration
    from companion.vision.sources import FrameSource


SETUP_ERRORS = (SetupError, ValueError, RuntimeError, OSError)


def play_live(args: argparse.Namespace) -> int:
    """Run live play as the options say; 2 with one line for anything unusable, 1 when
    --resume finds no unfinished game. Nothing is written to the history before the
    set-up has succeeded (only --resume must open it first, to find the game)."""
    from companion.referee.session import GameSession, NoGameToResume
    from companion.store import Store

    try:
        calibration = seat_calibration(seats=args.seats, calibration=_calibration_file(args))
        _tell_card_length(calibration)
        ready = None if args.resume else _ready(args, calibration, _config(args, calibration))
        open_frames = _frames(args, calibration)
    except SETUP_ERRORS as error:
        return _refused(error)
    with Store(args.db) as store:
        resumed = None
        if ready is None:
            # --resume: the last unfinished game, its players and rules; the referee takes
            # the table as it lies now for the state the game stopped in.
            try:
                resumed = GameSession.resume(store)
                ready = _ready(args, calibration, resumed.config)
            except NoGameToResume as error:
                print(f"companion play: {error}; start one without --resume.", file=sys.stderr)
                return 1
            except SETUP_ERRORS as error:
                return _refused(error)
        config, eyes = ready
        if args.headless:
            session = resumed or GameSession.new(store, config)
            _headless(args, session, eyes, open_frames)
        else:
            session = _dashboard(args, store, config, calibration, open_frames, resumed)
        if args.log_out is not None and session is not None:
            log = write_table_log(session.config, session.events)
            args.log_out.write_text(log, encoding="utf-8")
            print(f"Table log written to {args.log_out}")
    return 0


def _ready(
    args: argparse.Namespace, calibration: Calibration, config: GameConfig
) -> tuple[GameConfig, VisionEyes]:
    """The game's config and the eyes that seat its players."""
    return config, open_eyes(args.deck, seats_for(calibration, config.players), config.players)


def _refused(error: Exception) -> int:
    print(f"companion play: {error}", file=sys.stderr)
    return 2


def _caller(args: argparse.Namespace) -> str:
    return args.caller or ("table" if args.video is not None else "companion")


def _calibration_file(args: argparse.Namespace) -> Path | None:
    """--calibration, else the one `companion calibrate` saved, if any."""
    if args.calibration is not None or args.seats is not None:
        return args.calibration
    from companion.vision.calibration import default_calibration_path

    saved = default_calibration_path()
    return saved if saved.is_file() else None


def _config(args: argparse.Namespace, calibration: Calibration) -> GameConfig:
    """The players of --players; without it, the seats' names (the set-up screen may
    change them; headless runs must name the players)."""
    from companion.rules.state import initial_state

    if args.players:
        players = tuple(name.strip() for name in args.players.split(","))
    elif args.headless:
        raise SetupError("expected --players NAME,NAME,... (clockwise, seen from above)")
    else:
        players = calibration.names
    config = GameConfig(players, rules=args.rules, first_caller=args.first_caller)
    return initial_state(config).config


def seats_for(calibration: Calibration, players: tuple[str, ...]) -> Calibration:
    """The calibration with its seats named after `players`.

    Same names: as is. Other names but as many: the seats in calibration order (clockwise
    from the first player) take the players' names in order. Else a `SetupError`.
    """
    if set(calibration.names) == set(players):
        return calibration
    if len(calibration.names) != len(players):
        raise SetupError(
            f"{len(players)} players but {len(calibration.names)} seats "
            f"({', '.join(calibration.names)}): expected one seat per player"
        )
    renamed = dict(zip(calibration.names, players, strict=True))
    return replace(
        calibration,
        seats={renamed[name]: point for name, point in calibration.seats.items()},
        markers={renamed[name]: marker for name, marker in calibration.markers.items()},
    )


def _headless(
    args: argparse.Namespace,
    session: GameSession,
    eyes: VisionEyes,
    open_frames: Callable[[], Iterator[FeedItem]],
) -> None:
    referee = LiveReferee(session, caller=_caller(args))
    printer = EventPrinter(sys.stdout, args.lang or "en", session.config.rules)
    frames = (frame for frame, _ in open_frames() if frame is not None)
    count = play_frames(referee, frames, eyes, printer.show)
    print(f"{count} frames.", final_scores(session.state))


def _frames(args: argparse.Namespace, calibration: Calibration) -> Callable[[], Iterator[FeedItem]]:
    """A function opening the frame stream, checked once now so that errors show at once:
    a source that does not open, or pictures of another size than the seats' calibration
    (`_check_picture_size`)."""
    from companion.vision.sources import CameraSource, SourceError, open_source

    def camera() -> CameraSource:
        return CameraSource(args.camera, size=args.camera_size)

    try:
        first = camera() if args.camera is not None else open_source(args.video)
    except SourceError as error:
        hint = "; or play from a recording: --video FILE" if args.camera is not None else ""
        raise SetupError(f"{error}{hint}") from None
    # The source's picture size, asked once: a camera that gives no picture makes
    # `frame_size` wait its whole timeout.
    wanted = calibration.image_size is not None or args.camera is not None
    size = first.frame_size() if wanted else None
    try:
        _check_picture_size(args, size, calibration)
    except SetupError:
        first.close()
        raise
    if args.camera is not None:
        _tell_camera_size(args, size)
    opened = [first]

    def open_frames() -> Iterator[FeedItem]:
        source = opened.pop() if opened else camera()
        if args.camera is not None:
            return camera_items(source)
        return _file_items(source)

    return open_frames


def _check_picture_size(
    args: argparse.Namespace, size: tuple[int, int] | None, calibration: Calibration
) -> None:
    """A `SetupError` where the source's pictures (`size`) are of another size than those
    the seats were calibrated on: every card would be seated by anchors lying elsewhere.
    Seats given as `--seats` text have no size; a camera that gives no picture yet (`size`
    None) is not judged."""
    from companion.vision.calibration import CalibrationError

    if size is None or calibration.image_size is None:
        return
    if args.camera is not None:
        what = f"camera {args.camera}'s picture"
        width, height = calibration.image_size
        hint = f" (or ask the camera for pictures that size: --camera-size {width}x{height})"
    else:
        what, hint = f"video {args.video}", ""
    try:
        calibration.check_image_size(size, what)
    except CalibrationError as error:
        raise SetupError(f"{error}{hint}") from None


def _tell_camera_size(args: argparse.Namespace, size: tuple[int, int] | None) -> None:
    """Say so where the camera gives pictures (`size`) of another size than it was asked
    for (one without 1280x720 gives the nearest it has): the cards then look smaller or
    larger than card reading is measured at."""
    from companion.cli.args import CAMERA_SIZE

    if size is not None and tuple(size) != tuple(args.camera_size):
        print(
            f"companion play: camera {args.camera} gives {size[0]}x{size[1]} pictures, not "
            f"the {args.camera_size[0]}x{args.camera_size[1]} asked for; card reading is "
            f"measured at {CAMERA_SIZE[0]}x{CAMERA_SIZE[1]}",
            file=sys.stderr,
        )


def _tell_card_length(calibration: Calibration) -> None:
    """Say so where the cards looked too short at calibration time to be read reliably
    (`card_length_advice`): the table can still move the camera before the game starts."""
    from companion.vision.calibration import card_length_advice

    if (advice := card_length_advice(calibration)) is not None:
        print(f"companion play: {advice}", file=sys.stderr)


def _file_items(source: FrameSource) -> Iterator[FeedItem]:
    with source:
        for frame in source:
            yield frame, ()


def _dashboard(
    args: argparse.Namespace,
    store: Store,
    config: GameConfig,
    calibration: Calibration,
    open_frames: Callable[[], Iterator[FeedItem]],
    resumed: GameSession | None = None,
) -> GameSession | None:
    """The dashboard: the set-up screen (players pre-filled) unless --players named them
    or the game is `resumed`."""
    from companion.cli.play import table_voice
    from companion.referee.session import GameSession
    from companion.ui.app import CompanionApp

    speed = 1.0 if args.video is not None else None
    opened: list[GameSession] = []

    def live(session: GameSession) -> FrameFeed:
        opened.append(session)
        players = session.config.players
        eyes = open_eyes(args.deck, seats_for(calibration, players), players)
        referee = LiveReferee(session, caller=_caller(args))
        return FrameFeed(referee, open_frames, eyes, speed=speed, reopen=args.camera is not None)

    session = resumed or (GameSession.new(store, config) if args.players else None)
    lang, narrator_for = table_voice(args)
    CompanionApp(
        store, session=session, lang=lang, narrator_for=narrator_for, preset=config, live=live
    ).run()
    return opened[0] if opened else None
