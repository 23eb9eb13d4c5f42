"""Synthetic table scenes with ground truth, for training, tests, benchmarks and the demo.

    rng = np.random.default_rng(7)
    spec = random_scene(rng, n_cards=15, deck="animals")
    image, truths = render_scene(spec)   # BGR uint8, one CardTruth per card

A `CardTruth` speaks the language of `CardReading` (corners clockwise from the card's own
top-left, face, rank 1..5 or None, suit, label) plus `visible` and the `spec` placed.
Playing cards 6..King face up are truth ``rank=None, suit=None, label="other"``.
Card art alone: `card_face(deck, rank, suit, edition)` and `card_back(deck, style)`, and a
playing deck's `joker_face(edition)`.
Films of a game (the demo): `TableFilm(game_table(seed)).render(i, FilmFrame(cards, hand))`
with seats from `seat_places(n)` and card positions from `card_place(seat, k)`.
"""

from .art import (
    ANIMALS,
    CARD_SIZE,
    DECKS,
    NAMED_EDITIONS,
    PLAYING_BACK_STYLES,
    card_back,
    card_face,
    card_mask,
    joker_face,
)
from .film import (
    FilmFrame,
    SeatPlace,
    TableFilm,
    card_place,
    game_table,
    hand_sweep,
    seat_places,
)
from .render import card_corners, render_scene, table_background, truth_identity
from .sampling import random_light, random_scene
from .spec import CardSpec, CardTruth, DistractorSpec, HandSpec, Light, SceneSpec
from .textures import TABLE_STYLES

__all__ = [
    "ANIMALS",
    "CARD_SIZE",
    "DECKS",
    "NAMED_EDITIONS",
    "PLAYING_BACK_STYLES",
    "TABLE_STYLES",
    "CardSpec",
    "CardTruth",
    "DistractorSpec",
    "FilmFrame",
    "HandSpec",
    "Light",
    "SceneSpec",
    "SeatPlace",
    "TableFilm",
    "card_back",
    "card_corners",
    "card_face",
    "card_mask",
    "card_place",
    "game_table",
    "hand_sweep",
    "joker_face",
    "random_light",
    "random_scene",
    "render_scene",
    "seat_places",
    "table_background",
    "truth_identity",
]
