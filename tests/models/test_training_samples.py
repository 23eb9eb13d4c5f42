"""Training samples built from what the card finders really return (no torch needed)."""

from types import SimpleNamespace

import numpy as np

from companion.vision.corner_index import IndexHit
from companion.vision.features import CORNER_SIZE, READ_SIZE
from models.train.card_samples import (
    BACK_CLASS,
    FRAGMENT_IOU,
    NO_CARD,
    NO_SUIT,
    NONE_CLASS,
    _hit_label,
    _under,
    designed_back_art,
    found_animal_views,
    found_cards,
    index_hit_views,
    plain_thing_art,
    scene_cards,
    square_thing,
    synthetic_cards,
)


def test_found_cards_are_labelled_like_the_cards_under_them() -> None:
    cards, ranks, suits = found_cards(6, seed=123)
    width, height = READ_SIZE
    assert cards.shape[1:] == (height, width, 3) and len(cards) == len(ranks) == len(suits)
    assert len(cards) > 30
    assert set(ranks.tolist()) <= set(range(15))
    # backs and non-cards carry no suit; faces 1..13 always do
    no_suit = np.isin(ranks, (BACK_CLASS, NONE_CLASS))
    assert (suits[no_suit] == NO_SUIT).all() and (suits[~no_suit] >= 0).all()
    assert (ranks == BACK_CLASS).any() and (ranks < BACK_CLASS).any()


def test_single_designed_backs_are_backs_of_many_designs() -> None:
    cards, ranks, suits = synthetic_cards(6, seed=3, art_of=designed_back_art)
    assert (ranks == BACK_CLASS).all() and (suits == NO_SUIT).all()
    assert len({float(card.mean()) for card in cards}) == 6


def test_plain_things_fill_a_card_picture_as_no_card() -> None:
    rng = np.random.default_rng(4)
    for _ in range(5):
        art, rank, suit = plain_thing_art(rng)
        assert art.shape == (350, 250, 3) and (rank, suit) == (NONE_CLASS, NO_SUIT)
        assert art.reshape(-1, 3).std(axis=0).sum() > 10  # a thing drawn, not a blank


def test_scene_cards_of_designed_backs_hold_backs_and_faces() -> None:
    _, ranks, _ = scene_cards(2, seed=12, designed_backs=1.0, face_up_rate=0.4)
    assert (ranks == BACK_CLASS).any() and (ranks < BACK_CLASS).any()


def test_a_scrap_of_a_card_is_none_only_where_asked() -> None:
    """A quad over a quarter of a card: left out by default (part of a card), "none" from
    FRAGMENT_IOU on (what the benchmark counts as a phantom)."""
    card = SimpleNamespace(corners=np.array([[0, 0], [50, 0], [50, 70], [0, 70]], float))
    scrap = np.array([[0, 0], [25, 0], [25, 35], [0, 35]], float)
    assert _under(scrap, [card], 0.7) is None
    assert _under(scrap, [card], 0.7, FRAGMENT_IOU) == NO_CARD
    assert _under(card.corners, [card], 0.7, FRAGMENT_IOU) is card


def test_finder_scenes_of_designed_backs_mark_their_cards() -> None:
    from models.train.finder import DESIGN_SEEDS, scene_sample

    image, targets = scene_sample(DESIGN_SEEDS + 1, None)
    assert image.dtype == np.uint8 and targets.shape[0] == 2
    assert targets[0].max() > 0 and targets[1].max() > 0  # cards, and their cores


def test_finder_scenes_of_faint_backs_lay_one_faint_design() -> None:
    """A table of `FAINT_SEEDS` lays every card's back in one procedural design whose
    enrolled picture prints under FAINT_PRINT (what the faint tuning designs spread)."""
    from companion.vision.bench.backs import design_print
    from companion.vision.synth.art import DESIGN_PREFIX
    from models.train.finder import FAINT_PRINT, FAINT_SEEDS, faint_scene, training_rng

    spec = faint_scene(training_rng(FAINT_SEEDS + 3))
    (style,) = {card.back for card in spec.cards}
    assert isinstance(style, str) and style.startswith(DESIGN_PREFIX)
    assert design_print(int(style[len(DESIGN_PREFIX) :])) < FAINT_PRINT


def test_found_animal_views_are_keyed_by_edition_and_card() -> None:
    views, negatives = found_animal_views(range(7, 9), 1, 2, seed=5)
    width, height = READ_SIZE
    assert {edition for edition, _ in views} == {7, 8}
    assert {key for _, key in views} <= set(range(6))  # ranks 1..5 as 0..4, the back 5
    assert sum(map(len, views.values())) > 10
    for cut in [*negatives, *(view for group in views.values() for view in group)]:
        assert cut.shape == (height, width, 3) and cut.dtype == np.uint8


def test_square_things_fill_a_card_picture() -> None:
    thing = square_thing(np.random.default_rng(0))
    assert thing.shape == (350, 250, 3) and thing.std() > 20  # a code or lines on paper


def test_index_hit_views_come_in_threes_labelled_with_the_card_or_none() -> None:
    views, ranks, suits = index_hit_views(4, seed=11)
    width, height = CORNER_SIZE
    assert views.shape[1:] == (height, width, 3) and len(views) == len(ranks) == len(suits)
    assert len(views) % 3 == 0 and len(views) > 30
    # each hit at three scales, one label
    assert (ranks[0::3] == ranks[1::3]).all() and (ranks[0::3] == ranks[2::3]).all()
    assert (ranks < BACK_CLASS).any() and (ranks == NONE_CLASS).any()
    assert not (ranks == BACK_CLASS).any()  # a back prints no index
    assert (suits[ranks == NONE_CLASS] == NO_SUIT).all() and (suits[ranks < BACK_CLASS] >= 0).all()


def test_index_views_with_true_patches_add_them_and_jokers_corners() -> None:
    """With `true_patches`, each index in sight is also cut along its card's own outline
    (moved a little) and labelled with the card, and the jokers of the tables that lay
    them are "none"; the hits' views come as before, after them."""
    from models.train.card_samples import _true_index_quads

    plain, plain_ranks, _ = index_hit_views(4, seed=11)
    views, ranks, suits = index_hit_views(4, seed=11, true_patches=True)
    assert len(views) > len(plain) and len(views) % 3 == 0
    assert (ranks[0::3] == ranks[1::3]).all() and (ranks[0::3] == ranks[2::3]).all()
    assert (ranks < BACK_CLASS).sum() > (plain_ranks < BACK_CLASS).sum()
    assert (suits[ranks == NONE_CLASS] == NO_SUIT).all() and (suits[ranks < BACK_CLASS] >= 0).all()
    quad = np.array([[0, 0], [100, 0], [100, 140], [0, 140]], np.float32)
    moved = _true_index_quads(quad, np.random.default_rng(0), (1.0, 0.9, 1.1))
    long_side = np.linalg.norm(moved[0][3] - moved[0][0])
    assert len(moved) == 3 and 0.88 * 140 <= long_side <= 1.12 * 140
    assert np.abs(moved[0][0]).max() <= 0.04 * 140 + 1e-3  # the index corner moved a little
    assert np.allclose(moved[1] - moved[1][0], (moved[0] - moved[0][0]) * 0.9)


def test_a_hit_is_its_index_card_near_it_none_far_from_any_and_left_out_between() -> None:
    quad = np.array([[0, 0], [100, 0], [100, 140], [0, 140]], np.float32)
    middle = np.array([12.0, 21.0], np.float32)
    visible = [(middle, quad, 140.0, (0, 2))]  # an Ace of hearts' index
    covered = [(middle, quad, 140.0, None)]

    def hit(centre, q=quad):
        return IndexHit(q + (np.asarray(centre, np.float32) - middle), np.asarray(centre), 0.9)

    assert _hit_label(hit(middle + 5), visible) == (0, 2)
    assert _hit_label(hit(middle + 5), covered) is None  # the card over it shows there
    assert _hit_label(hit(middle + 20), visible) is None  # part of the index in the patch
    assert _hit_label(hit(middle + 60), visible) == (NONE_CLASS, NO_SUIT)
    turned = np.roll(quad, 1, axis=0)  # the hit frames the index sideways
    assert _hit_label(IndexHit(turned, middle, 0.9), visible) is None


def test_shaken_photos_smear_each_photo_as_often_as_asked_and_keep_its_cards() -> None:
    """The real photos shaken for the index reader's second stage: every photo `shakes`
    times, each shake of its own, the labels untouched; the cards then cut as from the
    photo itself (two views a card, a background patch as none)."""
    from models.train.real_photos import real_card_samples, shaken_photos

    photo, card = _photo_of_an_ace((300, 400), (150, 100, 250, 240))
    shaken = list(shaken_photos([(photo, [card])], shakes=3, seed=1))
    assert len(shaken) == 3 and all(cards == [card] for _, cards in shaken)
    smears = [image for image, _ in shaken]
    assert all(not np.array_equal(image, photo) for image in smears)
    assert not np.array_equal(smears[0], smears[1])  # each shake its own
    views, ranks, suits = real_card_samples(shaken, "train", 2, seed=1)
    assert views.shape[1:] == (READ_SIZE[1], READ_SIZE[0], 3)
    assert (ranks == 0).sum() == 6 and (suits[ranks == 0] == 3).all()  # Ace of spades
    assert set(ranks.tolist()) <= {0, NONE_CLASS}


def test_small_photos_shrink_each_photo_to_a_webcams_scale_with_its_cards() -> None:
    """The real photos shrunk for the index reader (`cards-index-small`): every photo
    `sizes` times, its longest card then 60 to 150 px long, each card's box and quad
    shrunk with it, so that the views are cut from the card where it lies."""
    from models.train.real_photos import WEBCAM_LENGTHS, real_card_samples, small_photos

    photo, card = _photo_of_an_ace((600, 800), (300, 200, 500, 480))
    corners = card.corners
    small = list(small_photos([(photo, [card])], sizes=4, seed=1))
    assert len(small) == 4
    for image, (shrunk,) in small:
        scale = image.shape[1] / photo.shape[1]
        assert abs(image.shape[0] / photo.shape[0] - scale) < 0.01
        x0, y0, x1, y1 = shrunk.box
        assert WEBCAM_LENGTHS[0] - 2 <= y1 - y0 <= WEBCAM_LENGTHS[1] + 2
        np.testing.assert_allclose(shrunk.corners, corners * scale, atol=1.0)
        assert image[int(y0 + y1) // 2, int(x0 + x1) // 2].min() > 200  # on the card
        assert (shrunk.rank, shrunk.suit, shrunk.split) == (1, "spades", "train")
    views, ranks, _ = real_card_samples(small, "train", 2, seed=1)
    assert views.shape[1:] == (READ_SIZE[1], READ_SIZE[0], 3)
    assert (ranks == 0).sum() == 8


def test_small_photos_never_enlarge_a_photo_of_small_cards() -> None:
    from models.train.real_photos import RealCard, small_photos

    photo = np.full((200, 300, 3), 60, np.uint8)
    corners = np.array([[100, 50], [140, 50], [140, 106], [100, 106]], np.float32)
    card = RealCard("train_y.jpg", "train", 9, "hearts", (100, 50, 140, 106), corners)
    ((image, (same,)),) = small_photos([(photo, [card])], sizes=1, seed=0)
    assert image.shape == photo.shape and same.box == card.box


def _photo_of_an_ace(size: tuple[int, int], box: tuple[int, int, int, int]):
    """A grey photo `size` (height, width) of one white Ace of spades lying square in `box`
    (x0, y0, x1, y1), a dark index in its top-left corner, and its label (a `RealCard`)."""
    from models.train.real_photos import RealCard

    x0, y0, x1, y1 = box
    photo = np.full((*size, 3), 60, np.uint8)
    photo[y0:y1, x0:x1] = 235
    width = x1 - x0
    photo[y0 + width // 10 : y0 + width // 3, x0 + width // 10 : x0 + width // 4] = 20
    corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    return photo, RealCard("train_x.jpg", "train", 1, "spades", box, corners)
