"""Procedural card art: faces and backs of the animal deck and of playing cards.

All images are portrait, `CARD_SIZE` = (250, 350) pixels, BGR uint8, drawn upright (the
card's own top-left corner is the image's top-left). They are cached and returned
read-only: copy before drawing on them. `card_mask()` gives the rounded-corner outline.

Decks:
- ``"animals"``: ranks 1 (bear) … 5 (mouse), no suit; `edition` is ``"classic"`` (the
  shipped demo deck), ``"woodland"`` (an unseen edition) or an int seed (a generated one);
  the back's `style` is the edition too.
- ``"playing-cards"``: ranks 1 (Ace) … 13 (King) in `SUITS`; `edition` is an int (0 is the
  plainest) that varies fonts and inks; back `style` in ``PLAYING_BACK_STYLES``.

Either deck's back may instead be a procedural design, style ``"design-N"`` for a whole
number N (`designed_back`): the tables of decks whose backs the readers never saw.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from ...types import SUITS
from .animals import ANIMALS, NAMED_EDITIONS, Edition, animal_face, animal_style
from .backs import PLAYING_BACKS, designed_back, patterned_back
from .playing import RANK_TEXT, joker_face, playing_face
from .shapes import AA, CARD_H, CARD_SIZE, CARD_W, CORNER_RADIUS, rounded_rect_mask

DECKS = ("animals", "playing-cards")
PLAYING_BACK_STYLES = tuple(PLAYING_BACKS)
DESIGN_PREFIX = "design-"  # a back style naming a procedural design: "design-42"

__all__ = [
    "ANIMALS",
    "CARD_SIZE",
    "DECKS",
    "DESIGN_PREFIX",
    "NAMED_EDITIONS",
    "PLAYING_BACK_STYLES",
    "RANK_TEXT",
    "card_back",
    "card_face",
    "card_mask",
    "joker_face",
    "random_design_style",
]


def _frozen(img: np.ndarray) -> np.ndarray:
    img.flags.writeable = False
    return img


def _check_deck(deck: str) -> None:
    if deck not in DECKS:
        raise ValueError(f"unknown deck {deck!r}: expected one of {DECKS}")


@lru_cache(maxsize=1)
def card_mask() -> np.ndarray:
    """The card's outline at `CARD_SIZE`: uint8, 255 inside the rounded rectangle."""
    return _frozen(rounded_rect_mask(CARD_W, CARD_H, CORNER_RADIUS))


@lru_cache(maxsize=256)  # ~0.26 MB each: bounded even when training on many editions
def card_face(
    deck: str, rank: int, suit: str | None = None, edition: Edition | None = None
) -> np.ndarray:
    """The upright face of one card (read-only BGR, 250x350).

    Raises ValueError naming what was expected for an unknown deck, rank, suit or edition.
    """
    _check_deck(deck)
    if deck == "animals":
        return _frozen(animal_face(rank, "classic" if edition is None else edition))
    if rank not in RANK_TEXT:
        raise ValueError(f"playing cards have ranks 1 (Ace) .. 13 (King), got {rank!r}")
    if suit not in SUITS:
        raise ValueError(f"playing cards need a suit in {SUITS}, got {suit!r}")
    if edition is not None and not isinstance(edition, int):
        raise ValueError(f"playing-card editions are ints, got {edition!r}")
    return _frozen(playing_face(rank, suit, edition or 0))


def _paw(card: np.ndarray, color: tuple[int, int, int]) -> None:
    cx, cy = CARD_W // 2, CARD_H // 2 + 8
    cv2.ellipse(card, (cx, cy), (16, 13), 0, 0, 360, color, -1, AA)
    for dx, dy in ((-18, -18), (-6, -27), (6, -27), (18, -18)):
        cv2.circle(card, (cx + dx, cy + dy), 6, color, -1, AA)


def random_design_style(rng: np.random.Generator) -> str:
    """The back style of a procedural design drawn from `rng` (``"design-N"``, `card_back`)."""
    return f"{DESIGN_PREFIX}{int(rng.integers(0, 2**31))}"


@lru_cache(maxsize=64)
def card_back(deck: str, style: Edition | None = None) -> np.ndarray:
    """The back of a deck (read-only BGR, 250x350).

    For animals `style` is the edition (default ``"classic"``); for playing cards one of
    ``PLAYING_BACK_STYLES`` (default ``"red"``); for either, ``"design-N"`` is procedural
    back design N.
    """
    _check_deck(deck)
    if isinstance(style, str) and style.startswith(DESIGN_PREFIX):
        number = style[len(DESIGN_PREFIX) :]
        if not number.isdigit():
            raise ValueError(f"a designed back is 'design-N' for a whole number N, got {style!r}")
        return _frozen(designed_back(int(number)))
    if deck == "animals":
        st = animal_style("classic" if style is None else style)
        back = patterned_back(st.back_base, st.back_ink, st.back_pattern)
        _paw(back, st.back_ink)
        return _frozen(back)
    name = "red" if style is None else style
    if name not in PLAYING_BACKS:
        raise ValueError(
            f"unknown playing-card back {name!r}: expected one of {PLAYING_BACK_STYLES}"
            f" or {DESIGN_PREFIX}N"
        )
    return _frozen(patterned_back(*PLAYING_BACKS[name]))  # type: ignore[index]


assert CARD_SIZE == (CARD_W, CARD_H)
