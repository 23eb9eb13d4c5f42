"""`companion deck enroll NAME --images DIR` and `companion deck list`."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "deck",
        help="enroll an animal deck from pictures, or list the known decks",
        description="Decks the camera can read: playing-cards is built in; an animal deck is "
        "enrolled from one picture of each card 1..5 and of its back.",
    )
    actions = p.add_subparsers(dest="deck_command", metavar="ACTION", required=True)
    enroll = actions.add_parser(
        "enroll",
        help="learn a deck from pictures",
        description="DIR holds, for each of 1..5 and back, a picture with that name "
        "(1.png, back.jpg) or a folder of that name with pictures: flat scans or photos of "
        "the card lying on a table, at any angle.",
    )
    enroll.add_argument("name", metavar="NAME", help="the deck's name, e.g. my-animals")
    enroll.add_argument("--images", metavar="DIR", required=True, help="folder of pictures")
    enroll.set_defaults(func=_enroll)
    listing = actions.add_parser("list", help="list the decks --deck accepts")
    listing.set_defaults(func=_list)


def _enroll(args: argparse.Namespace) -> int:
    from companion.vision.decks import DeckError, enroll

    try:
        profile = enroll(args.name, args.images)
    except DeckError as err:
        print(f"companion deck enroll: {err}", file=sys.stderr)
        return 2
    counts = ", ".join(f"{key}: {len(p)}" for key, p in profile.templates.items())
    print(f"enrolled deck {profile.name!r} ({counts} pictures), saved to {profile.source}")
    print(f"read it with: companion detect --deck {profile.name} --json IMAGE")
    return 0


def _list(args: argparse.Namespace) -> int:
    from companion.vision.decks import list_decks

    decks = list_decks()
    width = max(len(d.name) for d in decks)
    for deck in decks:
        print(f"{deck.name:<{width}}  {deck.kind:<13}  {deck.where}")
    return 0
