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


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
