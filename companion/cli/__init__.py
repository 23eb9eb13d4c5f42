"""The `companion` command: one thin module per subcommand (see docs/design.md)."""

from __future__ import annotations

import argparse
import importlib
import sys

# Each name is a module of this package with `register(subparsers)`.
SUBCOMMANDS = (
    "play",
    "demo",
    "replay",
    "history",
    "detect",
    "deck",
    "calibrate",
    "say",
    "voice",
    "bench",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Prey Another Day table companion: camera, referee, scoreboard and voice.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in SUBCOMMANDS:
        importlib.import_module(f"companion.cli.{name}").register(sub)
    return parser


def camera_available(index: int = 0) -> bool:
    """True when a camera at `index` opens and gives a frame (no camera in CI or the demo)."""
    import cv2

    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)  # "no camera" is normal
    capture = cv2.VideoCapture(index)
    try:
        return bool(capture.isOpened() and capture.read()[0])
    finally:
        capture.release()


def default_command() -> list[str]:
    """The main job: follow a live game on the first camera, else show the demo."""
    return ["play", "--camera", "0"] if camera_available() else ["demo"]


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else argv
    args = parser.parse_args(argv or default_command())
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
