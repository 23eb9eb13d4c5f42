"""`companion voice`: the speech backends and voices found, and the saved voice settings."""

from __future__ import annotations

import argparse
import sys
from dataclasses import asdict, replace

from companion.cli.say import add_voice_arguments, settings_from
from companion.i18n import LANGUAGES
from companion.voice import list_voices, load_backend, load_settings, save_settings
from companion.voice.settings import settings_path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("voice", help="list speech backends and voices; show or change settings")
    actions = p.add_subparsers(dest="voice_command", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="backends and voices found on this machine")
    listing.add_argument("--lang", choices=LANGUAGES, help="only the voices of one language")
    listing.set_defaults(func=run_list)
    settings = actions.add_parser(
        "settings", help="show the saved voice settings, or change them with flags"
    )
    add_voice_arguments(settings)
    settings.add_argument("--pause", type=float, help="seconds of pause after a call (0 to 5)")
    settings.add_argument("--auto", action="store_true", help="back to automatic backend/voice")
    mute = settings.add_mutually_exclusive_group()
    mute.add_argument("--mute", action="store_true", default=None, help="start muted")
    mute.add_argument("--unmute", dest="mute", action="store_false", help="start speaking")
    settings.set_defaults(func=run_settings)


def run_list(args: argparse.Namespace) -> int:
    languages = (args.lang,) if args.lang else LANGUAGES
    voices, problems = list_voices(languages)
    print(f"{'backend':8} {'voice':16} {'language':8} detail")
    for voice in voices:
        print(f"{voice.backend:8} {voice.voice:16} {','.join(voice.languages):8} {voice.detail}")
    for problem in problems:
        print(f"not available: {problem}")
    settings = load_settings()
    for lang in languages:
        voice = settings.voice if lang == settings.lang else None  # a voice has one language
        chosen = load_backend(lang, settings.backend, voice)
        print(f"speaks {lang} with: {chosen.name} voice {chosen.voice}")
    return 0


def run_settings(args: argparse.Namespace) -> int:
    current = load_settings()
    if args.auto:
        current = replace(current, backend=None, voice=None)
    try:
        changed = settings_from(args, current).updated(pause_after_call=args.pause, mute=args.mute)
    except ValueError as error:
        print(f"companion voice settings: {error}", file=sys.stderr)
        return 2
    if changed != load_settings():
        print(f"saved {save_settings(changed)}", file=sys.stderr)
    for name, value in asdict(changed).items():
        print(f"{name:17} {'auto' if value is None else value}")
    print(f"(kept in {settings_path()})", file=sys.stderr)
    return 0
