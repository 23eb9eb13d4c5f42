"""`companion demo`: a scripted game filmed and played through the real pipeline."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    from companion.cli.args import parse_size
    from companion.i18n import LANGUAGES

    p = sub.add_parser(
        "demo",
        help="watch a scripted game played through camera, referee and dashboard",
        description="Render a game of four players as a camera would film it and feed the "
        "frames through the whole pipeline: card reading, tracker, referee, rules, "
        "narration, history. Shown on the dashboard in real time, or --headless.",
    )
    source = p.add_mutually_exclusive_group()
    source.add_argument("--log", type=Path, help="film this table log instead of the bundled game")
    source.add_argument("--seed", type=int, help="film a random legal game drawn from this seed")
    p.add_argument("--headless", action="store_true", help="no UI: print events and scores")
    p.add_argument("--speed", type=float, default=1.0, help="playback speed on the dashboard")
    p.add_argument("--save-video", type=Path, help="also write the film to this .mp4/.avi file")
    p.add_argument("--fps", type=float, default=15.0, help="frames per second of the film")
    p.add_argument("--size", type=parse_size, default=(960, 540), help="frame size, WxH")
    p.add_argument("--film-seed", type=int, default=7, help="seed of the table's look")
    p.add_argument(
        "--caller",
        choices=("companion", "table"),
        default="companion",
        help="who calls the ranks: the companion, aloud (default), or a player at the table",
    )
    p.add_argument(
        "--deck",
        choices=("demo-animals", "playing-cards"),
        help="the cards filmed and read: the shipped animal deck, or playing cards, one suit "
        "per player (2 to 4 players); the rule setting follows it (default: the deck of the "
        "game's rule setting)",
    )
    p.add_argument("--db", type=Path, help="keep the game in this history file")
    p.add_argument("--lang", choices=LANGUAGES, default=None, help="the table's language")
    p.add_argument("--mute", action="store_true", help="start with the voice muted")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from companion.demo.main import main

    if args.speed <= 0 or args.fps <= 0:
        print("companion demo: expected a positive --speed and --fps")
        return 2
    return main(args)
