"""`companion play`: a game on the dashboard.

One function per mode (`play_manual`, `play_resume`), chosen in `run`. A new mode (the
camera modes of issue 5: `--camera N`, `--video FILE`, `--headless`, ...) is its own
options in `register` plus one function, and one line in `run`. Nothing is imported from
the UI or the voice until a mode runs, so `companion --help` stays fast.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.ui.speech import NarratorLike


def register(sub: argparse._SubParsersAction) -> None:
    from companion.i18n import LANGUAGES
    from companion.referee.live_args import add_live_arguments

    p = sub.add_parser(
        "play",
        help="play a game on the dashboard (by keys, or continue the last one)",
        description="Set up the players and enter the game by keys (--manual, the default), "
        "or continue the last unfinished game exactly where it stopped (--resume).",
    )
    mode = p.add_mutually_exclusive_group()
    mode.add_argument(
        "--manual", action="store_true", help="no camera: the operator enters facts by keys"
    )
    mode.add_argument(
        "--resume",
        action="store_true",
        help="continue the last unfinished game in the store (by keys, or with --camera)",
    )
    p.add_argument(
        "--db", type=Path, default=None, help="the history file (default: the user data dir)"
    )
    p.add_argument(
        "--lang", choices=LANGUAGES, default=None, help="the table's language (default: saved)"
    )
    p.add_argument("--mute", action="store_true", help="start with the voice muted (m unmutes)")
    add_live_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Dispatch to the mode the options ask for."""
    from companion.referee.live_args import is_live

    if is_live(args):
        if args.manual:
            print("companion play: --manual is play without a camera: drop it", file=sys.stderr)
            return 2
        from companion.referee.live_play import play_live

        return play_live(args)
    if args.resume:
        return play_resume(args)
    return play_manual(args)


def play_manual(args: argparse.Namespace) -> int:
    """The set-up screen, then the table screen; facts entered by keys."""
    from companion.store import Store
    from companion.ui.app import CompanionApp

    lang, narrator_for = table_voice(args)
    with Store(args.db) as store:
        CompanionApp(store, lang=lang, narrator_for=narrator_for).run()
    return 0


def play_resume(args: argparse.Namespace) -> int:
    """The last unfinished game of the store, straight on the table screen."""
    from companion.referee.session import GameSession, NoGameToResume
    from companion.store import Store
    from companion.ui.app import CompanionApp

    with Store(args.db) as store:
        try:
            session = GameSession.resume(store)
        except NoGameToResume as error:
            print(
                f"companion play: {error}; start one with `companion play --manual`.",
                file=sys.stderr,
            )
            return 1
        lang, narrator_for = table_voice(args)
        CompanionApp(store, session=session, lang=lang, narrator_for=narrator_for).run()
    return 0


def table_voice(args: argparse.Namespace) -> tuple[str, Callable[[str], NarratorLike]]:
    """The table's language and a narrator maker (called once the deck is known).

    The saved voice settings (`companion voice`) apply, with --lang and --mute on top.
    """
    from companion.voice import Narrator, load_settings

    settings = load_settings().updated(lang=args.lang, mute=True if args.mute else None)
    return settings.lang, lambda deck: Narrator.from_settings(settings, deck)
