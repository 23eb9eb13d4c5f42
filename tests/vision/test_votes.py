"""A playing card that many quads read alike, none surely, stands where nothing else was
read (`fusion.votes`): the rule on made-up readings, and on the rendered row table it was
found on."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from test_cut_out import card_at, reading, row_table_reading

from companion.vision import fusion
from companion.vision.decks import load_deck
from companion.vision.fusion import Candidates
from companion.vision.fusion.reading import FrameReads
from companion.vision.fusion.votes import VOTES, voted_cards
from companion.vision.types import OTHER, CardReading

ACE = card_at(100)
# quads the searches read round the Ace: its outline moved by a few pixels each way
AROUND = [card_at(100 + dx) for dx in (0.0, 3.0, -3.0, 6.0, -6.0)]


def ace(quad: np.ndarray, confidence: float) -> CardReading:
    return CardReading(quad, "up", 1, "clubs", "A of clubs", confidence)


def frame_of(read: list[CardReading], deck: str = "playing-cards") -> FrameReads:
    """A frame whose quads read this frame are `read`."""
    reader = SimpleNamespace(deck=load_deck(deck))
    known = {r.corners.tobytes(): r for r in read}
    found = Candidates([], [], [], [])
    return FrameReads(np.zeros((200, 300, 3), np.uint8), reader, found, [], {}, known)


def votes(count: int, *others: CardReading) -> list[CardReading]:
    """`count` quads round the Ace reading it, at 0.5 to 0.6, and `others`."""
    confidences = np.linspace(0.6, 0.5, count)
    return [ace(q, float(c)) for q, c in zip(AROUND, confidences, strict=False)] + list(others)


KEPT = [reading(card_at(0), "2 of hearts", 0.98, rank=2)]


def test_a_card_enough_quads_read_alike_stands() -> None:
    out = voted_cards(frame_of(votes(VOTES)), KEPT)
    assert [r.label for r in out] == ["2 of hearts", "A of clubs"]
    assert out[-1].confidence == pytest.approx(0.6)  # the surest of them


def test_too_few_quads_or_no_game_card_stand_for_nothing() -> None:
    assert voted_cards(frame_of(votes(VOTES - 1)), KEPT) == KEPT
    unsure = [reading(q, OTHER, 0.3) for q in AROUND]
    assert voted_cards(frame_of(votes(VOTES - 1, *unsure)), KEPT) == KEPT


def test_no_card_stands_where_a_quad_names_another() -> None:
    two = reading(card_at(102), "2 of clubs", 0.55, rank=2)
    assert voted_cards(frame_of(votes(VOTES + 1, two)), KEPT) == KEPT


def test_no_card_stands_over_a_card_kept_or_named_elsewhere() -> None:
    over = [reading(ACE, OTHER, 0.95)]
    assert voted_cards(frame_of(votes(VOTES)), KEPT + over) == KEPT + over
    elsewhere = [ace(card_at(200), 0.97)]
    assert voted_cards(frame_of(votes(VOTES)), KEPT + elsewhere) == KEPT + elsewhere


def test_an_enrolled_deck_has_no_votes() -> None:
    wolf = [CardReading(q, "up", 2, None, "wolf", 0.6) for q in AROUND]
    assert voted_cards(frame_of(wolf, deck="demo-animals"), KEPT) == KEPT


@pytest.mark.reference_text
def test_an_ace_half_under_its_neighbour_stands_by_the_quads_that_read_it(monkeypatch) -> None:
    """Tuning row table 4,450,083: an Ace of clubs 72 px long, 82% in sight, read as itself
    at 0.52 to 0.57 on four quads the searches tried, and as no game card on the rest."""
    label_on = row_table_reading(4_450_083, "A of clubs")
    assert label_on() == "A of clubs"
    monkeypatch.setattr(fusion, "voted_cards", lambda frame, kept: kept)
    assert label_on() is None
