"""An enrolled deck whose back carries no print inside its margin: told by its colour
(`vision/back_colour.py`), found by the edge finder (`detect.find_cards`' plain_back) and
looked for on every frame (`fusion/plain_backs.py`)."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import cv2
import numpy as np
import pytest

from companion.vision import back_colour
from companion.vision.back_colour import back_coloured, plain_inside
from companion.vision.colour_blobs import back_coloured_quads
from companion.vision.decks import DeckProfile, card_from_picture, load_deck
from companion.vision.detect import find_cards
from companion.vision.features import READ_SIZE
from companion.vision.fusion.plain_backs import plain_backs
from companion.vision.geometry import quad_iou
from companion.vision.pipeline import CardPipeline
from companion.vision.read import CardReader
from companion.vision.synth import random_scene, render_scene
from companion.vision.synth.art import designed_back

BROWN = (45, 48, 68)  # BGR


def _picture(fill: tuple[int, int, int], margin: int = 0) -> np.ndarray:
    """A READ_SIZE back: `fill` inside a white margin `margin` pixels wide."""
    width, height = READ_SIZE
    back = np.full((height, width, 3), 245, np.uint8)
    back[margin : height - margin, margin : width - margin] = fill
    return back


@cache
def _plain_table() -> tuple[DeckProfile, np.ndarray, tuple]:
    """A tuning table (seed 4,650,250) of back design 4,100,025, a dark brown printed to the
    edge with a faint texture (printing 0.042), on a light cloth: the demo deck's faces
    enrolled with that back; the picture and its truths. Its six backs are what the net
    takes for phones and the edge finder for blank things."""
    demo = load_deck("demo-animals")
    art = designed_back(4_100_025)
    back = cv2.resize(art, READ_SIZE, interpolation=cv2.INTER_AREA)
    deck = replace(demo, templates={**demo.templates, "back": back[None]})
    spec = random_scene(np.random.default_rng(4_650_250), 15, "animals", edition="classic")
    image, truths = render_scene(spec, back_art=art)
    return deck, image, tuple(truths)


def _backs_found(quads: list[np.ndarray], truths: tuple, iou: float = 0.5) -> int:
    """How many face-down cards of `truths` one of `quads` outlines (IoU `iou` or more)."""
    downs = [t for t in truths if t.face == "down"]
    return sum(any(quad_iou(quad, t.corners) >= iou for quad in quads) for t in downs)


def test_a_back_plain_inside_its_margin_gives_that_inside_colour() -> None:
    """The colour of the inside (`INSIDE_BOX`), with or without a white margin; a back
    printed there (the demo deck's, a checker) has no plain inside."""
    for margin in (0, 10):
        colour = plain_inside(_picture(BROWN, margin)[None])
        assert colour is not None and np.allclose(colour, BROWN, atol=0.5)
    assert plain_inside(load_deck("demo-animals").templates["back"]) is None
    checker = _picture(BROWN)
    checker[::16, :] = 230
    assert plain_inside(checker[None]) is None


def test_a_colour_is_the_backs_under_a_dimmer_or_brighter_light_only() -> None:
    """The same colour at 0.6 or 1.3 times the light is the back's; another hue, or far
    darker, is not."""
    back = np.float32(BROWN)
    colours = np.float32([back * 0.6, back * 1.3, (40, 120, 40), back * 0.3])
    assert back_coloured(colours, back).tolist() == [True, True, False, False]


def test_the_edge_finder_keeps_plain_quads_of_the_backs_colour_on_their_own_edges() -> None:
    """Told the back's plain colour, the edge finder outlines three of the six backs it
    otherwise rejects as blank, on their own edges (their shadow all round is no printed
    frame to step out past); of the other three it finds one for its print anyway, and
    two the camera's tilt shows near square, as a gingham's cell is
    (`detect.PLAIN_MIN_ASPECT`). Told another colour, it still rejects them; asked for
    plain quads only, it gives those three alone."""
    deck, image, truths = _plain_table()
    colour = plain_inside(deck.templates["back"])
    assert colour is not None
    assert _backs_found(find_cards(image), truths) <= 1
    assert _backs_found(find_cards(image, np.float32([40, 120, 40])), truths) <= 1
    found = find_cards(image, colour)
    assert _backs_found(found, truths, iou=0.9) == 3
    plain = find_cards(image, colour, plain_only=True)
    assert len(plain) == _backs_found(plain, truths, iou=0.9) == 3


def test_the_backs_the_first_look_left_out_are_added_once() -> None:
    """`plain_backs` adds each back of the plain colour no reading covers, read as the back
    for sure, and none where a reading lies already; a deck whose back is printed inside
    gets nothing looked for."""
    deck, image, truths = _plain_table()
    reader = CardReader(deck)
    added = plain_backs(image, reader, [])
    assert all(reading.face == "down" for reading in added)
    assert _backs_found([reading.corners for reading in added], truths) >= 3
    again = plain_backs(image, reader, added)
    assert len(again) == len(added)
    demo_reader = CardReader(load_deck("demo-animals"))
    assert demo_reader.deck.plain_back is None
    assert plain_backs(image, demo_reader, []) == []


def test_a_deck_with_a_plain_back_reads_its_backs_face_down(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Through the whole pipeline, three of the table's six backs read as backs, and no
    face is read where none lies; without the plain back's colour, none."""
    deck, image, truths = _plain_table()
    readings = CardPipeline(deck).read(image)
    backs = [r.corners for r in readings if r.face == "down"]
    assert _backs_found(backs, truths) >= 3
    for reading in readings:
        if reading.rank is not None:
            assert any(
                quad_iou(reading.corners, t.corners) > 0.5 and t.rank == reading.rank
                for t in truths
            )
    monkeypatch.setattr(back_colour, "PLAIN_INSIDE", -1.0)  # no back is plain
    readings = CardPipeline(replace(deck)).read(image)  # a new profile: nothing cached
    assert _backs_found([r.corners for r in readings if r.face == "down"], truths) == 0


def test_a_plain_back_is_enrolled_from_a_photo_of_it_on_a_table() -> None:
    """A photo of one such back lying on a light cloth: the finder sees no card with print
    in it, so the largest card without print is the back (`decks.card_from_picture`), and
    its inside is plain, in about the flat picture's colour."""
    art = designed_back(4_100_025)
    spec = random_scene(
        np.random.default_rng(7_100_001),
        1,
        "animals",
        face_up_rate=0.0,
        distractors=0,
        hand_rate=0.0,
        length_range=(250.0, 400.0),
    )
    photo, _ = render_scene(spec, back_art=art)
    assert find_cards(photo) == []
    card = card_from_picture(photo, "back.jpg")
    colour = plain_inside(card[None])
    flat = plain_inside(cv2.resize(art, READ_SIZE, interpolation=cv2.INTER_AREA)[None])
    assert colour is not None and flat is not None
    assert back_coloured(colour, flat)


def _wood_with_backs(quads: list[np.ndarray]) -> np.ndarray:
    """A beige, grainy table with a grey back (as light as the table) filling each quad."""
    rng = np.random.default_rng(3)
    table = np.empty((720, 1280, 3), np.float32)
    table[:] = (120, 150, 175)  # BGR beige, grey 153
    table += rng.normal(0, 6, table.shape)
    for quad in quads:
        cv2.fillConvexPoly(table, np.int32(quad), (152, 153, 154))
    return np.clip(table, 0, 255).astype(np.uint8)


def test_backs_as_light_as_the_table_are_found_by_their_colour() -> None:
    """Grey backs on a beige table of the same lightness show the edge map no outline:
    told the back's colour, the edge finder finds the two card-shaped ones by it
    (`colour_blobs`), not the square patch of that grey, and nothing on the bare table."""
    card = np.float32([[0, 0], [100, 0], [100, 140], [0, 140]])
    turned = cv2.boxPoints(((900, 400), (90, 126), 30)).astype(np.float32)
    backs = [card + np.float32([200, 200]), turned]
    square = card * np.float32([1, 100 / 140]) + np.float32([500, 500])
    image = _wood_with_backs([*backs, square])
    grey = np.float32([152, 153, 154])
    assert find_cards(image) == []
    found = find_cards(image, grey)
    assert len(found) == 2
    assert all(any(quad_iou(q, b) > 0.85 for q in found) for b in backs)
    assert find_cards(_wood_with_backs([]), grey) == []


def test_a_cloth_printed_in_the_backs_colour_gives_no_blobs() -> None:
    """A check of grey and beige cells shaped as cards, more of them than a table holds
    cards (`colour_blobs.BLOB_MOST`): the cloth's print, not backs."""
    cell = np.float32([[0, 0], [70, 0], [70, 100], [0, 100]])
    image = _wood_with_backs([])
    for row in range(0, 720, 150):
        for column in range(0, 1280, 110):
            if (row // 150 + column // 110) % 2 == 0:
                placed = cell + np.float32([column, row])
                cv2.fillConvexPoly(image, np.int32(placed), (152, 153, 154))
    grey = np.float32([152, 153, 154])
    assert len(back_coloured_quads(image, grey, 64)) == 0
    one = _wood_with_backs([cell + np.float32([300, 300])])
    assert len(back_coloured_quads(one, grey, 64)) == 1
