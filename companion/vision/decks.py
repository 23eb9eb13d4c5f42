"""Deck profiles: which deck is on the table, and what its cards look like.

`playing-cards` is built in: its cards are read from their corner indices by a model that
needs no pictures. Animal decks differ from edition to edition, so they are *enrolled*:
one picture of each card 1..5 and of the back, rectified to the reader's card size, is
kept as the deck's templates (`companion deck enroll NAME --images DIR`). A deck of
playing cards may have its back enrolled too (`companion deck enroll NAME --back
PICTURE`): its faces are read as the built-in deck's, and a plain or unusual back that
the readers never learned is read by its picture (`read.CardReader`).

A profile is one `.npz` file: the rectified pictures per card plus a small JSON header.
Pictures rather than descriptors are stored, so that a better matcher later reads old
profiles without re-enrolling. User profiles live in platformdirs' user data directory
(`prey-companion/decks/`); the project's own rendered animal deck ships with the package
as `demo-animals`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import Literal

import cv2
import numpy as np
import platformdirs

from .back_colour import plain_inside
from .features import READ_SIZE, card_corners, rectify_cards
from .types import NOT_A_CARD, OTHER

PLAYING_CARDS = "playing-cards"
DEMO_ANIMALS = "demo-animals"
CARD_KEYS: tuple[str, ...] = ("1", "2", "3", "4", "5", "back")
ANIMAL_NAMES: Mapping[int, str] = {1: "bear", 2: "wolf", 3: "lynx", 4: "owl", 5: "mouse"}
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff")
SHIPPED_DIR = Path(__file__).resolve().parent / "models_data"
PROFILE_FORMAT = 1

# A picture given as a deck's back that the built-in readers read as a face this surely is
# refused (`enroll_back`): the shipped faces read at 0.93 or more, and of 303 backs (300
# tuning designs from 4,100,000 and the three usual ones) one reads as a 6..King, at 0.76.
FACE_NOT_BACK = 0.9

_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
# A picture whose long/short ratio is this close to a card's 7:5 is taken as a flat scan
# of the card itself; camera photos are 4:3, 3:2 or 16:9 and go through the card finder.
_FLAT_ASPECT = (1.36, 1.45)
# `cut_sheet`: pixels around each picture, and of the strip under it for its name.
SHEET_GAP = 4
SHEET_LABEL = 22

DeckKind = Literal["playing-cards", "enrolled"]
DECK_KINDS: tuple[DeckKind, ...] = ("playing-cards", "enrolled")


def profile_keys(kind: DeckKind) -> tuple[str, ...]:
    """The cards a profile of `kind` holds pictures of: every card of an animal deck, the
    back alone of a deck of playing cards."""
    return ("back",) if kind == PLAYING_CARDS else CARD_KEYS


class DeckError(ValueError):
    """A deck that cannot be loaded or enrolled; the message says what was expected."""


@dataclass(frozen=True)
class DeckProfile:
    """A deck the reader knows.

    `templates` maps each of CARD_KEYS to its enrolled pictures, (n, H, W, 3) uint8 BGR
    rectified to `features.READ_SIZE` (upright or upside down: the reader tries both);
    it is empty for the built-in playing cards, and holds only "back" for a deck of
    playing cards whose back was enrolled (`enroll_back`).

    `any_backs`: this enrolled deck's frames are seen by the finder net that learned backs
    of any design (`segment.frame_model`: `segment.ENROLLED_BACKS_MODEL`), because the
    enrolled decks' own net misses its back face down. Enrollment sets it where the back
    check finds that (`back_check.choose_finder`).
    """

    name: str
    kind: DeckKind
    templates: Mapping[str, np.ndarray]
    source: str  # "built in", "shipped" or the profile's path
    any_backs: bool = False

    @cached_property
    def plain_back(self) -> np.ndarray | None:
        """The mean BGR of this deck's enrolled back inside its margin where it carries no
        print there (`back_colour.plain_inside`): the edge finder then takes blank quads
        of that colour for cards too. None without an enrolled back, and for most backs."""
        if "back" not in self.templates:
            return None
        return plain_inside(self.templates["back"])


@dataclass(frozen=True)
class DeckInfo:
    """One line of `companion deck list`."""

    name: str
    kind: DeckKind
    where: str  # "built in", "shipped" or the profile's path


def user_decks_dir() -> Path:
    """Where enrolled profiles are saved (platformdirs' user data dir, `decks/`)."""
    return Path(platformdirs.user_data_dir("prey-companion")) / "decks"


def _shipped_path(name: str) -> Path:
    return SHIPPED_DIR / f"{name}.npz"


def _shipped_names() -> list[str]:
    return sorted(p.stem for p in SHIPPED_DIR.glob("*.npz"))


def check_name(name: str) -> str:
    """Return `name` if it can name an enrolled deck, else raise DeckError saying why."""
    if not _NAME.match(name):
        raise DeckError(
            f"bad deck name {name!r}: expected 1 to 40 lower-case letters, digits, '-' or '_',"
            " starting with a letter or digit"
        )
    if name == PLAYING_CARDS:
        raise DeckError(f"{PLAYING_CARDS!r} is built in and cannot be enrolled: pick another name")
    return name


def list_decks(decks_dir: Path | None = None) -> list[DeckInfo]:
    """The built-in deck, the shipped profiles, then the user's enrolled profiles."""
    found = [DeckInfo(PLAYING_CARDS, PLAYING_CARDS, "built in")]
    found += [DeckInfo(n, "enrolled", "shipped") for n in _shipped_names()]
    folder = decks_dir or user_decks_dir()
    if folder.is_dir():
        found += [DeckInfo(p.stem, _kind_of(p), str(p)) for p in sorted(folder.glob("*.npz"))]
    return found


def _kind_of(path: Path) -> DeckKind:
    """The kind a profile file says it is; "enrolled" where it cannot be read (loading it
    then says what is wrong)."""
    try:
        return read_profile(path).kind
    except DeckError:
        return "enrolled"


def load_deck(name: str, decks_dir: Path | None = None) -> DeckProfile:
    """The profile called `name`: built in, enrolled by the user, or shipped.

    A user's profile of the same name as a shipped one wins (re-enrolling your own print).
    """
    if name == PLAYING_CARDS:
        return DeckProfile(PLAYING_CARDS, PLAYING_CARDS, {}, "built in")
    user = (decks_dir or user_decks_dir()) / f"{name}.npz"
    if _NAME.match(name) and user.is_file():
        return read_profile(user)
    if _NAME.match(name) and _shipped_path(name).is_file():
        return replace(read_profile(_shipped_path(name)), source="shipped")
    known = ", ".join(d.name for d in list_decks(decks_dir))
    raise DeckError(
        f"unknown deck {name!r}: expected one of {known} "
        f"(enroll one with `companion deck enroll NAME --images DIR`)"
    )


def read_profile(path: Path) -> DeckProfile:
    """Load one profile file, or raise DeckError saying what is wrong with it."""
    try:
        with np.load(path, allow_pickle=False) as data:
            header = json.loads(bytes(data["header"]).decode("utf-8"))
            # absent from profiles written before 2026-12-02: all were animal decks
            kind = header.get("kind", "enrolled")
            if kind not in DECK_KINDS:
                raise ValueError(f"kind {kind!r}, expected one of {', '.join(DECK_KINDS)}")
            templates = {key: np.array(data[f"card_{key}"]) for key in profile_keys(kind)}
    except (OSError, KeyError, ValueError) as err:
        raise DeckError(
            f"deck profile {path} is unreadable ({err}): enroll the deck again"
        ) from err
    if header.get("format") != PROFILE_FORMAT:
        raise DeckError(
            f"deck profile {path} has format {header.get('format')!r}, "
            f"expected {PROFILE_FORMAT}: enroll the deck again"
        )
    width, height = READ_SIZE
    for key, pics in templates.items():
        if pics.ndim != 4 or pics.shape[1:] != (height, width, 3) or len(pics) == 0:
            raise DeckError(
                f"deck profile {path}: card {key} has pictures of shape "
                f"{pics.shape}, expected (n, {height}, {width}, 3): enroll again"
            )
    # absent from profiles enrolled before 2026-12-01: the enrolled decks' own finder net
    any_backs = header.get("any_backs", False)
    if not isinstance(any_backs, bool):
        raise DeckError(
            f"deck profile {path}: any_backs is {any_backs!r}, expected true or false: "
            "enroll the deck again"
        )
    return DeckProfile(str(header["name"]), kind, templates, str(path), any_backs)


def write_profile(profile: DeckProfile, path: Path) -> None:
    """Save a profile as one `.npz` file (written aside, then moved into place)."""
    header = {
        "format": PROFILE_FORMAT,
        "name": profile.name,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "card_size": list(READ_SIZE),
        "any_backs": profile.any_backs,
        "kind": profile.kind,
    }
    arrays = {
        f"card_{key}": np.asarray(profile.templates[key], np.uint8)
        for key in profile_keys(profile.kind)
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial.npz")
    np.savez_compressed(
        partial, header=np.frombuffer(json.dumps(header).encode(), np.uint8), **arrays
    )
    partial.replace(path)


def cut_sheet(profile: DeckProfile) -> np.ndarray:
    """Every enrolled picture of `profile` side by side, each over the name of its card
    (BGR uint8): what the reader was given, for the user to check that each shows its
    whole card. A photo's card cut at its printed frame, or with the table in it, reads
    worse, and nothing else would show it."""
    width, height = READ_SIZE
    columns = []
    for key in profile_keys(profile.kind):
        name = key if key == "back" else f"{key} {ANIMAL_NAMES[int(key)]}"
        for picture in profile.templates[key]:
            column = np.full(
                (height + SHEET_LABEL + 2 * SHEET_GAP, width + 2 * SHEET_GAP, 3), 255, np.uint8
            )
            column[SHEET_GAP : SHEET_GAP + height, SHEET_GAP : SHEET_GAP + width] = picture
            baseline = (SHEET_GAP + 2, SHEET_GAP + height + SHEET_LABEL - 6)
            cv2.putText(
                column, name, baseline, cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 1, cv2.LINE_AA
            )
            columns.append(column)
    return np.hstack(columns)


def sheet_path(profile: DeckProfile) -> Path:
    """Where `cut_sheet` of a saved profile is written: beside it, as a PNG."""
    return Path(profile.source).with_suffix(".png")


def _pictures_of(images_dir: Path, key: str) -> list[Path]:
    """The picture files for one card: `KEY.ext` and/or every image in folder `KEY/`."""
    found = [
        p
        for p in images_dir.iterdir()
        if p.is_file() and p.stem.lower() == key and p.suffix.lower() in IMAGE_SUFFIXES
    ]
    folder = images_dir / key
    if folder.is_dir():
        found += [p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES]
    return sorted(found)


def card_from_picture(image: np.ndarray, where: str) -> np.ndarray:
    """One card of a picture, rectified to READ_SIZE.

    A flat scan (the picture is the card, 5:7) is only resized; a photo of a card on a
    table goes through the finder of one card alone (`single_card.card_in_photo`).
    """
    height, width = image.shape[:2]
    if min(height, width) >= 16:
        aspect = max(height, width) / min(height, width)
        if _FLAT_ASPECT[0] <= aspect <= _FLAT_ASPECT[1]:
            if width > height:
                image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
            return cv2.resize(image, READ_SIZE, interpolation=cv2.INTER_AREA)
    from .single_card import card_in_photo

    quad = card_in_photo(image)
    if quad is None:
        raise DeckError(
            f"no card found in {where}: expected a flat scan of the card (5:7) or a photo "
            "of it lying on a table of another colour, whole and in focus"
        )
    return rectify_cards(image, [quad])[0]


def read_picture(path: Path | str) -> np.ndarray:
    """The picture at `path` (BGR uint8), or a DeckError saying what was expected."""
    if not Path(path).is_file():
        raise DeckError(f"no picture at {path}: expected a PNG, JPEG or other image file")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise DeckError(f"cannot read image {path}: expected a PNG, JPEG or other image file")
    return image


def enroll(name: str, images_dir: Path | str, decks_dir: Path | None = None) -> DeckProfile:
    """Learn a deck from one or more pictures of each card and of its back, and save it.

    `images_dir` holds, for each of 1..5 and `back`, a file with that stem (`1.png`,
    `back.jpg`) or a folder of that name with pictures. Returns the saved profile.
    """
    check_name(name)
    images_dir = Path(images_dir)
    if not images_dir.is_dir():
        raise DeckError(
            f"{images_dir} is not a folder: expected a folder with pictures "
            "1.png … 5.png and back.png (or folders 1/ … 5/ and back/)"
        )
    pictures = {key: _pictures_of(images_dir, key) for key in CARD_KEYS}
    missing = [key for key, paths in pictures.items() if not paths]
    if missing:
        raise DeckError(
            f"missing pictures in {images_dir} for: {', '.join(missing)}; expected for each "
            f"of {', '.join(CARD_KEYS)} a file with that name ({'/'.join(IMAGE_SUFFIXES)}) "
            "or a folder with that name holding pictures"
        )
    templates = {
        key: np.stack([card_from_picture(read_picture(p), str(p)) for p in paths])
        for key, paths in pictures.items()
    }
    return save_enrolled(name, templates, decks_dir)


def save_enrolled(
    name: str, templates: Mapping[str, np.ndarray], decks_dir: Path | None = None
) -> DeckProfile:
    """Save an animal deck from its cards' READ_SIZE pictures (N, H, W, 3 for each of
    CARD_KEYS) as profile `name`, with the cards as cut beside it (`cut_sheet`)."""
    check_name(name)
    return _saved(name, "enrolled", dict(templates), decks_dir)


def enroll_back(name: str, pictures: Path | str, decks_dir: Path | None = None) -> DeckProfile:
    """Learn the back of a deck of playing cards from a picture of it (or a folder of
    pictures), and save it as deck `name`. Its faces are read as the built-in deck's;
    its back, by its picture too, where the readers, which learned common backs, see no
    card (a plain or unusual back). Returns the saved profile."""
    check_name(name)
    pictures = Path(pictures)
    if pictures.is_dir():
        paths = sorted(
            p for p in pictures.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES
        )
        if not paths:
            raise DeckError(
                f"no pictures in {pictures}: expected a picture of the back "
                f"({'/'.join(IMAGE_SUFFIXES)}), or a folder of them"
            )
    else:
        paths = [pictures]
    backs = np.stack([card_from_picture(read_picture(p), str(p)) for p in paths])
    return save_back(name, backs, [str(p) for p in paths], decks_dir)


def save_back(
    name: str, backs: np.ndarray, sources: list[str], decks_dir: Path | None = None
) -> DeckProfile:
    """Save a deck of playing cards with its back's READ_SIZE pictures (N, H, W, 3; each
    from where `sources` says) as profile `name`, with the backs as cut beside it; a
    picture the built-in readers read as a face is refused, naming it."""
    check_name(name)
    for source, face in zip(sources, _faces_read(backs), strict=True):
        if face is not None:
            raise DeckError(
                f"{source} reads as a face ({face}), not a back: expected a picture of the "
                "card's back, lying face down"
            )
    return _saved(name, PLAYING_CARDS, {"back": backs}, decks_dir)


def _saved(
    name: str, kind: DeckKind, templates: dict[str, np.ndarray], decks_dir: Path | None
) -> DeckProfile:
    """Profile `name` written to the user's decks (or `decks_dir`), its pictures as cut
    beside it (`cut_sheet`)."""
    path = (decks_dir or user_decks_dir()) / f"{name}.npz"
    profile = DeckProfile(name, kind, templates, str(path))
    write_profile(profile, path)
    cv2.imwrite(str(sheet_path(profile)), cut_sheet(profile))
    return profile


def _faces_read(cards: np.ndarray) -> list[str | None]:
    """For each READ_SIZE picture, the face the built-in playing deck's readers read it as
    at FACE_NOT_BACK or more ("A of hearts", "a 6 to King"), else None: a face given as
    the back would be taken for a card played face down."""
    from .read import CardReader

    corners = card_corners(READ_SIZE)
    readings = CardReader(load_deck(PLAYING_CARDS)).read_cards(cards, [corners] * len(cards))
    return [
        ("a 6 to King" if r.label == OTHER else r.label)
        if r.face == "up" and r.label != NOT_A_CARD and r.confidence >= FACE_NOT_BACK
        else None
        for r in readings
    ]
