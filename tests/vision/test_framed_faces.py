"""A 6..King read on the printed frame inside it is read again grown to the length of the
cards beside it (`fusion.framed_faces`): the rule on made-up readings, and on the rendered
row table it was found on."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from companion.vision.bench.scenes import row_scenes
from companion.vision.decks import load_deck
from companion.vision.fusion import framed_faces, read_cards
from companion.vision.geometry import quad_extent, quad_iou
from companion.vision.read import CardReader
from companion.vision.segment import CardMaps
from companion.vision.types import OTHER, CardReading


def rectangle(x: float, y: float, w: float, h: float) -> np.ndarray:
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)


def face(quad: np.ndarray, label: str = OTHER, confidence: float = 0.99) -> CardReading:
    rank = 2 if label != OTHER else None
    return CardReading(quad, "up", rank, "hearts" if rank else None, label, confidence)


NEIGHBOUR = face(rectangle(0, 0, 70, 100), "2 of hearts")  # cards 100 px long
KING = rectangle(200, 0, 70, 100)
FRAME = rectangle(210, 10, 50, 80)  # the King's printed frame, 10 px in all round


def net_seeing(quads: list[np.ndarray]) -> CardMaps:
    """Maps of a net that sees card inside `quads` only, at the frame's own scale."""
    card = np.zeros((200, 400), np.float32)
    for quad in quads:
        cv2.fillConvexPoly(card, np.round(quad).astype(np.int32), 1.0)
    return CardMaps(card, card, 1.0, 1.0)


# the net sees the neighbour and the whole King, its margin round its printed frame too
AROUND = net_seeing([NEIGHBOUR.corners, KING])


def grown(
    kept: list[CardReading],
    reads: str = OTHER,
    confidence: float = 0.99,
    maps: CardMaps | None = AROUND,
):
    """`grown_faces` of `kept`, its reader reading every quad it is given as `reads`, the
    net's maps as `maps` says."""

    def read_batch(image, quads):
        return [face(quad, reads, confidence) for quad in quads]

    reader = SimpleNamespace(read_batch=read_batch)
    return framed_faces.grown_faces(np.zeros((200, 400, 3), np.uint8), reader, kept, maps)


def test_a_6_to_king_on_its_printed_frame_is_grown_to_its_edges() -> None:
    got = grown([NEIGHBOUR, face(FRAME)])
    assert got[0] is NEIGHBOUR
    assert quad_iou(got[1].corners, KING) > 0.99
    assert sorted(quad_extent(got[1].corners)) == pytest.approx([70.0, 100.0])


def test_it_stays_where_the_grown_quad_is_not_a_6_to_king_alone() -> None:
    framed = face(FRAME)
    # the grown quad read unsure, or as a game card
    assert grown([NEIGHBOUR, framed], confidence=0.8)[1] is framed
    assert grown([NEIGHBOUR, framed], reads="2 of hearts")[1] is framed
    # grown over a neighbour
    beside = face(rectangle(200, 40, 70, 100), "back")
    assert grown([NEIGHBOUR, framed, beside])[1] is framed
    # a quad nearly a card long, a game card, an unsure 6..King, no card to size it by
    long = face(rectangle(210, 5, 60, 90))
    game = face(FRAME, "3 of hearts")
    unsure = face(FRAME, confidence=0.6)
    for kept in ([NEIGHBOUR, long], [NEIGHBOUR, game], [NEIGHBOUR, unsure], [face(FRAME)]):
        assert grown(kept) == kept
    # a card smaller than its neighbours, the table round it: the net sees no card there
    assert grown([NEIGHBOUR, framed], maps=net_seeing([NEIGHBOUR.corners, FRAME]))[1] is framed
    assert grown([NEIGHBOUR, framed], maps=None)[1] is framed  # no maps: nothing to tell


@pytest.mark.reference_text
def test_a_king_in_a_row_read_on_its_frame_is_read_on_its_edges(monkeypatch) -> None:
    """Tuning row table 4,450,118: a King 105 px long in a row, its quad placed on its
    printed frame and read at 0.99, is read on its edges once grown."""
    image, truths = next(row_scenes("playing-cards", 1, 4_450_118))
    (king,) = [
        t
        for t in truths
        if t.visible > 0.99 and np.linalg.norm(t.corners.mean(axis=0) - (334, 254)) < 20
    ]
    reader = CardReader(load_deck("playing-cards"))

    def best_overlap() -> float:
        return max(quad_iou(r.corners, king.corners) for r in read_cards(image, reader))

    assert best_overlap() > 0.8
    monkeypatch.setattr(framed_faces, "FRAMED", 0.0)
    assert best_overlap() < 0.5
