"""Card the net sees only faintly, away from every card read, leaves the frame in doubt
and is looked at again (`fusion.doubt.faint_card`): the rule on made-up maps, and on the
rendered tuning table it was found on."""

from __future__ import annotations

import numpy as np
import pytest
from test_cut_out import reading
from test_reaching import card_at

from companion.vision.bench.scenes import seed_offset, synthetic_scenes
from companion.vision.bench.tallies import reads_truth
from companion.vision.decks import load_deck
from companion.vision.fusion import Candidates, doubt, read_cards
from companion.vision.fusion.doubt import faint_card, in_doubt, left_to_look
from companion.vision.geometry import quad_iou
from companion.vision.read import CardReader
from companion.vision.segment import CardMaps

# maps at half the frame's scale; a wolf read for sure at (100..150, 100..170) frame px
SURE_WOLF = reading(card_at(100, 100), "wolf", 0.99, rank=2)


def found_on(card: np.ndarray) -> Candidates:
    """The learned finder's look at a 1280x720 frame whose net sees `card` (360x640)."""
    return Candidates([], [], [], [], CardMaps(card, card, 0.5, 0.5), np.zeros((368, 640, 3)))


def seen_card() -> np.ndarray:
    """The net's map: the wolf's pixels sure, and a faint halo 4 map pixels round it."""
    card = np.zeros((360, 640), np.float32)
    card[48:89, 48:79] = 0.4
    card[50:85, 50:75] = 1.0
    return card


def test_card_seen_faintly_away_from_every_card_read_is_found() -> None:
    card = seen_card()
    assert faint_card(found_on(card), [SURE_WOLF]) is None  # the wolf's halo is not a card
    card[200:220, 400:415] = 0.35  # a small back on grey cloth, 40 x 30 frame px
    x0, y0, x1, y1 = faint_card(found_on(card), [SURE_WOLF], context=0)
    assert x0 <= 400 and y0 <= 200 and x1 >= 415 and y1 >= 220
    assert x1 - x0 < 64 and y1 - y0 < 64  # the box holds it alone


def test_card_seen_fainter_still_or_beside_a_card_read_is_not() -> None:
    card = seen_card()
    card[200:220, 400:415] = 0.2  # under FAINT_LEVEL: the table's own texture
    assert faint_card(found_on(card), [SURE_WOLF]) is None
    card = seen_card()
    card[50:85, 76:80] = 0.45  # the gap to a neighbour, within the grown quad
    assert faint_card(found_on(card), [SURE_WOLF]) is None


def test_a_frame_showing_one_is_in_doubt_and_looked_at_again(monkeypatch) -> None:
    """Every reading settled and every card pixel the net is sure of explained: only the
    faint card leaves doubt, and the second look's box takes it in."""
    card = seen_card()
    card[200:220, 400:415] = 0.35
    found = found_on(card)
    assert in_doubt(found, [SURE_WOLF])
    x0, y0, x1, y1 = left_to_look(found, [SURE_WOLF], context=0)
    assert x0 <= 400 and y0 <= 200 and x1 >= 415 and y1 >= 220
    monkeypatch.setattr(doubt, "FAINT_LEVEL", 0.5)
    assert not in_doubt(found, [SURE_WOLF])
    assert left_to_look(found, [SURE_WOLF], context=0) is None


def test_the_second_looks_box_holds_both_what_is_unexplained_and_what_is_faint() -> None:
    card = seen_card()
    card[200:220, 400:415] = 0.35  # faint
    card[20:60, 300:330] = 1.0  # a card the net is sure of, read by nothing
    x0, y0, x1, y1 = left_to_look(found_on(card), [SURE_WOLF], context=0)
    assert (x0, y0) <= (300, 20) and x1 >= 415 and y1 >= 220


@pytest.mark.reference_text
def test_a_small_back_seen_faintly_is_read(monkeypatch) -> None:
    """Playing tuning table 4,200,248: three backs 35 to 55 px long on grey cloth, seen by
    the net at a mean card probability of 0.22 to 0.43, every other card read for sure;
    the first look took the frame as read and the backs were lost. Left in doubt, the
    second look outlines one of them, which is read."""
    deck = "playing-cards"
    image, truths = next(synthetic_scenes(deck, 1, 4_200_248 - seed_offset(deck)))
    backs = [t for t in truths if t.face == "down" and t.corners[:, 0].min() > 1140]
    reader = CardReader(load_deck(deck))

    def backs_read() -> int:
        readings = read_cards(image, reader)
        return sum(
            any(quad_iou(r.corners, t.corners) >= 0.5 and reads_truth(r, t) for r in readings)
            for t in backs
        )

    assert len(backs) == 3
    assert backs_read() >= 1
    monkeypatch.setattr(doubt, "FAINT_LEVEL", 1.0)
    assert backs_read() == 0
