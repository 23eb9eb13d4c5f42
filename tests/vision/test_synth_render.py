"""Rendered scenes: determinism, truth geometry, occlusion, variety."""

import numpy as np
import pytest

from companion.vision.synth import (
    TABLE_STYLES,
    CardSpec,
    DistractorSpec,
    HandSpec,
    SceneSpec,
    random_scene,
    render_scene,
)
from companion.vision.synth.spec import DISTRACTOR_KINDS


def _signed_area(q: np.ndarray) -> float:
    x, y = q[:, 0], q[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))


def test_same_seed_same_picture() -> None:
    spec = random_scene(np.random.default_rng(3), n_cards=6)
    a, ta = render_scene(spec)
    b, tb = render_scene(spec)
    assert np.array_equal(a, b)
    assert all(np.array_equal(x.corners, y.corners) for x, y in zip(ta, tb, strict=True))


def test_upright_card_truth_starts_top_left_clockwise() -> None:
    card = CardSpec("animals", 1, face="up", center=(320, 240), angle=0, length=140)
    spec = SceneSpec(size=(640, 480), cards=(card,), jpeg_quality=None, noise=0)
    image, (truth,) = render_scene(spec)
    assert image.shape == (480, 640, 3)
    c = truth.corners
    assert c[0, 0] < c[1, 0] and c[0, 1] < c[3, 1]  # top-left first, then top-right
    assert _signed_area(c) > 0  # clockwise with y down
    assert np.linalg.norm(c[0] - c[3]) == pytest.approx(140, abs=0.5)
    assert truth.center == pytest.approx((320, 240), abs=0.5)
    assert (truth.face, truth.rank, truth.suit, truth.label) == ("up", 1, None, "bear")
    assert truth.visible == pytest.approx(1.0, abs=0.02)


def test_upside_down_card_starts_at_its_own_top_left() -> None:
    card = CardSpec("animals", 2, face="up", center=(320, 240), angle=180, length=140)
    _, (truth,) = render_scene(SceneSpec(size=(640, 480), cards=(card,)))
    assert truth.corners[0, 0] > truth.corners[1, 0]  # its top-left is at the image's bottom-right
    assert truth.corners[0, 1] > 240


def test_tilt_keeps_centre_and_clockwise_order() -> None:
    card = CardSpec("playing-cards", 3, "hearts", "up", center=(900, 200), angle=37, length=120)
    spec = SceneSpec(cards=(card,), tilt=35, tilt_direction=-90)
    _, (truth,) = render_scene(spec)
    assert truth.center == pytest.approx((900, 200), abs=3)
    assert _signed_area(truth.corners) > 0
    assert truth.label == "3 of hearts"


def test_hand_and_neighbour_reduce_visible_fraction() -> None:
    under = CardSpec("animals", 1, face="down", center=(300, 300), length=150)
    over = CardSpec("animals", 2, face="down", center=(360, 300), length=150)
    hidden = CardSpec("animals", 3, face="up", center=(900, 300), length=150)
    hand = HandSpec(tip=(900, 280), angle=-90, width=160)
    _, truths = render_scene(SceneSpec(cards=(under, over, hidden), hand=hand))
    assert 0.3 < truths[0].visible < 0.8
    assert truths[1].visible > 0.97
    assert truths[2].visible < 0.6


def test_labels_of_backs_and_non_game_cards() -> None:
    cards = (
        CardSpec("playing-cards", 12, "spades", "up", center=(200, 200)),
        CardSpec("playing-cards", 1, "spades", "down", center=(600, 200), back="blue"),
    )
    _, truths = render_scene(SceneSpec(cards=cards))
    assert [(t.rank, t.suit, t.label) for t in truths] == [
        (None, None, "other"),
        (None, None, "back"),
    ]


def test_random_scenes_vary_and_fit_the_picture() -> None:
    rng = np.random.default_rng(11)
    tables = set()
    for _ in range(6):
        spec = random_scene(rng, n_cards=15)
        tables.add(spec.table)
        image, truths = render_scene(spec)
        assert image.shape == (720, 1280, 3)
        assert 0 < len(truths) <= 15
        for t in truths:
            assert (t.corners[:, 0] > -1).all() and (t.corners[:, 0] < 1281).all()
            assert (t.corners[:, 1] > -1).all() and (t.corners[:, 1] < 721).all()
    assert len(tables) >= 3


def test_every_table_style_renders() -> None:
    for style in TABLE_STYLES:
        image, _ = render_scene(SceneSpec(size=(320, 200), table=style))
        assert image.std() > 0.5


def test_bad_requests_are_explained() -> None:
    with pytest.raises(ValueError, match="table style"):
        render_scene(SceneSpec(table="glass"))
    with pytest.raises(ValueError, match="deck must be"):
        random_scene(np.random.default_rng(0), deck="tarot")  # type: ignore[arg-type]


def test_seats_layout_lays_rows_facing_players() -> None:
    spec = random_scene(np.random.default_rng(5), n_cards=12, layout="seats", max_tilt=0)
    assert len(spec.cards) == 12
    angles = {round(c.angle / 90) % 4 for c in spec.cards}
    assert len(angles) >= 2  # players on several sides: some cards turned to them
    with pytest.raises(ValueError, match="layout must be"):
        random_scene(np.random.default_rng(0), layout="fan")  # type: ignore[arg-type]


def test_rows_layout_lays_each_rows_cards_touching_or_overlapping() -> None:
    """As "seats", but neighbours in a row are 0.5 to 0.72 card lengths apart, centre to
    centre: touching (a card is 0.714 of its length wide) or overlapping by up to 30% of
    a card's width, where "seats" lays them 0.7 to 0.95 apart; "seats" keeps its draws
    (the benchmark's scenes must not move)."""

    def nearest_neighbours(layout: str) -> float:
        """The mean distance of a card to its nearest neighbour, in card lengths."""
        spec = random_scene(np.random.default_rng(5), n_cards=12, layout=layout, max_tilt=0)
        assert len(spec.cards) == 12
        centres = np.array([card.center for card in spec.cards])
        return float(
            np.mean(
                [
                    np.linalg.norm(np.delete(centres, k, axis=0) - centres[k], axis=1).min()
                    / card.length
                    for k, card in enumerate(spec.cards)
                ]
            )
        )

    assert nearest_neighbours("rows") < 0.6 < 0.68 < nearest_neighbours("seats")
    seats = random_scene(np.random.default_rng(5), n_cards=12, layout="seats", max_tilt=0)
    assert seats.cards[0].center == pytest.approx((582.15, 572.60), abs=0.01)  # as before "rows"


def test_designed_backs_give_a_scene_deck_a_back_design_of_its_own() -> None:
    """At 0 the draws are as before (the benchmark's scenes must not move); at 1 every
    card of the scene shares one procedural back design."""
    plain = random_scene(np.random.default_rng(9), 6, "playing-cards")
    assert random_scene(np.random.default_rng(9), 6, "playing-cards", designed_backs=0.0) == plain
    designed = random_scene(np.random.default_rng(9), 6, "animals", designed_backs=1.0)
    backs = {card.back for card in designed.cards}
    assert len(backs) == 1 and str(backs.pop()).startswith("design-")
    image, _ = render_scene(designed)
    assert image.shape == (720, 1280, 3)


def test_one_deck_never_lays_a_playing_card_twice() -> None:
    """A game's table holds one playing deck: with `one_deck` no card repeats, in any
    layout; a repeat is drawn anew, so a table that drew none is the same table either
    way, and an animal deck (a set per player) is not touched."""

    def cards(spec: SceneSpec) -> list[tuple[int, str | None]]:
        return [(card.rank, card.suit) for card in spec.cards]

    repeats = 0
    for seed in range(40):
        for layout in ("scatter", "rows", "pile"):
            drawn = random_scene(np.random.default_rng(seed), 15, "playing-cards", layout=layout)
            one = random_scene(
                np.random.default_rng(seed), 15, "playing-cards", layout=layout, one_deck=True
            )
            assert len(set(cards(one))) == len(cards(one))
            if len(set(cards(drawn))) == len(cards(drawn)):
                assert one == drawn
            else:
                repeats += 1
    assert repeats > 0  # the draw without one deck does repeat cards
    game = random_scene(
        np.random.default_rng(3), 15, "playing-cards", game_ranks_only=True, one_deck=True
    )
    assert len(set(cards(game))) == len(game.cards) and {r for r, _ in cards(game)} <= {
        1,
        2,
        3,
        4,
        5,
    }
    animals = random_scene(np.random.default_rng(3), 15, "animals")
    assert random_scene(np.random.default_rng(3), 15, "animals", one_deck=True) == animals
    with pytest.raises(ValueError, match="one deck holds 20 such cards; 21 were asked for"):
        random_scene(
            np.random.default_rng(0),
            21,
            "playing-cards",
            layout="scatter",
            game_ranks_only=True,
            one_deck=True,
        )


def test_pile_layout_heaps_big_cards_that_cover_each_other() -> None:
    rng = np.random.default_rng(2)
    spec = random_scene(rng, 4, "playing-cards", layout="pile", length_range=(300, 500))
    assert 2 <= len(spec.cards) <= 4
    assert all(c.length >= 0.9 * 300 for c in spec.cards)
    _, truths = render_scene(spec)
    assert truths[-1].visible == pytest.approx(1.0, abs=0.02)  # the top card
    assert min(t.visible for t in truths) < 0.8  # the ones under it are partly hidden


def test_things_on_the_table_hide_cards_but_are_not_cards() -> None:
    card = CardSpec("animals", 5, face="up", center=(640, 360), length=160)
    phone = DistractorSpec("phone", (640, 400), 200, 30)
    others = tuple(
        DistractorSpec(kind, (150 + 200 * i, 600), 80) for i, kind in enumerate(DISTRACTOR_KINDS)
    )
    _, truths = render_scene(SceneSpec(cards=(card,), distractors=(phone, *others), tilt=30))
    assert len(truths) == 1
    assert 0.2 < truths[0].visible < 0.8
    with pytest.raises(ValueError, match="distractor kind"):
        render_scene(SceneSpec(distractors=(DistractorSpec("cup", (10, 10), 20),)))  # type: ignore[arg-type]


def test_lens_bends_truth_corners_like_a_zoomed_barrel() -> None:
    cards = (
        CardSpec("animals", 1, face="up", center=(640, 360), length=150),
        CardSpec("animals", 2, face="up", center=(150, 150), length=150),
    )
    _, flat = render_scene(SceneSpec(cards=cards))
    _, bent = render_scene(SceneSpec(cards=cards, lens=0.12))
    assert bent[0].center == pytest.approx(flat[0].center, abs=1.0)
    centre = np.array([640.0, 360.0])
    r_flat = np.linalg.norm(flat[1].corners[0] - centre)
    r_bent = np.linalg.norm(bent[1].corners[0] - centre)
    assert r_flat + 3 < r_bent < 1.12 * r_flat  # magnified, less at the rim than the zoom
    assert bent[1].visible == pytest.approx(1.0, abs=0.02)


def test_a_card_being_flipped_narrows_then_shows_its_other_side() -> None:
    def at(turn: float):
        card = CardSpec("animals", 4, face="down", center=(320, 240), length=140, turn=turn)
        return render_scene(SceneSpec(size=(640, 480), cards=(card,)))[1][0]

    flat, quarter, three_quarters = at(0.0), at(0.25), at(0.75)
    top_flat = np.linalg.norm(flat.corners[1] - flat.corners[0])
    top_quarter = np.linalg.norm(quarter.corners[1] - quarter.corners[0])
    assert top_quarter == pytest.approx(top_flat * 0.707, rel=0.02)
    assert (quarter.face, quarter.label) == ("down", "back")
    assert (three_quarters.face, three_quarters.label) == ("up", "owl")
