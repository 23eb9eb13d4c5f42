"""The camera options of `companion play` (argparse only: imported when the CLI starts).

`companion.cli.play` (the dashboard's command) adds them with `add_live_arguments` and
hands a run with `--camera` or `--video` to `companion.referee.live_play.play_live`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.cli.args import add_camera_size

DEFAULT_DECK = "demo-animals"
CALLERS = ("companion", "table")  # companion.referee.live.CALLER_MODES
RULES = ("original", "playing-cards")  # companion.rules.events.RULE_SETS


def add_live_arguments(parser: argparse.ArgumentParser) -> None:
    """`--camera N` or `--video FILE`, and the options that go with them (`--resume`, a
    play mode of its own, also continues the last game with the camera)."""
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--camera", type=int, metavar="N", help="play with camera number N")
    source.add_argument("--video", type=Path, metavar="FILE", help="play a recorded video")
    live = parser.add_argument_group("camera play (with --camera or --video)")
    add_camera_size(live)
    live.add_argument("--headless", action="store_true", help="no dashboard: print the events")
    live.add_argument("--log-out", type=Path, metavar="FILE", help="write the table log seen")
    live.add_argument("--players", help="names in clockwise order: Alia,Ben,Carmen,Dori")
    live.add_argument("--seats", help='seat anchors in pixels: "Alia=412,650;Ben=90,360;..."')
    live.add_argument("--calibration", type=Path, help="a seat calibration file")
    live.add_argument("--deck", default=DEFAULT_DECK, help="the deck profile to read")
    live.add_argument("--first-caller", help="who calls first (default: the first player)")
    live.add_argument(
        "--rules", choices=RULES, default=RULES[0], help="the rule setting (default: original)"
    )
    live.add_argument(
        "--caller",
        choices=CALLERS,
        help="who calls the ranks (default: the companion with a camera, a player for a video)",
    )


def is_live(args: argparse.Namespace) -> bool:
    """The run asks for the camera or a video."""
    return getattr(args, "camera", None) is not None or getattr(args, "video", None) is not None
