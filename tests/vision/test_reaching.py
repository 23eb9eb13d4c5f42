"""A game card outlined by no quad of its own is read on card-sized quads reaching out
from the ends of an unsure quad (`fusion.reaching`), and a back or 6..King holding nearly
all of that quad: the rule on made-up readings, and on a rendered row table it was
measured on."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from test_cut_out import frame_of, reading, row_table_reading

from companion.vision import fusion
from companion.vision.fusion import reaching
from companion.vision.geometry import quad_iou
from companion.vision.shake import Shake
from companion.vision.types import OTHER, CardReading


def card_at(x: float, y: float = 0.0) -> np.ndarray:
    return np.array([[x, y], [x + 50, y], [x + 50, y + 70], [x, y + 70]], np.float32)


# a 2 of hearts read for sure; 100 px on, an Ace of spades between two neighbours, only
# its middle in sight: a band 50 px wide and 30 high, outlined alone and read unsure
SURE_CARD = reading(card_at(0), "2 of hearts", 0.98, rank=2)
ACE = card_at(100)
BAND = np.array([[100, 20], [150, 20], [150, 50], [100, 50]], np.float32)
BELOW = card_at(100, 20)  # a card-sized quad from the band's top down
ACE_READ = reading(ACE, "A of spades", 0.95, rank=1)


def turned(quad: np.ndarray, degrees: float) -> np.ndarray:
    """`quad` turned about its centre."""
    centre = quad.mean(axis=0)
    turn = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), degrees, 1.0)
    return (quad @ turn[:, :2].T + turn[:, 2]).astype(np.float32)


def reach(
    ends: dict[str, CardReading],
    band: np.ndarray = BAND,
    kept: list[CardReading] | None = None,
    edge: bool | None = None,
    deck: str = "playing-cards",
) -> list[CardReading]:
    """`reached_cards` on a frame of `deck` holding the 2 and the quad `band` read unsure
    (with `kept`, in place of the 2, where given): a learned quad or, where `edge` is not
    None, an edge quad the net agrees with where `edge`. The quads at its ends read as
    `ends` says ("ace", "below": quads over those cards at IoU 0.85; any other reads as
    an unsure face)."""
    unsure = reading(band, OTHER, 0.3)
    places = [(ACE, ends.get("ace")), (BELOW, ends.get("below"))]
    frame = frame_of(band, unsure, places, edge, deck, match=0.85)
    return reaching.reached_cards(frame, ([SURE_CARD] if kept is None else kept) + [unsure])


def labels_at(readings: list[CardReading]) -> list[tuple[str, int]]:
    return sorted((r.label, round(float(r.corners[:, 0].min()))) for r in readings)


UNCHANGED = [("2 of hearts", 0), (OTHER, 100)]


def test_a_game_card_at_an_end_of_an_unsure_quad_stands_for_it() -> None:
    got = reach({"ace": ACE_READ})
    assert labels_at(got) == [("2 of hearts", 0), ("A of spades", 100)]
    (ace,) = [r for r in got if r.rank == 1]
    assert quad_iou(ace.corners, ACE) > 0.95
    # an edge quad the net sees card under as a learned one; not one it sees no card under
    assert labels_at(reach({"ace": ACE_READ}, edge=True))[1][0] == "A of spades"
    assert labels_at(reach({"ace": ACE_READ}, edge=False)) == UNCHANGED


def test_an_unsure_reading_over_the_card_found_gives_way_to_it() -> None:
    """Tuning row table 4,470,447: a wolf half under its neighbour read as a mouse at 0.61
    on a quad of its own, found at the end of another as a wolf at 0.99, stood twice."""
    over = np.array([[95, -15], [160, -15], [160, 75], [95, 75]], np.float32)
    assert quad_iou(over, BAND) < 0.3 <= quad_iou(over, ACE)
    three = reading(over, "3 of spades", 0.61, rank=3)
    got = reach({"ace": ACE_READ}, kept=[SURE_CARD, three])
    assert labels_at(got) == [("2 of hearts", 0), ("A of spades", 100)]


def test_nothing_stands_where_the_card_at_the_ends_is_not_clear() -> None:
    # two game cards named at the quad's ends
    three = reading(BELOW, "3 of spades", 0.97, rank=3)
    assert labels_at(reach({"ace": ACE_READ, "below": three})) == UNCHANGED
    # a game card under SURE_ENOUGH
    unsure_ace = reading(ACE, "A of spades", 0.85, rank=1)
    assert labels_at(reach({"ace": unsure_ace})) == UNCHANGED
    # the Ace read elsewhere in the frame already: each player holds one
    elsewhere = reading(card_at(200), "A of spades", 0.6, rank=1)
    got = reach({"ace": ACE_READ}, kept=[SURE_CARD, elsewhere])
    assert labels_at(got) == [("2 of hearts", 0), ("A of spades", 200), (OTHER, 100)]
    # an enrolled deck's animal, though, lies before every player that plays it
    owl = reading(card_at(200), "owl", 0.6, rank=4)
    got = reach(
        {"ace": reading(ACE, "owl", 0.95, rank=4)}, kept=[SURE_CARD, owl], deck="demo-animals"
    )
    assert labels_at(got) == [("2 of hearts", 0), ("owl", 100), ("owl", 200)]
    # no card read for sure to size the card by and turn it
    assert labels_at(reach({"ace": ACE_READ}, kept=[])) == [(OTHER, 100)]


# an unsure quad 100 px long from the band's top: a card and part of the one under it
LONG_BAND = np.array([[100, 20], [150, 20], [150, 120], [100, 120]], np.float32)


def test_a_back_or_6_to_king_at_an_end_stands_where_it_holds_nearly_all_the_quad() -> None:
    """Where no game card is read at the ends, a back or a 6..King read at PLAIN_SURE on a
    quad holding PLAIN_COVERS of the unsure one is the card it loosely outlined; where the
    unsure quad reaches well past it, the rest may be a card under it, and nothing stands
    (a game card lay under such a 6..King on tuning row tables 4,450,008 and 4,450,029)."""
    for plain in ("back", OTHER):
        got = reach({"ace": reading(ACE, plain, 0.97)})  # the band lies wholly on it
        assert labels_at(got) == [("2 of hearts", 0), (plain, 100)]
        assert quad_iou(got[-1].corners, ACE) > 0.95
        # the same card at the top end of a quad reaching past it: 70 of its 100 px
        assert labels_at(reach({"below": reading(BELOW, plain, 0.97)}, LONG_BAND)) == [
            ("2 of hearts", 0),
            (OTHER, 100),
        ]
    # read under PLAIN_SURE, or as two kinds at the ends; a game card comes first
    assert labels_at(reach({"ace": reading(ACE, "back", 0.93)})) == UNCHANGED
    two = {"ace": reading(ACE, "back", 0.97), "below": reading(BELOW, OTHER, 0.99)}
    assert labels_at(reach(two)) == UNCHANGED
    first = {"ace": reading(ACE, "back", 0.99), "below": reading(BELOW, "A of spades", 0.95, 1)}
    assert labels_at(reach(first)) == [("2 of hearts", 0), ("A of spades", 100)]


def test_a_quad_turned_away_from_the_nearest_card_is_not_searched() -> None:
    # turned by 6 degrees its ends still lie on the Ace (as a row's cards lie alike)
    assert labels_at(reach({"ace": ACE_READ}, band=turned(BAND, 6.0)))[1][0] == "A of spades"
    assert labels_at(reach({"ace": ACE_READ}, band=turned(BAND, 15.0)))[1][0] == OTHER


@pytest.mark.reference_text
def test_a_middle_card_of_three_is_read_at_an_end_of_its_band(monkeypatch) -> None:
    """Tuning row table 4,450,075: a 2 of diamonds under a 9 of diamonds and over a face
    card, outlined with the face card's end as one unsure quad. Read on a card-sized quad
    at that quad's end; without the search, or on a frame taken for shaken, it is lost."""
    label_on = row_table_reading(4_450_075, "2 of diamonds")
    assert label_on() == "2 of diamonds"
    monkeypatch.setattr(fusion, "shake_of", lambda image: Shake(6.0, 0.0))
    assert label_on() is None
    monkeypatch.undo()
    monkeypatch.setattr(fusion, "reached_cards", lambda frame, kept: kept)
    assert label_on() is None
