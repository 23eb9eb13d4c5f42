"""`companion replay FILE [--json]`: check a table log and summarise the game."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.rules.tablelog import TableLogError, read_table_log, replay_summary
from companion.store.export import to_text

BAD_LOG_STATUS = 2


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `replay` subcommand."""
    parser = sub.add_parser(
        "replay",
        help="check a table log (JSON Lines) and print the game round by round",
        description="Replay a table log (see shared/spec/table-log.md). A log that breaks "
        "the rules or the format exits with status 2 and names the line.",
    )
    parser.add_argument("file", type=Path, help="the table log, or - for standard input")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the summary; exit status 2 with one line on stderr for a bad log."""
    try:
        text = sys.stdin.read() if str(args.file) == "-" else args.file.read_text("utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        print(f"companion replay: cannot read {args.file}: {error}", file=sys.stderr)
        return BAD_LOG_STATUS
    try:
        config, events = read_table_log(text)
    except TableLogError as error:
        print(error, file=sys.stderr)
        return BAD_LOG_STATUS
    if args.json:
        print(json.dumps(replay_summary(config, events)))
    else:
        print(to_text(config, events), end="")
    return 0
