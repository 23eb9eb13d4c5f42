"""`companion bench`: the dispatcher and a one-scene run of the vision benchmark."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from companion.cli import bench as bench_cli
from companion.cli import main
from companion.vision.bench.backs import ENROLLED_BACK_SEED
from companion.vision.bench.real_photos import (
    cut_by_edge,
    match_labels,
    shaken_photo,
    turned_photo,
    webcam_photo,
)
from companion.vision.bench.scenes import DESIGN_SEED, EMPTY_SEED, HEAP_SEED, HELD_OUT_SEED
from companion.vision.bench.tallies import HeapTally, Tally
from companion.vision.synth.art.text_engine import draws_reference_text
from companion.vision.types import CardReading


def _only(capsys, deck: str, option: str, count: int) -> dict:
    """The figures of `companion bench vision --json` run on `count` of `option`'s tables
    of `deck` alone (no card scenes, no empty tables)."""
    only = ["--deck", deck, "--scenes", "0", "--empty", "0", option, str(count), "--json"]
    assert main(["bench", "vision", *only]) == 0
    return json.loads(capsys.readouterr().out)


def test_vision_bench_prints_every_figure(capsys):
    status = main(
        ["bench", "vision", "--deck", "animals", "--scenes", "1", "--empty", "1", "--json"]
    )
    figures = json.loads(capsys.readouterr().out)
    assert status == 0
    assert figures["synthetic animals"]["images"] == 1
    assert figures["synthetic animals"]["cards"] > 0
    # one table, shaken or steady: counted on one side, the other side empty
    steadiness = [
        figures["synthetic animals"][key]
        for key in (
            "frames shaken 5 px or more, cards read right",
            "the other frames, cards read right",
        )
    ]
    assert sorted(share.endswith(" on 0 frames") for share in steadiness) == [False, True]
    assert figures["median ms per frame"] > 0
    assert figures["empty tables"]["images"] == 1
    # the figures hold for these versions; another OpenCV draws the scenes' text otherwise
    assert figures["versions"].startswith(f"OpenCV {cv2.__version__}, onnxruntime ")
    assert ("rendered scenes" in figures) != draws_reference_text()


def test_vision_bench_scores_close_up_heaps(capsys):
    heaps = _only(capsys, "playing-cards", "--heaps", 2)["close-up heaps"]
    assert heaps["images"] == 2
    assert heaps["faces with an index in sight"] > 0
    assert HELD_OUT_SEED < HEAP_SEED < EMPTY_SEED  # held out, apart from the other scenes


def test_vision_bench_scores_tables_of_backs_never_seen(capsys):
    designed = _only(capsys, "playing-cards", "--designed-backs", 1)
    designed = designed["tables of backs never seen"]
    assert designed["images"] == 1
    read, of = designed["face-down cards read as backs"].split(" of ")
    assert int(of) > 0 and 0 <= int(read) <= int(of)
    assert HEAP_SEED < DESIGN_SEED < EMPTY_SEED
    assert main(["bench", "vision", "--designed-backs", "-1"]) == 2
    assert "--designed-backs must be 0 or more" in capsys.readouterr().err


def test_vision_bench_scores_tables_of_backs_never_seen_with_their_back_enrolled(capsys):
    """The first table of --designed-backs, read with its back enrolled, and
    OWN_BACK_EMPTY empty tables read with that deck."""
    from companion.vision.bench.backs import OWN_BACK_EMPTY, OWN_BACK_EMPTY_SEED

    own = _only(capsys, "playing-cards", "--own-backs", 1)["the same, each deck's back enrolled"]
    assert own["images"] == 1
    assert own["decks whose back is plain inside"] in ("0 of 1", "1 of 1")
    assert own["readings on empty tables"].endswith(f" on {OWN_BACK_EMPTY}")
    assert EMPTY_SEED + 100 < OWN_BACK_EMPTY_SEED  # apart from --empty's own 100 tables
    assert main(["bench", "vision", "--own-backs", "-1"]) == 2
    assert "--own-backs must be 0 or more" in capsys.readouterr().err


def test_vision_bench_scores_enrolling_from_photos(capsys):
    """The back of the first table of --designed-backs and an animal face, photographed as
    a webcam and as a phone frame them, small as a webcam sees a card laid on the table,
    and laid so before the camera: each outlined right, wrong or not at all; the table
    read with the back enrolled from its phone photo and from its flat picture."""
    from companion.vision.bench.enroll_photos import ENROLL_PHOTO_SEED

    photos = _only(capsys, "playing-cards", "--enroll-photos", 1)["enrolling from a photo"]
    for what in ("backs", "animal faces"):
        for framing in ("webcam", "phone", "laid", "laid before a webcam"):
            outlined = photos[f"{what}, {framing}"]
            assert outlined.startswith(("0 of 1 outlined right", "1 of 1 outlined right"))
    enrolled = photos["decks enrolled from their phone photo"]
    assert enrolled in ("0 of 1", "1 of 1")
    flat = photos["the same tables, each back enrolled from its flat picture"]
    assert flat.startswith("face-down cards read as backs")
    assert HELD_OUT_SEED + 500_000 < ENROLL_PHOTO_SEED < HEAP_SEED  # apart from the scenes
    assert main(["bench", "vision", "--enroll-photos", "-1"]) == 2
    assert "--enroll-photos must be 0 or more" in capsys.readouterr().err


def test_vision_bench_scores_tables_with_jokers(capsys):
    """A table whose face-down cards are a deck's jokers, of an edition the readers' training
    never draws: game cards read on a joker, and the faces among them."""
    from companion.vision.bench.enroll_photos import ENROLL_PHOTO_SEED
    from companion.vision.bench.jokers import JOKER_EDITION, JOKER_SEED

    jokers = _only(capsys, "playing-cards", "--jokers", 1)["tables with jokers"]
    assert jokers["jokers"] > 0
    assert jokers["game cards read on a joker"] >= 0
    read, of = jokers["faces among them read right"].split(" of ")
    assert int(of) > 0 and 0 <= int(read) <= int(of)
    assert HELD_OUT_SEED + 500_000 < JOKER_SEED < ENROLL_PHOTO_SEED  # apart from the scenes
    assert JOKER_EDITION + 100 < 1_000  # the training draws its jokers from 1,000 on
    assert main(["bench", "vision", "--jokers", "-1"]) == 2
    assert "--jokers must be 0 or more" in capsys.readouterr().err


def test_vision_bench_scores_rows_of_cards_touching_or_overlapping(capsys):
    """A table per deck whose rows of cards touch or overlap, as players lay them: scored
    as the card scenes are, from seeds of its own."""
    from companion.vision.bench.scenes import ROW_ANIMAL_OFFSET, ROW_SEED

    for deck in ("playing-cards", "animals"):
        rows = _only(capsys, deck, "--rows", 1)[f"rows touching or overlapping, {deck}"]
        assert rows["images"] == 1 and rows["cards"] > 0
        assert 0 <= rows["found and read right"] <= rows["cards"]
        assert "the other frames, cards read right" in rows
        assert rows["median ms per frame"] > 0
    assert HELD_OUT_SEED + 500_000 < ROW_SEED < ROW_SEED + ROW_ANIMAL_OFFSET < HEAP_SEED
    assert main(["bench", "vision", "--rows", "-1"]) == 2
    assert "--rows must be 0 or more" in capsys.readouterr().err


def test_vision_bench_scores_an_enrolled_deck_with_a_back_never_seen(capsys):
    """One design (its deck enrolled with that back and its finder net chosen by the back
    check), two tables of it and two empty ones."""
    enrolled = _only(capsys, "animals", "--enrolled-backs", 2)
    enrolled = enrolled["an enrolled deck, backs never seen"]
    assert enrolled["images"] == 2
    assert enrolled["decks seen by the net for backs of any design"] in ("0 of 1", "1 of 1")
    assert enrolled["readings on empty tables"].endswith(" on 2")
    assert DESIGN_SEED < ENROLLED_BACK_SEED < EMPTY_SEED
    assert main(["bench", "vision", "--enrolled-backs", "-1"]) == 2


def test_vision_bench_scores_an_enrolled_deck_with_a_faint_back_never_seen(capsys):
    """Two tables of the first faint design after the --enrolled-backs ones, and the
    FAINT_EMPTY empty tables read with its deck."""
    from companion.vision.bench.backs import FAINT_BACK_SEED, FAINT_EMPTY

    faint = _only(capsys, "animals", "--faint-backs", 2)
    faint = faint["an enrolled deck, faint backs never seen"]
    assert faint["images"] == 2
    assert faint["decks seen by the net for backs of any design"] in ("0 of 1", "1 of 1")
    assert faint["readings on empty tables"].endswith(f" on {FAINT_EMPTY}")
    assert ENROLLED_BACK_SEED + 20 <= FAINT_BACK_SEED < EMPTY_SEED
    assert main(["bench", "vision", "--faint-backs", "-1"]) == 2


def test_heap_tally_counts_faces_whose_index_is_in_sight():
    """A 3 half under a King: its top-left index is covered, its bottom-right one in
    sight, so it counts; read right by a quad on its visible part alone. An Ace read on
    the King is a game card where none lies."""
    from companion.vision.synth import CardSpec, CardTruth

    def card(x: float, y: float) -> np.ndarray:
        return np.array([[x, y], [x + 50, y], [x + 50, y + 70], [x, y + 70]], np.float32)

    three = CardTruth(card(0, 0), "up", 3, "spades", "3 of spades", 0.4, CardSpec())
    king = CardTruth(card(-20, -30), "up", None, None, "other", 1.0, CardSpec())
    visible_part = np.array([[30, 40], [50, 40], [50, 70], [30, 70]], np.float32)
    readings = [
        CardReading(visible_part, "up", 3, "spades", "3 of spades", 0.9),
        CardReading(card(-20, -30), "up", 1, "hearts", "A of hearts", 0.6),
    ]
    tally = HeapTally()
    tally.add_scene(readings, [three, king])
    summary = tally.summary()
    assert summary["faces with an index in sight"] == 2
    assert summary["read right"] == 1 and summary["game cards right"] == "1/1"
    assert summary["game cards read where none lies or as another"] == 1


def test_held_out_seeds_are_far_from_training():
    # The reader trains on streams 0, 1, 10_000, 10_001 and evaluates from 900_000.
    assert HELD_OUT_SEED > 1_000_000 and EMPTY_SEED >= HELD_OUT_SEED + 1_000_000


def test_missing_benchmark_says_not_available(capsys, monkeypatch):
    monkeypatch.setitem(bench_cli.TARGETS, "voice", ("companion.no_such_module", "speech"))
    assert main(["bench", "voice"]) == 2
    assert "not available" in capsys.readouterr().err


def test_tally_counts_misreads_and_phantoms():
    import numpy as np

    from companion.vision.synth import CardSpec, CardTruth

    square = np.array([[0, 0], [50, 0], [50, 70], [0, 70]], np.float32)
    truth = CardTruth(square, "up", 2, None, "wolf", 1.0, CardSpec())
    wrong = CardReading(square + 1, "up", 3, None, "lynx", 0.9)
    phantom = CardReading(square + 500, "down", None, None, "back", 0.9)
    tally = Tally()
    tally.add_scene([wrong, phantom], [None, None], [truth])
    summary = tally.summary()
    assert summary["found"] == 1 and summary["found and read right"] == 0
    assert summary["misread as a game rank"] == 1
    assert summary["phantoms"] == 1
    assert summary["phantoms lying mostly on part of a card"] == 0  # it lies on the table
    assert summary["game cards on no card"] == 0  # the phantom is a back


def test_tally_counts_the_shaken_frames_apart_where_their_shake_is_known() -> None:
    """A table whose frame is smeared by `SHAKEN` px or more counts its cards apart from
    the steady tables'; tables of unknown shake (real photos, heaps) add no such figures."""
    from companion.vision.bench.tallies import SHAKEN
    from companion.vision.synth import CardSpec, CardTruth

    square = np.array([[0, 0], [50, 0], [50, 70], [0, 70]], np.float32)
    truth = CardTruth(square, "up", 2, None, "wolf", 1.0, CardSpec())
    right = CardReading(square + 1, "up", 2, None, "wolf", 0.9)
    unsure = CardReading(square + 1, "up", None, None, "other", 0.3)
    unknown = Tally()
    unknown.add_scene([right], [None], [truth])
    assert not any("shaken" in key for key in unknown.summary())
    tally = Tally()
    tally.add_scene([right], [None], [truth], shake=0.0)
    tally.add_scene([unsure], [None], [truth], shake=SHAKEN - 0.5)
    tally.add_scene([unsure], [None], [truth], shake=SHAKEN)
    summary = tally.summary()
    assert summary["found and read right"] == 1
    assert summary["frames shaken 5 px or more, cards read right"] == "0 of 1 (0.00%) on 1 frame"
    assert summary["the other frames, cards read right"] == "1 of 2 (50.00%) on 2 frames"


def test_a_reading_stands_for_the_card_it_overlaps_most() -> None:
    """A card mostly hidden under another is drawn (and listed) first; the reading of the
    card in sight overlaps both, the one in sight more: it stands for that one, which is
    found and read right; the hidden one is not counted either way (`VISIBLE`)."""
    from companion.vision.synth import CardSpec, CardTruth

    under = np.array([[0, 0], [100, 0], [100, 140], [0, 140]], np.float32)
    over = under + np.float32([25, 0])
    hidden = CardTruth(under, "down", None, None, "back", 0.3, CardSpec())
    shown = CardTruth(over, "up", None, None, "other", 1.0, CardSpec())
    reading = CardReading(over + np.float32([-8, 0]), "up", None, None, "other", 0.98)
    tally = Tally()
    tally.add_scene([reading], [None], [hidden, shown])
    summary = tally.summary()
    assert (summary["cards"], summary["found and read right"], summary["phantoms"]) == (1, 1, 0)


def test_tally_counts_apart_a_phantom_on_the_part_in_sight_of_a_hidden_card() -> None:
    """A back read on the strip in sight of a card mostly under another overlaps that
    card by less than IoU 0.3: a phantom by the benchmark's count, lying on a card."""
    import numpy as np

    from companion.vision.synth import CardSpec, CardTruth

    card = np.array([[0, 0], [50, 0], [50, 70], [0, 70]], np.float32)
    strip = np.array([[0, 50], [50, 50], [50, 70], [0, 70]], np.float32)
    truth = CardTruth(card, "down", None, None, "back", 0.3, CardSpec())
    tally = Tally()
    tally.add_scene([CardReading(strip, "down", None, None, "back", 0.9)], [None], [truth])
    summary = tally.summary()
    assert summary["phantoms"] == 1 and summary["phantoms lying mostly on part of a card"] == 1


def test_tally_counts_a_game_card_read_on_part_of_another_card() -> None:
    """A quad on a third of a 3 read as an Ace is no phantom (it overlaps the 3) and
    matches no card, but the game would take it as a played Ace."""
    import numpy as np

    from companion.vision.synth import CardSpec, CardTruth

    three = np.array([[0, 0], [50, 0], [50, 70], [0, 70]], np.float32)
    part = np.array([[0, 0], [50, 0], [50, 25], [0, 25]], np.float32)
    truth = CardTruth(three, "up", 3, "spades", "3 of spades", 1.0, CardSpec())
    tally = Tally()
    tally.add_scene([CardReading(part, "up", 1, "clubs", "A of clubs", 1.0)], [None], [truth])
    summary = tally.summary()
    assert summary["phantoms"] == 0 and summary["found"] == 0
    assert summary["game cards on no card"] == 1


def test_tally_counts_a_wrong_game_rank_on_a_card_mostly_hidden() -> None:
    """A wolf 55% in sight need not be found, but read as a mouse it is a wrong game rank:
    the game would take the mouse as revealed."""
    import numpy as np

    from companion.vision.synth import CardSpec, CardTruth

    wolf = np.array([[0, 0], [50, 0], [50, 70], [0, 70]], np.float32)
    truth = CardTruth(wolf, "up", 2, None, "wolf", 0.55, CardSpec())
    for reading, wrong in (
        (CardReading(wolf, "up", 5, None, "mouse", 0.8), 1),
        (CardReading(wolf, "up", 2, None, "wolf", 0.8), 0),
        (CardReading(wolf, "up", None, None, "other", 0.3), 0),
    ):
        tally = Tally()
        tally.add_scene([reading], [None], [truth])
        summary = tally.summary()
        assert summary["cards"] == 0 and summary["misread as a game rank"] == wrong
        assert summary["of them on a card under 75% in sight"] == wrong


def test_tally_takes_a_card_read_right_from_its_part_in_sight_for_no_phantom() -> None:
    """A 3 half under its neighbour, its part in sight outlined and read as the 3: the
    game takes it as just what it is; read twice (its whole quad too), once is too many."""
    import numpy as np

    from companion.vision.synth import CardSpec, CardTruth

    three = np.array([[0, 0], [50, 0], [50, 70], [0, 70]], np.float32)
    part = np.array([[0, 0], [50, 0], [50, 30], [0, 30]], np.float32)
    truth = CardTruth(three, "up", 3, "spades", "3 of spades", 0.45, CardSpec())
    on_part = CardReading(part, "up", 3, "spades", "3 of spades", 0.9)
    whole = CardReading(three, "up", 3, "spades", "3 of spades", 0.9)
    for readings, phantom_game_cards in (([on_part], 0), ([on_part, whole], 1)):
        tally = Tally()
        tally.add_scene(readings, [None] * len(readings), [truth])
        assert tally.summary()["game cards on no card"] == phantom_game_cards


def test_tally_gives_the_accuracy_of_cards_in_the_issues_size_range_apart():
    import numpy as np

    from companion.vision.synth import CardSpec, CardTruth

    def card(length: float, x: float) -> np.ndarray:
        return np.array([[x, 0], [x + length / 1.4, 0], [x + length / 1.4, length], [x, length]])

    big, small = card(100, 0).astype(np.float32), card(40, 300).astype(np.float32)
    truths = [
        CardTruth(big, "up", 2, None, "wolf", 1.0, CardSpec()),
        CardTruth(small, "up", 3, None, "lynx", 1.0, CardSpec()),
    ]
    tally = Tally()
    tally.add_scene([CardReading(big, "up", 2, None, "wolf", 0.9)], [None], truths)
    summary = tally.summary()
    assert summary["accuracy"] == 0.5
    assert summary["accuracy, cards 60 px or longer"] == 1.0
    assert summary["cards under 60 px"] == 1


def test_a_covered_card_is_matched_by_the_part_of_it_in_sight():
    """A card read whole from its corner index, two thirds under another card: the real
    photos' labels box only its visible part, which the bench offers too."""
    under = np.float32([[10, 10], [110, 10], [110, 150], [10, 150]])
    over = under + np.float32([35, 0])
    label = (10, 10, 45, 150)
    assert match_labels([label], [under, over], (200, 300)) == [0]
    # its whole box alone (here: nothing over it was read) covers too much besides the label
    assert match_labels([label], [under], (200, 300)) == [None]
    # each reading stands for one label at most
    assert match_labels([label, label], [under, over], (200, 300)) == [0, None]


def test_a_covered_cards_part_in_sight_is_counted_in_pixels_not_by_its_box():
    """The real train photo IMG_2664: an Ace read whole from its index under a Jack turned
    a few degrees otherwise. The corners of the Ace that stick out from under the Jack
    are part of what no other reading covers; the box of that part reached across the
    Jack (184 px wide for a 70 px label) and the Ace went unmatched, though read right."""
    ace = np.float32([[58, 170], [212, 149], [241, 363], [87, 384]])
    jack = np.float32([[117, 157], [270, 139], [295, 351], [143, 369]])
    labels = [(122, 149, 288, 368), (56, 164, 126, 384)]  # the Jack, the Ace's strip
    assert match_labels(labels, [ace, jack], (504, 378)) == [1, 0]


def test_labels_are_matched_best_pair_first_and_right_readings_before_others():
    """A card read whole from its index under another card can cover the card over it
    better than its own visible part (real test photo IMG_2598): the best pair wins
    whatever the labels' order, and a reading goes to the card it names first."""
    under = np.float32([[10, 10], [110, 10], [110, 150], [10, 150]])
    over_card = (40, 20, 120, 150)  # covered by the reading at 0.875
    own_strip = (10, 10, 55, 150)  # covered at 0.75
    shape = (200, 300)
    assert match_labels([over_card, own_strip], [under], shape) == [0, None]
    assert match_labels([own_strip, over_card], [under], shape) == [None, 0]

    def names_the_strip(label: int, reading: int) -> bool:
        return label == 1

    assert match_labels([over_card, own_strip], [under], shape, names_the_strip) == [None, 0]


def test_a_reading_naming_a_covered_card_stands_for_it_however_much_else_it_covers():
    """The real train photo IMG_2641 in a webcam's frame: an Ace of clubs, a strip under
    a 9 of diamonds, read right from its index and reported whole, its quad lying mostly on
    the 9. Named, the strip is its card; unnamed, the quad stands for the card it lies on."""
    under = np.float32([[10, 10], [110, 10], [110, 150], [10, 150]])
    over_card = (30, 15, 125, 150)
    strip = (10, 10, 30, 150)  # covered whole, but a fifth of the quad's box
    shape = (200, 300)
    assert match_labels([over_card, strip], [under], shape) == [0, None]

    def names_the_strip(label: int, reading: int) -> bool:
        return label == 1

    assert match_labels([over_card, strip], [under], shape, names=names_the_strip) == [None, 0]
    # read right only ("no game card" reads any 6..King right): the card it lies on
    assert match_labels([over_card, strip], [under], shape, names_the_strip) == [0, None]
    # a quad that does not cover the named card's box stands for it no more than before
    apart = under + np.float32([150, 0])
    assert match_labels([over_card, strip], [apart], shape, names=names_the_strip) == [None, None]


def test_a_labelled_photo_turns_with_its_boxes():
    """`--real-turn`: the photo and every label's box turn together, a quarter at a time."""
    image = np.zeros((40, 60), np.uint8)
    image[5:15, 10:30] = 255  # a label's box: x 10..30, y 5..15
    for turn in (0, 90, 180, 270):
        turned, (card,) = turned_photo(image, [{"box": [10, 5, 30, 15]}], turn)
        ys, xs = np.nonzero(turned)
        assert card["box"] == [xs.min(), ys.min(), xs.max() + 1, ys.max() + 1], turn
        assert turned.shape == ((40, 60) if turn in (0, 180) else (60, 40))


def test_a_card_the_photo_cuts_is_told_by_its_box():
    """A label boxed up to the photo's edge is a card the photo cuts (counted apart in the
    real photos' figures: in a webcam's frame it ends at the seam); one a few pixels in is
    whole."""
    shape = (504, 378)  # height, width
    assert cut_by_edge([1, 65, 105, 196], shape)  # at the left edge
    assert cut_by_edge([294, 231, 378, 357], shape)  # out to the right edge
    assert cut_by_edge([103, 1, 280, 136], shape)  # at the top
    assert cut_by_edge([252, 313, 370, 502], shape)  # down to the bottom
    assert not cut_by_edge([10, 374, 161, 495], shape)
    assert not cut_by_edge([40, 40, 300, 400], shape)


def test_vision_bench_reads_labelled_photos_turned(tmp_path, capsys):
    """A folder of labelled photos (the real photos' layout): a rendered close-up of three
    game cards, read as it is and turned upside down."""
    import cv2

    from companion.vision.synth import CardSpec, render_scene
    from companion.vision.synth.spec import SceneSpec

    cards = [
        CardSpec("playing-cards", rank, suit, "up", (110 + 140 * i, 190), angle=6, length=170)
        for i, (rank, suit) in enumerate(((1, "hearts"), (3, "spades"), (5, "diamonds")))
    ]
    image, truths = render_scene(SceneSpec(size=(504, 378), cards=tuple(cards)))
    (tmp_path / "images").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "test_one.jpg"), image)
    labels = [
        {"rank": rank, "suit": t.suit, "face_up": True, "box": _box(t.corners)}
        for rank, t in zip(("A", "3", "5"), truths, strict=True)
    ]
    entry = {"file": "images/test_one.jpg", "split": "test", "cards": labels}
    (tmp_path / "manifest.json").write_text(json.dumps({"images": [entry]}))
    args = ["--scenes", "0", "--empty", "0", "--real-photos", str(tmp_path), "--json"]
    for turn in ("0", "180"):
        assert main(["bench", "vision", *args, "--real-turn", turn]) == 0
        real = json.loads(capsys.readouterr().out)["real photos"]
        assert (real["turned"], real["game cards right"]) == (f"{turn} degrees", "3/3")
        assert real["of them cut by the photo's edge"] == "0/0"
    # several turns in one run: a set of figures each
    assert main(["bench", "vision", *args, "--real-turn", "90", "270"]) == 0
    figures = json.loads(capsys.readouterr().out)
    for turn in (90, 270):
        real = figures[f"real photos, turned {turn}"]
        assert (real["turned"], real["game cards right"]) == (f"{turn} degrees", "3/3")
    # shaken first: the same photo, smeared by a camera shake
    assert main(["bench", "vision", *args, "--real-blur", "3"]) == 0
    real = json.loads(capsys.readouterr().out)["real photos, shaken 3 px"]
    assert (real["shaken"], real["game cards right"]) == ("3 px", "3/3")
    # shrunk first into a webcam's frame, its cards as long as a webcam shows them
    assert main(["bench", "vision", *args, "--real-card-length", "120"]) == 0
    real = json.loads(capsys.readouterr().out)["real photos, cards 120 px in a webcam frame"]
    assert (real["longest card"], real["game cards right"]) == ("120 px in a 1280x720 frame", "3/3")


@pytest.mark.parametrize(
    ("option", "length"),
    [("--real-blur", value) for value in ("1", "-2", "80", "six")]
    + [("--real-card-length", value) for value in ("10", "-100", "500", "big")],
)
def test_a_length_out_of_range_is_refused_with_what_was_expected(option, length, capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["bench", "vision", "--scenes", "0", option, length])
    assert exit_info.value.code == 2
    assert "expected" in capsys.readouterr().err


def test_a_photo_shrunk_into_a_webcam_frame_keeps_its_cards_in_their_boxes() -> None:
    """`--real-card-length`: the longest labelled card comes out that long, in the middle
    of a 1280x720 frame of the photo's edge colour, and every box moves with its card."""
    photo = np.full((400, 300, 3), (40, 90, 140), np.uint8)  # a table
    photo[100:300, 60:200] = 255  # a card 200 px long
    photo[20:60, 220:250] = 200  # a strip of another, 40 px
    cards = [{"box": [60, 100, 200, 300]}, {"box": [220, 20, 250, 60]}]
    frame, moved = webcam_photo(photo, cards, 100)
    assert frame.shape == (720, 1280, 3)
    assert tuple(frame[0, 0]) == tuple(frame[-1, -1]) == (40, 90, 140)
    x0, y0, x1, y1 = moved[0]["box"]
    assert y1 - y0 == pytest.approx(100) and x1 - x0 == pytest.approx(70)
    assert frame[round(y0) + 2 : round(y1) - 2, round(x0) + 2 : round(x1) - 2].min() >= 250
    x0, y0, x1, y1 = moved[1]["box"]
    assert frame[round(y0) + 2 : round(y1) - 2, round(x0) + 2 : round(x1) - 2].min() >= 195
    # a photo whose cards are shorter already is laid in as it is, never enlarged
    frame, (card,) = webcam_photo(photo, cards[:1], 300)
    assert card["box"] == [550, 260, 690, 460]
    assert np.array_equal(frame[260 + 20 : 460 - 20, 550 + 20 : 690 - 20], photo[120:280, 80:180])
    # a photo larger than the frame is shrunk to fit it, its boxes alike
    frame, (card,) = webcam_photo(np.repeat(photo, 4, axis=0), [{"box": [0, 0, 10, 100]}], 300)
    assert frame.shape == (720, 1280, 3) and card["box"] == pytest.approx([572, 0, 576.5, 45])


def test_a_shaken_photo_is_smeared_alike_each_time_and_each_photo_its_own_way() -> None:
    image = np.zeros((60, 80, 3), np.uint8)
    image[28:32, 38:42] = 255  # a dot: its smear shows the shake's direction
    once, again = shaken_photo(image, 9, 0), shaken_photo(image, 9, 0)
    assert once.shape == image.shape and np.array_equal(once, again)
    assert not np.array_equal(once, image)
    assert not np.array_equal(once, shaken_photo(image, 9, 1))  # the next photo: 37 degrees on


def _box(corners: np.ndarray) -> list[float]:
    return [*map(float, corners.min(axis=0)), *map(float, corners.max(axis=0))]
