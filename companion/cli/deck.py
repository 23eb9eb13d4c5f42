"""`companion deck enroll NAME --images DIR` or `--camera N` (an animal deck), `companion
deck enroll NAME --back PICTURE` or `--camera N --back-only` (a deck of playing cards whose
back the camera should know), `companion deck check-back PICTURE` and `companion deck
list`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from companion.cli.args import add_camera_size

# Tries a card laid before the camera gets (`deck enroll --camera`) before enrolling stops.
LAID_TRIES = 3

if TYPE_CHECKING:
    import numpy as np

    from companion.vision.back_check import BackCheck
    from companion.vision.decks import DeckProfile


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "deck",
        help="enroll an animal deck from pictures (or a playing deck's back), check that a "
        "deck's back is seen face down, or list the known decks",
        description="Decks the camera can read: playing-cards is built in; an animal deck is "
        "enrolled from one picture of each card 1..5 and of its back; a deck of playing "
        "cards whose back the camera misses (a plain or unusual back) from a picture of "
        "its back.",
    )
    actions = p.add_subparsers(dest="deck_command", metavar="ACTION", required=True)
    enroll = actions.add_parser(
        "enroll",
        help="learn a deck from pictures",
        description="An animal deck: DIR holds, for each of 1..5 and back, a picture with "
        "that name (1.png, back.jpg) or a folder of that name with pictures: flat scans or "
        "photos of the card lying on a table, at any angle; or --camera N: lay each card "
        "before the camera in turn when asked. A deck of playing cards: --back PICTURE (or "
        "--camera N --back-only), its faces being read as the built-in deck's.",
    )
    enroll.add_argument("name", metavar="NAME", help="the deck's name, e.g. my-animals")
    source = enroll.add_mutually_exclusive_group(required=True)
    source.add_argument("--images", metavar="DIR", help="an animal deck's folder of pictures")
    source.add_argument(
        "--back",
        metavar="PICTURE",
        help="a deck of playing cards: a picture of its back (a flat scan, or a photo of one "
        "card lying face down), or a folder of such pictures",
    )
    source.add_argument(
        "--camera",
        type=int,
        metavar="N",
        help="camera N, looking at the table: the bare table, then each card laid alone when "
        "asked (1 to 5 face up, then one face down)",
    )
    enroll.add_argument(
        "--back-only",
        action="store_true",
        help="with --camera: a deck of playing cards, only its back asked for",
    )
    add_camera_size(enroll)
    enroll.set_defaults(func=_enroll)
    check = actions.add_parser(
        "check-back",
        help="will the camera see this back face down?",
        description="Lays the back in PICTURE face down on rendered tables and counts how "
        "many of those cards the deck's pipeline reads as backs (enrolling a deck checks its "
        "own back so). Exit status 0 when it sees nearly all of them, 1 when it does not.",
    )
    check.add_argument(
        "picture",
        metavar="PICTURE",
        nargs="?",
        help="the back: a flat scan of it (5:7) or a photo of one card lying face down "
        "(default for an enrolled deck: its enrolled back)",
    )
    check.add_argument(
        "--camera",
        type=int,
        metavar="N",
        help="instead of PICTURE: camera N, looking at the table, sees the bare table, then "
        "one card laid face down",
    )
    add_camera_size(check)
    check.add_argument(
        "--deck", default="playing-cards", help="the deck to read it with (default playing-cards)"
    )
    check.set_defaults(func=_check_back)
    listing = actions.add_parser("list", help="list the decks --deck accepts")
    listing.set_defaults(func=_list)


def _enroll(args: argparse.Namespace) -> int:
    from companion.vision.back_check import choose_finder
    from companion.vision.decks import (
        CARD_KEYS,
        PLAYING_CARDS,
        DeckError,
        check_name,
        enroll,
        enroll_back,
        save_back,
        save_enrolled,
        write_profile,
    )

    try:
        if args.back_only and args.camera is None:
            raise DeckError("--back-only goes with --camera N (a picture of the back: --back)")
        if args.back is not None:
            profile = enroll_back(args.name, args.back)
        elif args.camera is not None:
            check_name(args.name)  # before the table is asked for anything
            keys = ("back",) if args.back_only else CARD_KEYS
            laid = _laid_before_camera(args.camera, keys, args.camera_size)
            if args.back_only:
                profile = save_back(args.name, laid["back"], [f"camera {args.camera}"])
            else:
                profile = save_enrolled(args.name, laid)
        else:
            profile = enroll(args.name, args.images)
    except DeckError as err:
        print(f"companion deck enroll: {err}", file=sys.stderr)
        return 2
    if profile.kind == PLAYING_CARDS:
        return _enrolled_back(profile)
    counts = ", ".join(f"{key}: {len(p)}" for key, p in profile.templates.items())
    print(f"enrolled deck {profile.name!r} ({counts} pictures), saved to {profile.source}")
    _print_saved_pictures(profile)
    choice = choose_finder(profile, profile.templates["back"][0])
    if choice.deck.any_backs:
        write_profile(choice.deck, Path(profile.source))  # saved before it is shown
    _print_back_check(choice.check)
    if choice.any_backs_check is not None:
        verdict = (
            "this deck's frames are now seen by it"
            if choice.deck.any_backs
            else "not enough more: the deck keeps its own"
        )
        print(
            "back check with the finder that learned backs of any design: "
            f"{choice.any_backs_check.summary()}; {verdict}"
        )
    _warn_unless_enough(choice.deck, choice.final)
    print(f"read it with: companion detect --deck {profile.name} --json IMAGE")
    return 0


def _enrolled_back(profile: DeckProfile) -> int:
    """What `deck enroll --back` says: the deck saved, whether its back is plain, how well
    the camera sees it face down."""
    count = len(profile.templates["back"])
    print(
        f"enrolled the back of playing-card deck {profile.name!r} ({count} picture"
        f"{'s' if count > 1 else ''}; faces read as playing-cards'), saved to {profile.source}"
    )
    _print_saved_pictures(profile)
    _report_back(profile, profile.templates["back"][0])
    print(f"read it with: companion detect --deck {profile.name} --json IMAGE")
    return 0


def _laid_before_camera(
    index: int, keys: tuple[str, ...], size: tuple[int, int]
) -> dict[str, np.ndarray]:
    """The picture of each card of `keys` (READ_SIZE, as (1, H, W, 3)), cut from camera
    `index`'s frames: the bare table first, then each card laid alone when asked
    (`single_card.card_laid`); LAID_TRIES tries a card, or a DeckError."""
    from companion.cli.camera_prompts import frame_after_answer
    from companion.vision.decks import ANIMAL_NAMES, DeckError
    from companion.vision.features import rectify_cards
    from companion.vision.single_card import card_laid
    from companion.vision.sources import CameraSource, SourceError

    try:
        camera = CameraSource(index, queue_size=1, size=size)
    except SourceError as error:
        pictures = "--back PICTURE" if keys == ("back",) else "--images DIR"
        raise DeckError(f"{error}; or enroll from pictures: {pictures}") from None
    with camera:

        def grab(prompt: str) -> np.ndarray:
            return frame_after_answer(camera, index, prompt, DeckError)

        empty = grab("Clear the table under the camera (no card, no hand), then press Enter ")
        laid = {}
        for key in keys:
            name = "the back" if key == "back" else f"the {ANIMAL_NAMES[int(key)]} ({key})"
            what = "one card face down" if key == "back" else f"{name} face up"
            for _ in range(LAID_TRIES):
                frame = grab(
                    f"Lay {what}, alone on the table (the last one taken away), take your "
                    "hand away, then press Enter "
                )
                quad = card_laid(frame, empty)
                if quad is not None:
                    laid[key] = rectify_cards(frame, [quad])
                    print(f"found {name}")
                    break
                print("no card found where the table changed; once more:")
            else:
                raise DeckError(
                    f"no card found in {LAID_TRIES} tries: lay {what} alone in the camera's "
                    "view, on the table as it was when it was bare (the camera not moved)"
                )
    return laid


def _print_saved_pictures(profile: DeckProfile) -> None:
    """What every enrollment says of the pictures it kept: where to look at them as cut,
    and whether the back is plain (then also looked for by its colour)."""
    from companion.vision.decks import sheet_path

    print(
        f"the cards as cut from your pictures: {sheet_path(profile)} (check that each shows "
        "its whole card, and no table)"
    )
    if profile.plain_back is not None:
        print(
            "its back carries no print inside its margin: the camera also looks for it by "
            "its colour, on every frame"
        )


def _check_back(args: argparse.Namespace) -> int:
    from companion.vision.decks import (
        DeckError,
        card_from_picture,
        load_deck,
        read_picture,
    )

    try:
        deck = load_deck(args.deck)
        if args.picture is not None and args.camera is not None:
            raise DeckError("give PICTURE or --camera N, not both")
        if args.camera is not None:
            back = _laid_before_camera(args.camera, ("back",), args.camera_size)["back"][0]
        elif args.picture is not None:
            back = card_from_picture(read_picture(args.picture), args.picture)
        elif "back" not in deck.templates:
            raise DeckError(
                f"{deck.name} is built in, with no back enrolled: give a picture of the back "
                "(a flat scan, or a photo of one card lying face down), or --camera N"
            )
        else:
            back = deck.templates["back"][0]
    except DeckError as err:
        print(f"companion deck check-back: {err}", file=sys.stderr)
        return 2
    return 0 if _report_back(deck, back) else 1


def _report_back(deck: DeckProfile, back: np.ndarray) -> bool:
    """Print how well `deck`'s pipeline sees `back` face down (`vision.back_check`), with
    a warning and what to do where it misses cards; whether it sees enough of them."""
    from companion.vision.back_check import check_back

    result = check_back(deck, back)
    _print_back_check(result)
    _warn_unless_enough(deck, result)
    return result.enough


def _print_back_check(result: BackCheck) -> None:
    print(f"back check: {result.summary()}")


def _warn_unless_enough(deck: DeckProfile, result: BackCheck) -> None:
    """Where `result` says the camera misses `deck`'s face-down cards: what to do."""
    from companion.vision.decks import PLAYING_CARDS

    if not result.enough and deck.kind == PLAYING_CARDS and "back" not in deck.templates:
        print(
            "warning: the camera may miss this deck's face-down cards: a card it does not "
            "see is a card nobody played. Enroll this back, and play with that deck: "
            "companion deck enroll my-deck --back PICTURE, then --deck my-deck.",
            file=sys.stderr,
        )
    elif not result.enough:
        print(
            "warning: the camera may miss this deck's face-down cards (plain or faint backs "
            "are hard for it): a card it does not see is a card nobody played. Before a game, "
            f"check a photo of your table: companion detect --deck {deck.name} --annotate "
            "OUT PHOTO; where it misses cards, play with another deck, or correct by key "
            "what it misses (companion play --manual needs no camera at all).",
            file=sys.stderr,
        )


def _list(args: argparse.Namespace) -> int:
    from companion.vision.decks import list_decks

    decks = list_decks()
    width = max(len(d.name) for d in decks)
    for deck in decks:
        if deck.kind == "enrolled":
            note = _profile_note(deck.name)
        else:
            note = "" if deck.where == "built in" else "  (its back enrolled)"
        print(f"{deck.name:<{width}}  {deck.kind:<13}  {deck.where}{note}")
    return 0


def _profile_note(name: str) -> str:
    """What `deck list` adds after an enrolled deck: that the finder net for backs of any
    design sees it (`DeckProfile.any_backs`), or that its profile cannot be read."""
    from companion.vision.decks import DeckError, load_deck

    try:
        deck = load_deck(name)
    except DeckError:
        return "  (unreadable: enroll it again)"
    return "  (seen by the finder for backs of any design)" if deck.any_backs else ""
