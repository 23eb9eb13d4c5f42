"""Quads, rotation and perspective: the corner order the finder and the reader share."""

from __future__ import annotations

import itertools

import cv2
import numpy as np
import pytest

from companion.vision.geometry import (
    CARD_ASPECT,
    as_quad,
    axis_turn,
    card_cut,
    card_shaped,
    cards_across,
    cards_from_ends,
    corner_skew,
    even_sides,
    facing_side,
    fanned_ends,
    fanned_three,
    grown_sides,
    halves,
    hull_quad,
    index_points,
    is_convex,
    near_corners,
    nearest_card,
    opposite_side_angle,
    order_clockwise,
    points_in_any,
    points_in_quad,
    quad_area,
    quad_areas,
    quad_aspect,
    quad_center,
    quad_cover,
    quad_extent,
    quad_iou,
    quad_long_side,
    quad_long_sides,
    quad_part,
    rectify,
    scaled_about_centre,
    shorter_than_nearest,
    side_by_side,
    side_moved,
    whole_card_aspects,
    wider_than_nearest,
)

UPRIGHT = np.array([[10, 20], [60, 20], [60, 90], [10, 90]], dtype=np.float32)


def rotated_card(angle_deg: float, centre=(200.0, 150.0), size=(50.0, 70.0)) -> np.ndarray:
    box = cv2.boxPoints((centre, size, angle_deg))
    return np.asarray(box, dtype=np.float32)


def is_clockwise_on_screen(quad: np.ndarray) -> bool:
    q = quad.astype(np.float64)
    signed = np.dot(q[:, 0], np.roll(q[:, 1], -1)) - np.dot(q[:, 1], np.roll(q[:, 0], -1))
    return signed > 0  # y grows downwards, so a positive shoelace sum is clockwise


def test_upright_card_starts_top_left():
    shuffled = UPRIGHT[[2, 0, 3, 1]]
    assert np.allclose(order_clockwise(shuffled), UPRIGHT)


@pytest.mark.parametrize("angle", [0, 17, 45, 90, 123, 180, 260, 330])
def test_any_rotation_gives_clockwise_short_first(angle):
    quad = order_clockwise(rotated_card(angle)[::-1])
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    assert is_clockwise_on_screen(quad)
    assert sides[0] < sides[1]
    assert np.isclose(sides[0], 50, atol=0.01) and np.isclose(sides[1], 70, atol=0.01)


def test_landscape_card_still_rectifies_to_portrait():
    image = np.zeros((300, 400, 3), np.uint8)
    quad = rotated_card(90, size=(50, 70))  # lies sideways on screen
    cv2.fillConvexPoly(image, quad.astype(np.int32), (255, 255, 255))
    card = rectify(image, order_clockwise(quad), (50, 70))
    assert card.shape == (70, 50, 3)
    assert card[5:-5, 5:-5].min() > 200


def test_rectify_undoes_perspective():
    card = np.zeros((140, 100, 3), np.uint8)
    card[:, :] = (40, 40, 200)
    card[10:30, 10:30] = (255, 255, 255)  # a mark in the top-left corner
    seen = np.array([[300, 100], [400, 110], [420, 260], [280, 250]], dtype=np.float32)
    src = np.array([[0, 0], [99, 0], [99, 139], [0, 139]], dtype=np.float32)
    image = cv2.warpPerspective(card, cv2.getPerspectiveTransform(src, seen), (640, 480))
    back = rectify(image, order_clockwise(seen), (100, 140))
    assert back[15:25, 15:25].mean() > 230
    assert abs(float(back[60:100, 40:80, 2].mean()) - 200) < 5


def test_rectify_rejects_bad_size_and_corners():
    image = np.zeros((50, 50, 3), np.uint8)
    with pytest.raises(ValueError, match="positive"):
        rectify(image, UPRIGHT, (0, 10))
    with pytest.raises(ValueError, match=r"\(4, 2\)"):
        rectify(image, UPRIGHT[:3])
    with pytest.raises(ValueError, match="finite"):
        as_quad([[0, 0], [1, 0], [1, np.nan], [0, 1]])


def test_area_aspect_centre_and_length():
    assert quad_area(UPRIGHT) == pytest.approx(50 * 70)
    assert quad_aspect(UPRIGHT) == pytest.approx(1.4)
    assert quad_long_side(UPRIGHT) == pytest.approx(70)
    assert quad_center(UPRIGHT) == pytest.approx((35, 55))
    assert is_convex(UPRIGHT)
    assert not is_convex(UPRIGHT[[0, 2, 1, 3]])


def test_quads_scaled_about_their_centres_one_or_many():
    grown = scaled_about_centre(UPRIGHT, 1.2)
    assert quad_center(grown) == pytest.approx(quad_center(UPRIGHT))
    assert quad_area(grown) == pytest.approx(1.44 * quad_area(UPRIGHT))
    both = scaled_about_centre(np.stack([UPRIGHT, UPRIGHT + np.float32([100, 0])]), 1.2)
    assert both.dtype == np.float32 and both.shape == (2, 4, 2)
    assert np.allclose(both[1], grown + np.float32([100, 0]))


def test_iou():
    assert quad_iou(UPRIGHT, UPRIGHT[::-1]) == pytest.approx(1.0)
    shifted = UPRIGHT + np.float32([25, 0])
    assert quad_iou(UPRIGHT, shifted) == pytest.approx(25 * 70 / (75 * 70), rel=1e-3)
    assert quad_iou(UPRIGHT, UPRIGHT + np.float32([500, 0])) == 0.0


def test_points_in_quad_count_its_outline_and_either_winding():
    points = np.float32([[25, 35], UPRIGHT[0], [-1, 35], [25, 91]])
    assert points_in_quad(points, UPRIGHT).tolist() == [True, True, False, False]
    assert points_in_quad(points, UPRIGHT[::-1]).tolist() == [True, True, False, False]


def test_points_in_any_quad():
    points = np.float32([[25, 35], [125, 35], [-1, 35]])
    beside = UPRIGHT + np.float32([100, 0])
    assert points_in_any(points, [UPRIGHT, beside]).tolist() == [True, True, False]
    assert points_in_any(points, []).tolist() == [False, False, False]
    assert points_in_any(points[0], [UPRIGHT]).tolist() == [True]  # one point


def test_side_moved_moves_one_side_towards_or_away_from_the_opposite_one():
    # UPRIGHT: top side y=20 (corners 0, 1), bottom y=90; right side x=60 (corners 1, 2)
    down = side_moved(UPRIGHT, 0, 0.1)
    assert np.allclose(down, [[10, 27], [60, 27], [60, 90], [10, 90]])
    assert np.allclose(side_moved(UPRIGHT, 1, 0.2), [[10, 20], [50, 20], [50, 90], [10, 90]])
    assert np.allclose(side_moved(UPRIGHT, 3, -0.1), [[5, 20], [60, 20], [60, 90], [5, 90]])
    # a turned card: the moved side keeps its direction, the card its other three sides
    card = rotated_card(30.0)
    moved = side_moved(card, 2, 0.06)
    assert np.allclose(moved[[0, 1]], card[[0, 1]])
    assert np.allclose(moved[3] - moved[2], card[3] - card[2], atol=1e-4)
    assert quad_area(moved) == pytest.approx(0.94 * quad_area(card), rel=1e-4)


def test_halves_cut_a_quad_across_its_long_sides():
    # two 50x70 cards side by side, touching along a long side: one 100x70 quad
    pair = np.float32([[10, 20], [110, 20], [110, 90], [10, 90]])
    left, right = sorted(halves(pair), key=lambda half: half[:, 0].mean())
    for half, x in ((left, 10), (right, 60)):
        want = np.float32([[x, 20], [x + 50, 20], [x + 50, 90], [x, 90]])
        assert np.allclose(order_clockwise(half), order_clockwise(want))
    # turned, and given in any corner order: two 5:7 halves that tile the quad
    turned = rotated_card(30.0, size=(100.0, 70.0))
    for half in halves(turned[::-1]):
        assert quad_area(half) == pytest.approx(quad_area(turned) / 2, rel=1e-4)
        assert quad_cover(half, turned) == pytest.approx(1.0, abs=1e-3)
        assert quad_aspect(half) == pytest.approx(1.4, rel=1e-3)
    assert quad_iou(*halves(turned)) == 0.0


def test_quad_cover_is_the_share_of_the_first_quad_inside_the_second():
    half_over = UPRIGHT + np.float32([25, 0])  # the right half of UPRIGHT and as much outside
    assert quad_cover(UPRIGHT, half_over) == pytest.approx(0.5)
    inner = np.float32([[20, 30], [40, 30], [40, 50], [20, 50]])
    assert quad_cover(inner, UPRIGHT) == pytest.approx(1.0)
    assert quad_cover(UPRIGHT, inner) == pytest.approx(400 / 3500)
    assert quad_cover(UPRIGHT, UPRIGHT + np.float32([100, 0])) == 0.0


def test_card_shaped_grows_a_fragment_past_each_side_to_a_cards_aspect():
    # the top 50x50 of a 50x70 card (UPRIGHT is that card): grown past its bottom side
    top = np.float32([[10, 20], [60, 20], [60, 70], [10, 70]])
    grown = card_shaped(top)
    assert len(grown) == 4  # past each side: the card may go on past any of them
    assert any(np.allclose(quad, UPRIGHT) for quad in grown)
    for quad in grown:
        assert quad_aspect(quad) == pytest.approx(CARD_ASPECT, rel=1e-4)
        assert quad_cover(top, quad) == pytest.approx(1.0, abs=1e-4)
    # a whole card needs no growing along its length; only a card lying the other way
    # (its short side seen as the long one) would go on past its long sides
    turned = card_shaped(rotated_card(30.0))
    assert len(turned) == 2
    assert all(quad_long_side(q) == pytest.approx(70 * CARD_ASPECT, rel=1e-4) for q in turned)
    # a side that moves less than `least` of its distance is not tried
    almost = np.float32([[10, 20], [60, 20], [60, 86], [10, 86]])  # 66 of 70 long
    assert not any(quad_long_side(q) == pytest.approx(70) for q in card_shaped(almost))


def test_card_cut_finds_a_card_outlined_with_part_of_its_neighbour():
    # a 50x70 card with 25 px of the card beside it (touching along a long side): 75x70
    wide = np.float32([[10, 20], [85, 20], [85, 90], [10, 90]])
    cuts = card_cut(wide)
    # the card at either end, lying along the quad, and a card lying across it
    for x in (10, 35):
        card = np.float32([[x, 20], [x + 50, 20], [x + 50, 90], [x, 90]])
        assert any(quad_iou(cut, card) > 0.999 for cut in cuts)
    for cut in cuts:
        assert quad_aspect(cut) == pytest.approx(CARD_ASPECT, rel=1e-4)
        assert quad_cover(cut, wide) == pytest.approx(1.0, abs=1e-4)
    # turned, the same cuts turned
    turn = cv2.getRotationMatrix2D((50.0, 50.0), 35.0, 1.0)
    turned_cuts = card_cut(cv2.transform(wide[None], turn)[0])
    assert len(turned_cuts) == len(cuts)
    # a card's own quad has only its halves (the card lying across it): what keeps less
    # than `most` or cuts off less than `least` is no cut
    halves_only = card_cut(UPRIGHT)
    assert len(halves_only) == 2
    assert all(quad_area(q) == pytest.approx(quad_area(UPRIGHT) / 2, rel=0.05) for q in halves_only)
    assert card_cut(UPRIGHT, most=0.45) == []
    # a card outlined 3 px wide of it: cutting 3 of 53 px is less than `least`
    assert not any(
        quad_iou(cut, UPRIGHT) > 0.9
        for cut in card_cut(np.float32([[10, 20], [63, 20], [63, 90], [10, 90]]))
    )


def test_a_row_of_three_cards_is_cut_in_three_and_counted_three_wide():
    # three 50x70 cards side by side, touching along their long sides: one 150x70 quad
    row = rotated_card(75.0, size=(150.0, 70.0))
    assert cards_across(row) == 3
    parts = side_by_side(row[::-1], 3)
    assert len(parts) == 3
    for part in parts:
        assert quad_area(part) == pytest.approx(quad_area(row) / 3, rel=1e-4)
        assert quad_aspect(part) == pytest.approx(1.4, rel=1e-3)
    # they tile the row: each part's far side is the next one's near side
    for part, after in itertools.pairwise(parts):
        assert np.allclose(part[[3, 2]], after[[0, 1]])
    centres = [part.mean(axis=0) for part in parts]  # in order along the row
    assert np.allclose(centres[1], row.mean(axis=0), atol=1e-3)
    assert np.linalg.norm(centres[2] - centres[0]) == pytest.approx(100.0, rel=1e-4)
    # two cards, and one card's own quad (its halves are card-shaped too), count 2
    assert cards_across(rotated_card(75.0, size=(100.0, 70.0))) == 2
    assert cards_across(rotated_card(75.0, size=(50.0, 70.0))) == 2
    # halves are the cut in two
    for half, part in zip(halves(row), side_by_side(row, 2), strict=True):
        assert np.array_equal(half, part)


def test_fanned_ends_are_two_overlapping_cards_lying_across_a_quad():
    # two 50x70 cards side by side, the second over the first by 20 px: one 80x70 quad
    pair = np.float32([[10, 20], [90, 20], [90, 90], [10, 90]])
    ends = fanned_ends(pair)
    assert ends is not None
    left, right = sorted(ends, key=lambda end: end[:, 0].mean())
    for end, x in ((left, 10), (right, 40)):
        want = np.float32([[x, 20], [x + 50, 20], [x + 50, 90], [x, 90]])
        assert np.allclose(order_clockwise(end), order_clockwise(want), atol=1e-4)
    # touching, they are the halves; apart, there are no such ends
    touching = np.float32([[10, 20], [110, 20], [110, 90], [10, 90]])
    for end, half in zip(fanned_ends(touching), halves(touching), strict=True):
        assert np.allclose(order_clockwise(end), order_clockwise(half), atol=1e-4)
    assert fanned_ends(np.float32([[10, 20], [130, 20], [130, 90], [10, 90]])) is None


def test_fanned_three_are_three_overlapping_cards_lying_across_a_quad():
    # three 50x70 cards side by side, each over the one before by 10 px: one 130x70 quad
    row = np.float32([[10, 20], [140, 20], [140, 90], [10, 90]])
    three = fanned_three(row)
    assert three is not None
    for part, x in zip(sorted(three, key=lambda p: p[:, 0].mean()), (10, 50, 90), strict=True):
        want = np.float32([[x, 20], [x + 50, 20], [x + 50, 90], [x, 90]])
        assert np.allclose(order_clockwise(part), order_clockwise(want), atol=1e-4)
    # touching, they are the thirds; two cards' width (or less) is `fanned_ends`' quad;
    # past three cards' width, three would leave gaps
    touching = np.float32([[10, 20], [160, 20], [160, 90], [10, 90]])
    parts = fanned_three(touching)
    assert parts is not None
    for part, third in zip(parts, side_by_side(touching, 3), strict=True):
        assert np.allclose(order_clockwise(part), order_clockwise(third), atol=1e-4)
    assert fanned_three(np.float32([[10, 20], [110, 20], [110, 90], [10, 90]])) is None
    assert fanned_three(np.float32([[10, 20], [190, 20], [190, 90], [10, 90]])) is None


def test_near_corners_measures_in_the_cards_own_plane() -> None:
    """A card 100 x 140 turned by 90 degrees (its long side along x): the corners' index
    regions, not the middle nor the middle of a side; empty input gives an empty answer."""
    card = np.array([[0, 0], [140, 0], [140, 100], [0, 100]], np.float32)
    points = np.array([[10, 10], [130, 90], [70, 50], [70, 10], [10, 50]], np.float32)
    assert near_corners(points, card, 0.3, 0.35).tolist() == [True, True, False, False, False]
    assert near_corners(np.zeros((0, 2)), card, 0.3, 0.35).shape == (0,)


def test_quad_extent_averages_opposite_sides() -> None:
    quad = np.array([[0, 0], [100, 0], [110, 140], [-10, 140]], np.float32)  # a trapezoid
    across, along = quad_extent(quad)
    assert across == pytest.approx(110.0)  # sides 0 and 2: 100 and 120
    assert along == pytest.approx(float(np.hypot(10, 140)))


def test_a_quad_is_measured_against_the_nearest_card() -> None:
    """A quad over a card and part of its neighbour is as wide as 1.4 of the cards read
    near it; a card far off, read at another size, does not count."""
    near = rotated_card(0, centre=(100.0, 100.0))  # 50 by 70
    far = rotated_card(0, centre=(900.0, 100.0), size=(100.0, 140.0))
    wide = rotated_card(0, centre=(180.0, 100.0), size=(75.0, 70.0))
    assert nearest_card(wide, [far, near]) is near
    assert wider_than_nearest(wide, [far, near], 1.35)  # its short side 70 against 50
    assert not wider_than_nearest(wide, [far, near], 1.5)
    assert not wider_than_nearest(wide, [far], 1.35)
    assert nearest_card(wide, []) is None and not wider_than_nearest(wide, [], 1.35)


def test_a_quad_much_shorter_than_the_nearest_card_is_part_of_one() -> None:
    """One deck's cards lie at one size: a quad whose long side is under 0.6 of the
    nearest card's covers part of a card; a card far off, read at another size, does not
    count."""
    near = rotated_card(0, centre=(100.0, 100.0))  # 50 by 70
    far = rotated_card(0, centre=(900.0, 100.0), size=(20.0, 28.0))
    part = rotated_card(30, centre=(160.0, 100.0), size=(30.0, 40.0))
    assert shorter_than_nearest(part, [far, near], 0.6)  # 40 against 70
    assert not shorter_than_nearest(part, [far, near], 0.5)
    assert not shorter_than_nearest(part, [far], 0.6)
    assert not shorter_than_nearest(part, [], 0.6)


def test_index_points_lie_in_from_both_index_corners() -> None:
    card = np.array([[0, 0], [100, 0], [100, 140], [0, 140]], np.float32)
    points = index_points(card, 0.1, 0.2)
    assert np.allclose(points, [[10, 28], [90, 112]])
    turned = np.roll(card, -2, axis=0)  # the same card upside down: the same two points
    assert np.allclose(index_points(turned, 0.1, 0.2), points[::-1])


def test_even_sides_bounds_each_side_by_the_one_opposite() -> None:
    card = np.float32([[0, 0], [100, 0], [100, 140], [0, 140]])
    tilted = np.float32([[10, 0], [90, 0], [100, 140], [0, 140]])  # far side 0.8 of near
    sliver = np.float32([[0, 0], [0, 17], [4, 92], [-84, 69]])
    assert even_sides(np.stack([card, tilted, sliver]), 1.6).tolist() == [True, True, False]
    assert even_sides(tilted[None], 1.1).tolist() == [False]


def test_hull_quad_finds_the_corners_of_a_slanted_blob() -> None:
    # a card seen steeply and turned: a parallelogram, rasterised as a net's blob would be
    corners = np.float32([[60, 20], [122, 57], [126, 134], [62, 98]])
    mask = np.zeros((160, 180), np.uint8)
    cv2.fillConvexPoly(mask, np.round(corners).astype(np.int32), 1)
    outlines, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    fitted = hull_quad(np.concatenate(outlines))
    assert fitted is not None and len(fitted) == 4
    # each true corner has a fitted corner within a pixel and a half
    for corner in corners:
        assert np.linalg.norm(fitted - corner, axis=1).min() <= 1.5
    # its rectangle would not do: a quarter of it lies outside the card
    _, (w, h), _ = cv2.minAreaRect(np.concatenate(outlines))
    assert cv2.contourArea(corners) < 0.8 * w * h
    assert corner_skew(fitted) > 25
    assert hull_quad(np.float32([[0, 0], [10, 0], [5, 8]])) is None  # a triangle has no four


def test_corner_skew_is_zero_for_a_rectangle_and_grows_with_the_slant() -> None:
    assert corner_skew(np.float32([[0, 0], [40, 0], [40, 56], [0, 56]])) == pytest.approx(
        0, abs=1e-6
    )
    slanted = np.float32([[0, 0], [40, 0], [40 + 56, 56], [56, 56]])  # sheared by 45 degrees
    assert corner_skew(slanted) == pytest.approx(45, abs=1e-4)


def test_opposite_side_angle_is_zero_for_a_parallelogram_and_large_for_a_joint() -> None:
    slanted = np.float32([[0, 0], [40, 0], [96, 56], [56, 56]])
    assert opposite_side_angle(slanted) == pytest.approx(0, abs=1e-4)
    joint = np.float32([[0, 0], [60, 0], [40, 40], [10, 60]])  # two cards' joint outline
    assert opposite_side_angle(joint) > 30


def test_quad_part_spans_fractions_of_the_quad_along_its_sides() -> None:
    quad = np.float32([[0, 0], [100, 0], [100, 140], [0, 140]])
    part = quad_part(quad, (0.5, 0.25, 1.0, 1.0))
    np.testing.assert_allclose(part, [[50, 35], [100, 35], [100, 140], [50, 140]])
    np.testing.assert_allclose(quad_part(quad, (0.0, 0.0, 1.0, 1.0)), quad)
    # a trapezium (a card under a tilt): the sides are interpolated, not a parallelogram's
    tilted = np.float32([[10, 0], [90, 0], [100, 140], [0, 140]])
    np.testing.assert_allclose(quad_part(tilted, (0.0, 0.5, 1.0, 1.0))[0], [5, 70])


def test_facing_side_is_the_side_nearest_the_other_quad() -> None:
    quad = np.float32([[0, 0], [100, 0], [100, 140], [0, 140]])
    right = quad + np.float32([150, 0])
    below = quad + np.float32([0, 200])
    assert facing_side(quad, right) == 1
    assert facing_side(quad, below) == 2
    assert facing_side(right, quad) == 3


def test_quad_areas_and_long_sides_measure_many_quads_as_one_at_a_time() -> None:
    rng = np.random.default_rng(7)
    quads = np.stack(
        [order_clockwise(rng.uniform(0, 400, (4, 2)).astype(np.float32)) for _ in range(20)]
    )
    np.testing.assert_allclose(quad_areas(quads), [quad_area(q) for q in quads], rtol=1e-4)
    np.testing.assert_allclose(
        quad_long_sides(quads), [quad_long_side(q) for q in quads], rtol=1e-5
    )


def test_cards_from_ends_lie_at_the_ends_of_a_quad_in_a_cards_size_and_turn() -> None:
    card = np.float32([[0, 0], [50, 0], [50, 70], [0, 70]])
    # a band 50 wide and 30 high, 100 px on: a card's middle between two neighbours
    band = np.float32([[100, 20], [150, 20], [150, 50], [100, 50]])
    ends = cards_from_ends(band, card)
    assert len(ends) == 4
    for end in ends:
        np.testing.assert_allclose(quad_extent(end), (50, 70), atol=1e-4)
    # from the band's top down and from its bottom up; across it, both ways the same
    np.testing.assert_allclose(ends[0], card + np.float32([100, 20]), atol=1e-4)
    np.testing.assert_allclose(ends[1], card + np.float32([100, -20]), atol=1e-4)
    np.testing.assert_allclose(ends[2], card + np.float32([100, 0]), atol=1e-4)
    np.testing.assert_allclose(ends[3], card + np.float32([100, 0]), atol=1e-4)
    # a card turned a quarter: the quads turn with it, and keep its corners' order
    turned = np.roll(card[:, ::-1], 1, axis=0)
    for end in cards_from_ends(band, turned):
        np.testing.assert_allclose(quad_extent(end), quad_extent(turned), atol=1e-4)
    assert cards_from_ends(band, np.zeros((4, 2), np.float32)) == []


def test_axis_turn_is_the_angle_to_the_nearer_axis() -> None:
    card = np.float32([[0, 0], [50, 0], [50, 70], [0, 70]])
    centre = card.mean(axis=0)
    for degrees in (0.0, 10.0, 30.0, 90.0, 100.0):
        turn = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), degrees, 1.0)
        quad = (card @ turn[:, :2].T + turn[:, 2]).astype(np.float32)
        expected = min(degrees % 90, 90 - degrees % 90)
        assert axis_turn(quad, card) == pytest.approx(expected, abs=1e-3)
    # a quad whose side 0 runs along the card's length lies turned alike
    assert axis_turn(np.roll(card, 1, axis=0), card) == pytest.approx(0.0, abs=1e-6)


def test_grown_sides_moves_every_side_out_alike() -> None:
    grown = grown_sides(UPRIGHT, 5.0)  # 50 x 70 -> 60 x 80, on the same centre
    assert quad_center(grown) == pytest.approx(quad_center(UPRIGHT))
    assert sorted(quad_extent(grown)) == pytest.approx([60.0, 80.0])
    turned = grown_sides(rotated_card(30.0), 5.0)
    assert sorted(quad_extent(turned)) == pytest.approx([60.0, 80.0], abs=1e-3)
    assert quad_iou(turned, rotated_card(30.0, size=(60.0, 80.0))) > 0.99
    flat = np.float32([[10, 20], [10, 20], [60, 20], [60, 20]])  # no axes to grow along
    assert np.isfinite(grown_sides(flat, 5.0)).all()


def test_whole_card_aspects() -> None:
    quads = np.stack(
        [
            UPRIGHT,  # 1.4
            rotated_card(20.0, size=(60.0, 70.0)),  # 1.17: seen steeply
            rotated_card(0.0, size=(36.0, 80.0)),  # part of a card
            rotated_card(0.0, size=(70.0, 70.0)),
            np.zeros((4, 2), np.float32),  # no size at all
        ]
    )
    assert whole_card_aspects(quads).tolist() == [True, True, False, False, False]
