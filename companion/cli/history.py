"""`companion history`: list the stored games, show one, export one.

companion history [--db PATH]
companion history show ID [--db PATH]
companion history export ID --format jsonl|csv|md [--out FILE] [--db PATH]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.rules.log import effective
from companion.store import GameRow, Store
from companion.store.export import FORMATS, to_csv, to_jsonl, to_markdown, to_text

FAILURE_STATUS = 2
EXPORTERS = {"jsonl": to_jsonl, "csv": to_csv, "md": to_markdown}


def register(sub: argparse._SubParsersAction) -> None:
    """Add `history` and its `show` and `export` subcommands."""
    parser = sub.add_parser(
        "history",
        help="list, show and export the games kept in the history database",
        description="Without a subcommand: list every stored game, the latest first.",
    )
    _add_db(parser, None)
    actions = parser.add_subparsers(dest="history_command", metavar="ACTION")
    show = actions.add_parser("show", help="print a game round by round")
    show.add_argument("game_id", type=int, metavar="ID")
    _add_db(show, argparse.SUPPRESS)
    export = actions.add_parser(
        "export", help="write a game as a table log (jsonl), a CSV of rounds or Markdown"
    )
    export.add_argument("game_id", type=int, metavar="ID")
    export.add_argument("--format", choices=FORMATS, default="jsonl")
    export.add_argument("--out", type=Path, help="file to write (default: standard output)")
    _add_db(export, argparse.SUPPRESS)
    parser.set_defaults(func=run)


def _add_db(parser: argparse.ArgumentParser, default: object) -> None:
    # Accepted before or after the action; the action's copy must not reset the other.
    parser.add_argument(
        "--db",
        type=Path,
        default=default,
        help="the history database (default: companion.sqlite3 in the user data directory)",
    )


def run(args: argparse.Namespace) -> int:
    """Dispatch to the list, `show` or `export`; problems exit 2 with one line."""
    try:
        with Store(args.db) as store:
            if args.history_command == "show":
                return _show(store, args.game_id)
            if args.history_command == "export":
                return _export(store, args.game_id, args.format, args.out)
            return _list(store)
    except (LookupError, ValueError, OSError) as error:
        # Unknown game, a database that is not ours, or stored entries that no longer
        # decode or replay (IllegalMove and LogFormatError are ValueErrors).
        print(f"companion history: {error}", file=sys.stderr)
        return FAILURE_STATUS


def _list(store: Store) -> int:
    rows = store.games()
    if not rows:
        print(f"No games yet in {store.path}.")
        return 0
    print(f"{'ID':>4}  {'last played (UTC)':<19}  {'rules':<13}  status / players")
    for row in rows:
        print(
            f"{row.id:>4}  {row.updated[:19].replace('T', ' '):<19}  {row.rules:<13}  "
            f"{_status(row)}: {', '.join(row.players)}"
        )
    return 0


def _status(row: GameRow) -> str:
    if row.finished:
        return f"{row.winner} won"
    return f"in progress ({row.entries} entries)"


def _show(store: Store, game_id: int) -> int:
    config = store.config(game_id)
    print(f"Game {game_id}")
    print(to_text(config, effective(store.entries(game_id))), end="")
    return 0


def _export(store: Store, game_id: int, fmt: str, out: Path | None) -> int:
    text = EXPORTERS[fmt](store.config(game_id), effective(store.entries(game_id)))
    if out is None:
        sys.stdout.write(text)
    else:
        out.write_text(text, encoding="utf-8")
        print(f"Wrote game {game_id} as {fmt} to {out}", file=sys.stderr)
    return 0
