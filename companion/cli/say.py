"""`companion say`: speak a text (or a catalogue message) the way the narrator would.

It synthesizes and plays directly (no narrator thread, no calls cached ahead): one
utterance, as fast as possible, and the same fallbacks (text printed without sound).
"""

from __future__ import annotations

import argparse
import logging
import sys
from dataclasses import dataclass

from companion.i18n import DECKS, LANGUAGES, render
from companion.voice import (
    BACKENDS,
    Backend,
    LogPlayer,
    PlaybackError,
    VoiceSettings,
    load_backend,
    load_settings,
    open_player,
)


@dataclass(frozen=True)
class _Message:
    msg: str
    params: dict[str, object]


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "say",
        help="speak a text or a catalogue message (or write it to a WAV file)",
        description="Speak TEXT, or the catalogue message --msg with --param values. "
        "Language, backend, voice, rate and volume default to the saved voice settings.",
    )
    p.add_argument("text", nargs="?", help="what to say (omit with --msg)")
    p.add_argument("--msg", help="a message id of the catalogue instead of TEXT, e.g. call")
    p.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a param of --msg (numbers become ints, a,b becomes a list), e.g. rank=3",
    )
    p.add_argument("--deck", choices=DECKS, default="animals", help="rank names of --msg")
    add_voice_arguments(p)
    p.add_argument("--out", metavar="FILE.wav", help="write the speech to a WAV file instead")
    p.set_defaults(func=run)


def add_voice_arguments(p: argparse.ArgumentParser) -> None:
    """The flags that override the saved voice settings (shared with `companion voice`)."""
    p.add_argument("--lang", choices=LANGUAGES, help="language of the speech")
    p.add_argument("--backend", choices=BACKENDS, help="speech backend (default: best found)")
    p.add_argument("--voice", help="voice of the backend (see `companion voice list`)")
    p.add_argument("--rate", type=float, help="speech rate, 1.0 natural (0.5 to 2.0)")
    p.add_argument("--volume", type=float, help="volume, 1.0 unchanged (0.0 to 2.0)")


def settings_from(args: argparse.Namespace, base: VoiceSettings) -> VoiceSettings:
    """`base` with the flags given on the command line applied (ValueError if out of range)."""
    return base.updated(
        lang=args.lang, backend=args.backend, voice=args.voice, rate=args.rate, volume=args.volume
    )


def _parse_param(text: str) -> tuple[str, object]:
    name, equals, value = text.partition("=")
    if not equals or not name:
        raise ValueError(f"--param expects NAME=VALUE, got {text!r}")

    def atom(item: str) -> object:
        return int(item) if item.lstrip("-").isdigit() else item

    return name, tuple(atom(v) for v in value.split(",")) if "," in value else atom(value)


def _text(args: argparse.Namespace, settings: VoiceSettings) -> str:
    if args.msg:
        params = dict(_parse_param(p) for p in args.param)
        return render(_Message(args.msg, params), settings.lang, args.deck)
    if not args.text or not args.text.strip():
        raise ValueError("expected a TEXT to say, or --msg ID")
    return args.text


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.WARNING, format="companion say: %(message)s")
    try:
        settings = settings_from(args, load_settings())
        text = _text(args, settings)
    except ValueError as error:
        print(f"companion say: {error}", file=sys.stderr)
        return 2
    backend = load_backend(settings.lang, settings.backend, settings.voice)
    if args.out:
        return _write(text, settings, backend, args.out)
    audio = backend.synthesize(text, settings.rate).scaled(settings.volume)
    player = open_player()
    print(f"{backend.name} voice {backend.voice}, played through {player.name}", file=sys.stderr)
    if not audio.pcm or isinstance(player, LogPlayer):
        print(text)
        return 0
    try:
        player.start(audio, text)
        player.wait()
    except PlaybackError as why:
        print(f"companion say: {why}; the text was: {text}", file=sys.stderr)
        return 1
    return 0


def _write(text: str, settings: VoiceSettings, backend: Backend, out: str) -> int:
    if not backend.makes_audio:
        print(
            "companion say: no speech backend can make audio here: nothing written", file=sys.stderr
        )
        return 1
    audio = backend.synthesize(text, settings.rate).scaled(settings.volume)
    try:
        audio.write_wav(out)
    except OSError as error:
        print(f"companion say: cannot write {out}: {error}", file=sys.stderr)
        return 1
    print(
        f"wrote {out}: {audio.duration:.2f} s at {audio.sample_rate} Hz "
        f"({backend.name} voice {backend.voice})",
        file=sys.stderr,
    )
    return 0
