"""Training samples built from what the card finders really return (no torch needed)."""

import numpy as np

from companion.vision.features import READ_SIZE
from models.train.card_samples import BACK_CLASS, NO_SUIT, NONE_CLASS, found_cards


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
