"""A card outlined together with part of its neighbour is cut out of that quad
(`fusion.cut_out`): the rule on made-up readings, and on the rendered row table it was
measured on."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace

import numpy as np
import pytest

from companion.vision import fusion
from companion.vision.bench.scenes import row_scenes
from companion.vision.decks import load_deck
from companion.vision.fusion import Candidates, cut_out, read_cards, sides
from companion.vision.fusion.reading import FrameReads
from companion.vision.geometry import quad_iou
from companion.vision.read import CardReader
from companion.vision.types import OTHER, CardReading


def card_at(x: float, w: float = 50.0) -> np.ndarray:
    return np.array([[x, 0], [x + w, 0], [x + w, 70], [x, 70]], np.float32)


def reading(quad: np.ndarray, label: str, confidence: float, rank: int | None = None):
    face = "down" if label == "back" else "up"
    return CardReading(quad, face, rank, "spades" if rank else None, label, confidence)


# a 2 of hearts read for sure; 100 px on, an Ace of spades outlined with 25 px of the card
# beside it as one quad 75 px wide, read as an unsure face
SURE_CARD = reading(card_at(0), "2 of hearts", 0.98, rank=2)
ACE = card_at(100)
WIDE = card_at(100, w=75)
BESIDE = card_at(125)  # the quad's other end, as wide as a card


def frame_of(
    whole: np.ndarray,
    unsure: CardReading,
    places: list[tuple[np.ndarray, CardReading | None]],
    edge: bool | None = None,
    deck: str = "playing-cards",
    match: float = 0.95,
) -> FrameReads:
    """A frame holding the quad `whole`, read as `unsure`: a learned quad or, where `edge`
    is not None, an edge quad the net agrees with where `edge`. Its reader reads a quad
    over one of `places` (a quad, and its reading, or None) at IoU `match` as that
    reading, any other quad as an unsure face."""

    def read_batch(image, quads):
        out = []
        for quad in quads:
            got = next((r for q, r in places if r and quad_iou(quad, q) > match), None)
            got = got or reading(quad, OTHER, 0.2)
            out.append(CardReading(quad, got.face, got.rank, got.suit, got.label, got.confidence))
        return out

    if edge is None:
        found, rough = Candidates([], [], [whole], [whole]), {0: unsure}
    else:
        found, rough = Candidates([whole], [edge], [], []), {}
    reader = SimpleNamespace(deck=load_deck(deck), read_batch=read_batch)
    return FrameReads(np.zeros((200, 300, 3), np.uint8), reader, found, [unsure], rough, {})


def cut(
    parts: dict[str, CardReading],
    whole: np.ndarray = WIDE,
    edge: bool | None = None,
    sure: bool = True,
) -> tuple[list[CardReading], CardReading]:
    """`cut_out_cards` on a frame holding the 2 (where `sure`) and the quad `whole`, a
    learned quad (or, where `edge` is not None, an edge quad the net agrees with where
    `edge`), its card-shaped parts read as `parts` says ("ace" and "beside": the parts on
    those cards; any other part reads as an unsure face); and the quad's own reading."""
    unsure = reading(whole, OTHER, 0.3)
    places = [(ACE, parts.get("ace")), (BESIDE, parts.get("beside"))]
    frame = frame_of(whole, unsure, places, edge)
    kept = ([SURE_CARD] if sure else []) + [unsure]
    return cut_out.cut_out_cards(frame, kept), unsure


def labels_at(readings: list[CardReading]) -> list[tuple[str, int]]:
    return sorted((r.label, round(float(r.corners[:, 0].min()))) for r in readings)


ACE_READ = reading(ACE, "A of spades", 0.95, rank=1)


def test_one_end_read_for_sure_stands_for_the_quad() -> None:
    got, _ = cut({"ace": ACE_READ})
    assert labels_at(got) == [("2 of hearts", 0), ("A of spades", 100)]
    # a back too; and an edge quad the net sees card under as a learned one
    got, _ = cut({"ace": reading(ACE, "back", 0.93)})
    assert labels_at(got) == [("2 of hearts", 0), ("back", 100)]
    got, _ = cut({"ace": ACE_READ}, edge=True)
    assert labels_at(got) == [("2 of hearts", 0), ("A of spades", 100)]


def test_nothing_is_cut_out_where_it_is_not_clear() -> None:
    unchanged = [("2 of hearts", 0), (OTHER, 100)]
    # both ends read for sure: which end is the card is open
    beside = reading(BESIDE, "3 of spades", 0.97, rank=3)
    assert labels_at(cut({"ace": ACE_READ, "beside": beside})[0]) == unchanged
    # a 6..King read so: the region it explains can hide an Ace under it (real IMG_2626)
    six = reading(ACE, OTHER, 0.99)
    assert labels_at(cut({"ace": six})[0]) == unchanged
    # an Ace below SURE_ENOUGH, read by one part (an edge quad's)
    unsure_ace = reading(ACE, "A of spades", 0.85, rank=1)
    assert labels_at(cut({"ace": unsure_ace}, edge=True)[0]) == unchanged
    # a quad not wider than a card by a fifth (55 of 50 px)
    narrow = card_at(100, w=55)
    assert labels_at(cut({"ace": ACE_READ}, whole=narrow)[0]) == unchanged
    # no card read for sure to size a card by
    assert labels_at(cut({"ace": ACE_READ}, sure=False)[0]) == [(OTHER, 100)]
    # an edge quad the net sees no card under
    assert labels_at(cut({"ace": ACE_READ}, edge=False)[0]) == unchanged


def test_a_game_card_two_parts_read_a_little_less_surely_stands() -> None:
    # a learned quad's placed and rough outlines each give a part on the Ace (the same
    # here), both reading it at 0.85: below SURE_ENOUGH, but two parts agree
    nearly = reading(ACE, "A of spades", 0.85, rank=1)
    got, _ = cut({"ace": nearly})
    assert labels_at(got) == [("2 of hearts", 0), ("A of spades", 100)]
    # an edge quad gives one part on it: that is not enough
    unchanged = [("2 of hearts", 0), (OTHER, 100)]
    assert labels_at(cut({"ace": nearly}, edge=True)[0]) == unchanged
    # nor where a part names another game card at that level, nor below `AGREED_GAME`
    beside = reading(BESIDE, "4 of clubs", 0.8, rank=4)
    assert labels_at(cut({"ace": nearly, "beside": beside})[0]) == unchanged
    low = reading(ACE, "A of spades", cut_out.AGREED_GAME - 0.05, rank=1)
    assert labels_at(cut({"ace": low})[0]) == unchanged


def row_table_reading(table: int, label: str, one_deck: bool = True) -> Callable[[], str | None]:
    """A rendered playing row table, and a function giving what the default readings of
    it say on its card `label` (None where no reading lies on it at IoU 0.5)."""
    image, truths = next(row_scenes("playing-cards", 1, table, one_deck=one_deck))
    (card,) = [t for t in truths if t.label == label]
    reader = CardReader(load_deck("playing-cards"))

    def label_on() -> str | None:
        best = max(read_cards(image, reader), key=lambda r: quad_iou(r.corners, card.corners))
        return best.label if quad_iou(best.corners, card.corners) >= 0.5 else None

    return label_on


@pytest.mark.reference_text
def test_a_card_outlined_with_part_of_its_neighbour_is_cut_out(monkeypatch) -> None:
    """Tuning row table 4,450,044: a 3 of diamonds 73 px long, outlined with part of the
    card beside it as a quad about 1.5 cards wide both ways, read as an unsure face. Only
    the part at its end reads it (at 0.94): without the cut it is lost."""
    label_on = row_table_reading(4_450_044, "3 of diamonds", one_deck=False)
    assert label_on() == "3 of diamonds"
    monkeypatch.setattr(fusion, "cut_out_cards", lambda frame, kept: kept)
    assert label_on() is None


def test_a_six_to_king_read_on_a_quad_wider_than_a_card_hides_no_game_card(monkeypatch) -> None:
    """Tuning row table 4,450,062: a 4 of diamonds 107 px long, outlined with part of the
    5 of hearts beside it as a quad 110 by 119 px, read as a 6..King at 0.97 by the side
    search (one side moved), so the cut-out, which cuts quads read unsure, left it. The
    side search's 6..King does not stand on a quad so wide (`sides.WIDE_SIX_TO_KING`): the
    4 is cut out and read (the same with OpenCV 5.0's text and 5.1's)."""
    label_on = row_table_reading(4_450_062, "4 of diamonds")
    assert label_on() == "4 of diamonds"
    monkeypatch.setattr(sides, "WIDE_SIX_TO_KING", float("inf"))
    assert label_on() == OTHER


def cut_plain(parts: dict[str, CardReading], kept: list[CardReading] = ()) -> list[CardReading]:
    """`cut_out_plain_cards` on the frame of `cut`, holding `kept` besides."""
    unsure = reading(WIDE, OTHER, 0.3)
    places = [(ACE, parts.get("ace")), (BESIDE, parts.get("beside"))]
    frame = frame_of(WIDE, unsure, places)
    return cut_out.cut_out_plain_cards(frame, [SURE_CARD, *kept, unsure])


def test_a_six_to_king_is_cut_out_last_where_no_game_card_is_read_on_the_quad() -> None:
    """After every search for game cards, a 6..King read for sure at one end of an unsure
    quad stands for it: tuning row tables 4,450,022 and 4,450,060, a King outlined with
    part of the card under it."""
    six = reading(ACE, OTHER, 0.99)
    got = cut_plain({"ace": six})
    assert labels_at(got) == [("2 of hearts", 0), (OTHER, 100)]
    assert quad_iou(got[-1].corners, ACE) > 0.95
    # not where a game card is read on the quad, however unsure: it is worth more
    ace_under = reading(BESIDE, "A of spades", 0.4, rank=1)
    got = cut_plain({"ace": six}, kept=[ace_under])
    assert labels_at(got) == [("2 of hearts", 0), ("A of spades", 125), (OTHER, 100)]
    assert any(quad_iou(r.corners, WIDE) > 0.95 for r in got)
    # nor where another part reads a back for sure, nor below SURE_ENOUGH
    back = reading(BESIDE, "back", 0.97)
    unchanged = [("2 of hearts", 0), (OTHER, 100)]
    for parts in ({"ace": six, "beside": back}, {"ace": reading(ACE, OTHER, 0.85)}):
        got = cut_plain(parts)
        assert labels_at(got) == unchanged and quad_iou(got[-1].corners, WIDE) > 0.95


@pytest.mark.reference_text
def test_a_king_outlined_with_the_card_under_it_is_cut_out_last(monkeypatch) -> None:
    """Tuning row table 4,450,022: a King 105 px long over a 7 of clubs, outlined with it
    as one quad read as an unsure face; its end reads the King at 0.99. The cut-out of
    game cards and backs leaves it, and the King was lost before the last cut."""
    image, truths = next(row_scenes("playing-cards", 1, 4_450_022))
    (king,) = [
        t
        for t in truths
        if t.visible > 0.99 and np.linalg.norm(t.corners.mean(axis=0) - (876, 131)) < 20
    ]
    reader = CardReader(load_deck("playing-cards"))

    def king_read() -> tuple[str, float]:
        best = max(read_cards(image, reader), key=lambda r: quad_iou(r.corners, king.corners))
        return best.label, quad_iou(best.corners, king.corners)

    label, overlap = king_read()
    assert label == OTHER and overlap > 0.9
    monkeypatch.setattr(fusion, "cut_out_plain_cards", lambda frame, kept: kept)
    assert king_read()[1] < 0.6  # the quad of both cards, read unsure
