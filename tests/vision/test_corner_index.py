"""Cards found by their corner index alone (companion.vision.corner_index and the default
finder's use of it): an Ace fanned under a 9, whose outline no finder closes."""

from __future__ import annotations

import math

import numpy as np
import pytest

from companion.vision.corner_index import (
    CLOSE_CONTEXT,
    CLOSE_GAIN,
    PATCH_HEIGHT,
    PATCH_WIDTH,
    IndexHit,
    _turned_back,
    close_indices,
    find_indices,
)
from companion.vision.decks import load_deck
from companion.vision.geometry import quad_iou
from companion.vision.pipeline import CardPipeline
from companion.vision.segment import net_input
from companion.vision.synth import render_scene
from companion.vision.synth.spec import CardSpec, SceneSpec

LENGTH = 330.0


def fan(table: str, angle: float, shift: float) -> tuple[np.ndarray, list]:
    """An Ace of hearts with a 9 of spades lying over `shift` of its width."""
    step = shift * LENGTH / 1.4
    dx, dy = math.cos(math.radians(angle)) * step, math.sin(math.radians(angle)) * step
    cards = (
        CardSpec("playing-cards", 1, "hearts", "up", (560, 360), angle=angle, length=LENGTH),
        CardSpec(
            "playing-cards", 9, "spades", "up", (560 + dx, 360 + dy), angle=angle + 6, length=LENGTH
        ),
    )
    return render_scene(SceneSpec(table=table, cards=cards, seed=3))


@pytest.fixture(scope="module")
def pipeline() -> CardPipeline:
    return CardPipeline(load_deck("playing-cards"))


@pytest.mark.parametrize(
    ("table", "angle"),
    [("wood-dark", -8), ("felt-green", 30), ("wood-light", 170), ("wood-light", 30)],
)
def test_an_ace_fanned_under_a_nine_is_read_from_its_index(pipeline, table, angle) -> None:
    image, truths = fan(table, angle, 0.5)
    aces = [r for r in pipeline.read(image) if r.rank is not None]
    assert [(r.rank, r.suit) for r in aces] == [(1, "hearts")]
    # reported whole, where it lies under the 9
    assert quad_iou(aces[0].corners, truths[0].corners) > 0.6


def test_the_index_finder_marks_visible_indices_and_implies_their_cards() -> None:
    image, truths = fan("wood-dark", -8, 0.5)
    hits = find_indices(*net_input(image))
    ace = truths[0].corners
    # the Ace's top-left index is in sight; its bottom-right one lies under the 9
    near = [
        h
        for h in hits
        if np.linalg.norm(
            h.centre - (ace[0] + (ace[1] - ace[0]) * 0.125 + (ace[3] - ace[0]) * 0.15)
        )
        < 25
    ]
    assert near and max(quad_iou(h.quad, ace) for h in near) > 0.6


def hit_both_ways() -> tuple[IndexHit, IndexHit]:
    """A hit implying a 50x70 card at the origin, and the same turned by 90 degrees."""
    hit = IndexHit(
        np.array([[0, 0], [50, 0], [50, 70], [0, 70]], np.float32),
        np.array([6.0, 10.5], np.float32),
        0.9,
    )
    return hit, IndexHit(hit.quad @ np.array([[0, 1], [-1, 0]], np.float32), hit.centre, 0.9)


def test_a_hit_sized_to_another_card_keeps_its_index_and_its_turn() -> None:
    for original in hit_both_ways():
        sized = original.sized(60.0, 84.0)
        sides = np.linalg.norm(sized.quad[[1, 3]] - sized.quad[0], axis=1)
        assert np.allclose(sides, (60.0, 84.0), atol=1e-3)
        assert np.array_equal(sized.centre, original.centre)
        # the same directions: the patch's middle is still the index's middle
        for k in (1, 3):
            a, b = original.quad[k] - original.quad[0], sized.quad[k] - sized.quad[0]
            assert abs(float(a @ b) / np.linalg.norm(a) / np.linalg.norm(b) - 1) < 1e-6
        middle = sized.quad[0] + (sized.quad[1] - sized.quad[0]) * PATCH_WIDTH / 2
        middle = middle + (sized.quad[3] - sized.quad[0]) * PATCH_HEIGHT / 2
        assert np.allclose(middle, original.centre, atol=1e-3)


def test_a_moved_hit_implies_the_same_card_shifted_by_parts_of_its_index_patch() -> None:
    for original in hit_both_ways():
        right, down = original.quad[1] - original.quad[0], original.quad[3] - original.quad[0]
        moved = original.moved(0.5, -0.5)
        shift = 0.5 * PATCH_WIDTH * right - 0.5 * PATCH_HEIGHT * down
        assert np.allclose(moved.quad, original.quad + shift, atol=1e-4)
        assert np.allclose(moved.centre, original.centre + shift, atol=1e-4)
        assert moved.score == original.score


def test_the_second_look_finds_the_index_again_in_frame_pixels(monkeypatch) -> None:
    """The frame shrunk by SECOND_LOOKS: its hits are in the frame's pixels like the
    first look's, so the same index implies about the same card; inside a region too."""
    import companion.vision.corner_index as corner_index

    image, truths = fan("wood-dark", -8, 0.5)
    small, sx, sy = net_input(image)
    region = (96, 32, 320, 224)
    both = find_indices(small, sx, sy, region)
    monkeypatch.setattr(corner_index, "SECOND_LOOKS", ())
    first = find_indices(small, sx, sy, region)
    assert len(both) > len(first) > 0
    ace = truths[0].corners
    second = both[len(first) :]  # the first look's hits come first
    assert max(quad_iou(h.quad, ace) for h in second) > 0.6


@pytest.mark.parametrize("turns", [1, 2, 3])
def test_points_and_vectors_of_a_turned_picture_are_turned_back(turns) -> None:
    """`_turned_back` undoes np.rot90's clockwise turns: each pixel of a turned picture,
    taken back, lands where that pixel's value lay; vectors turn with the picture."""
    picture = np.arange(5 * 8).reshape(5, 8)
    turned = np.rot90(picture, -turns)
    ys, xs = np.nonzero(np.ones_like(turned))
    points = np.stack([xs, ys], axis=1).astype(float)
    east = np.tile([1.0, 0.0], (len(points), 1))
    back, right, _ = _turned_back(points, (east, east), turns, picture.shape)
    cols, rows = back[:, 0].astype(int), back[:, 1].astype(int)
    assert np.array_equal(picture[rows, cols], turned[ys, xs])
    # east in the turned picture: the step from a pixel to its right-hand neighbour there
    start, step = back[0], _turned_back(points[1:2], (east[:1], east[:1]), turns, picture.shape)[0]
    assert np.allclose(step[0] - start, right[0])


def test_the_turned_looks_find_the_index_where_the_frame_does(monkeypatch) -> None:
    """The index finder looks at the frame turned too (TURNED_LOOKS): each turned look's
    hits are in the frame's pixels, on the Ace's index, implying about the same card."""
    import companion.vision.corner_index as corner_index

    image, truths = fan("wood-dark", -8, 0.5)
    small, sx, sy = net_input(image)
    ace = truths[0].corners
    monkeypatch.setattr(corner_index, "SECOND_LOOKS", ())
    for turns in corner_index.TURNED_LOOKS:
        monkeypatch.setattr(corner_index, "TURNED_LOOKS", (turns,))
        hits = [h for h in find_indices(small, sx, sy) if h.turned]
        assert hits and max(quad_iou(h.quad, ace) for h in hits) > 0.6


def test_no_index_is_looked_for_on_a_table_read_in_full(pipeline, monkeypatch) -> None:
    import companion.vision.fusion as fusion

    image, _ = render_scene(
        SceneSpec(
            table="felt-green",
            cards=(CardSpec("playing-cards", 2, "clubs", "up", (400, 300), length=200),),
        )
    )
    monkeypatch.setattr(
        fusion, "find_indices", lambda *a: pytest.fail("index search on a table read in full")
    )
    assert [r.label for r in pipeline.read(image)] == ["2 of clubs"]


def test_the_close_look_finds_the_index_in_frame_pixels(monkeypatch) -> None:
    """The close look (CLOSE_LOOK) sees the frame itself, nearer than the card finder's
    picture: its hits are in the frame's pixels, on the Ace's index, implying about the
    same card; around a box of the card finder's picture only."""
    import companion.vision.corner_index as corner_index

    monkeypatch.setattr(corner_index, "TURNED_LOOKS", ())
    image, truths = fan("wood-dark", -8, 0.5)
    _, sx, sy = net_input(image)
    ace = truths[0].corners
    box = (150, 90, 220, 150)  # the card finder's picture around the fan
    hits = close_indices(image, sx, sy, box)
    assert hits and max(quad_iou(h.quad, ace) for h in hits) > 0.6
    x0, y0 = box[0] / sx - CLOSE_CONTEXT, box[1] / sy - CLOSE_CONTEXT
    assert all(h.centre[0] >= x0 and h.centre[1] >= y0 for h in hits)


def test_no_close_look_where_the_card_finder_sees_the_frame_near_its_own_size() -> None:
    """A small picture the card finder sees at about its own size gains nothing from a
    closer look (CLOSE_GAIN): none is taken."""
    image, _ = fan("wood-dark", -8, 0.5)
    small = np.ascontiguousarray(image[240:480, 380:740])
    _, sx, sy = net_input(small)
    assert max(sx, sy) * CLOSE_GAIN > 1.0
    assert close_indices(small, sx, sy, (0, 0, 64, 64)) == []
