"""Training samples built from what the card finders really return (no torch needed)."""

import numpy as np

from companion.vision.features import READ_SIZE
from models.train.card_samples import (
    BACK_CLASS,
    NO_SUIT,
    NONE_CLASS,
    found_animal_views,
    found_cards,
    square_thing,
)


def test_found_cards_are_labelled_like_the_cards_under_them() -> None:
    cards, ranks, suits = found_cards(6, seed=123)
    width, height = READ_SIZE
    assert cards.shape[1:] == (height, width, 3) and len(cards) == len(ranks) == len(suits)
    assert len(cards) > 30
    assert set(ranks.tolist()) <= set(range(15))
    # backs and non-cards carry no suit; faces 1..13 always do
    no_suit = np.isin(ranks, (BACK_CLASS, NONE_CLASS))
    assert (suits[no_suit] == NO_SUIT).all() and (suits[~no_suit] >= 0).all()
    assert (ranks == BACK_CLASS).any() and (ranks < BACK_CLASS).any()


def test_found_animal_views_are_keyed_by_edition_and_card() -> None:
    views, negatives = found_animal_views(range(7, 9), 1, 2, seed=5)
    width, height = READ_SIZE
    assert {edition for edition, _ in views} == {7, 8}
    assert {key for _, key in views} <= set(range(6))  # ranks 1..5 as 0..4, the back 5
    assert sum(map(len, views.values())) > 10
    for cut in [*negatives, *(view for group in views.values() for view in group)]:
        assert cut.shape == (height, width, 3) and cut.dtype == np.uint8


def test_square_things_fill_a_card_picture() -> None:
    thing = square_thing(np.random.default_rng(0))
    assert thing.shape == (350, 250, 3) and thing.std() > 20  # a code or lines on paper
