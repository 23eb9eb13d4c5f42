"""A game card outlined by no quad at all, lying in a row between two cards read for sure,
is read on a card-sized quad midway between them (`fusion.between`): the rule on made-up
readings, and on a rendered row table it was measured on."""

from __future__ import annotations

import numpy as np
import pytest
from test_cut_out import frame_of, reading, row_table_reading
from test_reaching import card_at, labels_at, turned

from companion.vision import fusion
from companion.vision.fusion import between
from companion.vision.geometry import quad_iou
from companion.vision.types import OTHER, CardReading

# a row of three cards 50 px wide, each over the one before by 10 px: the 2 of hearts and
# the 3 of clubs at its ends read for sure, the Ace of spades in the middle read nowhere
FIRST = reading(card_at(0), "2 of hearts", 0.98, rank=2)
LAST = reading(card_at(80), "3 of clubs", 0.97, rank=3)
MIDDLE = card_at(40)
ACE_READ = reading(MIDDLE, "A of spades", 0.95, rank=1)


def search(
    middle: CardReading | None,
    kept: list[CardReading] | None = None,
    deck: str = "playing-cards",
) -> list[CardReading]:
    """`cards_between` on a frame of `deck` holding `kept` (by default the row's two ends),
    whose reader reads a quad over the middle card (IoU 0.85) as `middle`, any other quad
    as an unsure face."""
    far = card_at(500)  # the frame's one unsure quad, away from the row
    frame = frame_of(far, reading(far, OTHER, 0.3), [(MIDDLE, middle)], deck=deck, match=0.85)
    return between.cards_between(frame, [FIRST, LAST] if kept is None else kept)


UNCHANGED = [("2 of hearts", 0), ("3 of clubs", 80)]


def test_a_game_card_between_two_cards_of_a_row_stands() -> None:
    got = search(ACE_READ)
    assert labels_at(got) == [("2 of hearts", 0), ("3 of clubs", 80), ("A of spades", 40)]
    (ace,) = [r for r in got if r.rank == 1]
    assert quad_iou(ace.corners, MIDDLE) > 0.95


def test_an_unsure_reading_over_the_card_found_gives_way_to_it() -> None:
    over = reading(card_at(45, 5), OTHER, 0.4)
    got = search(ACE_READ, kept=[FIRST, LAST, over])
    assert labels_at(got) == [("2 of hearts", 0), ("3 of clubs", 80), ("A of spades", 40)]


def test_nothing_stands_where_the_middle_is_not_a_clear_game_card() -> None:
    assert labels_at(search(None)) == UNCHANGED
    assert labels_at(search(reading(MIDDLE, "A of spades", 0.85, rank=1))) == UNCHANGED
    assert labels_at(search(reading(MIDDLE, "back", 0.97))) == UNCHANGED
    assert labels_at(search(reading(MIDDLE, OTHER, 0.99))) == UNCHANGED
    # the Ace read elsewhere in the frame already: each player holds one
    elsewhere = reading(card_at(300), "A of spades", 0.6, rank=1)
    assert len(search(ACE_READ, kept=[FIRST, LAST, elsewhere])) == 3
    # an enrolled deck's animal, though, lies before every player that plays it
    owl = reading(MIDDLE, "owl", 0.95, rank=4)
    owl_elsewhere = reading(card_at(300), "owl", 0.6, rank=4)
    got = search(owl, kept=[FIRST, LAST, owl_elsewhere], deck="demo-animals")
    assert ("owl", 40) in labels_at(got)
    # a card read for sure in the middle already
    sure_middle = reading(card_at(42), "4 of clubs", 0.99, rank=4)
    got = search(ACE_READ, kept=[FIRST, LAST, sure_middle])
    assert [r.label for r in got if r.rank == 1] == []


def test_only_two_cards_lying_as_a_rows_ends_are_searched_between() -> None:
    def ends(last: np.ndarray) -> list[CardReading]:
        return [FIRST, reading(last, "3 of clubs", 0.97, rank=3)]

    # two cards touching, with no room between them; two a card's room and more apart
    assert len(search(ACE_READ, kept=ends(card_at(50)))) == 2
    assert len(search(ACE_READ, kept=ends(card_at(120)))) == 2
    # off the row's line; turned apart; of another width across the row
    assert len(search(ACE_READ, kept=ends(card_at(80, 30)))) == 2
    assert len(search(ACE_READ, kept=ends(turned(card_at(80), 15.0)))) == 2
    wider = np.array([[80, 0], [130, 0], [130, 100], [80, 100]], np.float32)
    assert len(search(ACE_READ, kept=ends(wider))) == 2
    # but turned a little, as outlines of cards partly hidden turn, the middle is read
    assert len(search(ACE_READ, kept=ends(turned(card_at(80), 6.0)))) == 3


@pytest.mark.reference_text
def test_a_middle_card_of_three_with_no_quad_is_read_between_its_neighbours(monkeypatch) -> None:
    """Tuning row table 4,450,040: a 3 of hearts between a back and a King, both read for
    sure, outlined by no quad at all. Read midway between them; without it, it is lost."""
    label_on = row_table_reading(4_450_040, "3 of hearts")
    assert label_on() == "3 of hearts"
    monkeypatch.setattr(fusion, "cards_between", lambda frame, kept: kept)
    assert label_on() is None
