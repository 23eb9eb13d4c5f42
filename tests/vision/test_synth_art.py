"""Card art: sizes, distinct faces, editions, clear errors."""

from pathlib import Path

import numpy as np
import pytest

from companion.vision.synth import CARD_SIZE, card_back, card_face, card_mask
from companion.vision.synth.art.text_engine import draws_reference_text, text_engine_note
from companion.vision.types import SUITS


def _diff(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a.astype(int) - b.astype(int)).mean())


def test_animal_faces_are_card_sized_and_distinct() -> None:
    faces = [card_face("animals", r) for r in range(1, 6)]
    for face in faces:
        assert face.shape == (CARD_SIZE[1], CARD_SIZE[0], 3)
        assert face.dtype == np.uint8
    for i in range(5):
        for j in range(i + 1, 5):
            assert _diff(faces[i], faces[j]) > 5


def test_editions_differ_and_seeded_editions_are_deterministic() -> None:
    classic = card_face("animals", 1)
    assert _diff(classic, card_face("animals", 1, edition="woodland")) > 10
    assert _diff(card_face("animals", 3, edition=41), card_face("animals", 3, edition=42)) > 5
    assert np.array_equal(card_face("animals", 3, edition=41), card_face("animals", 3, edition=41))
    assert _diff(card_back("animals"), card_back("animals", "woodland")) > 10


def test_playing_cards_all_ranks_suits_and_backs() -> None:
    for suit in SUITS:
        for rank in range(1, 14):
            assert card_face("playing-cards", rank, suit).shape == (350, 250, 3)
    assert (
        _diff(card_face("playing-cards", 1, "hearts"), card_face("playing-cards", 1, "spades")) > 1
    )
    backs = [card_back("playing-cards", s) for s in ("red", "blue", "green")]
    assert _diff(backs[0], backs[1]) > 10 and _diff(backs[1], backs[2]) > 10


def test_art_is_read_only_and_mask_has_rounded_corners() -> None:
    face = card_face("animals", 2)
    with pytest.raises(ValueError):
        face[0, 0] = 0
    mask = card_mask()
    assert mask[0, 0] == 0 and mask[175, 125] == 255


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("cats", 1), "unknown deck"),
        (("animals", 6), "ranks 1..5"),
        (("playing-cards", 14, "hearts"), "ranks 1"),
        (("playing-cards", 2, "stars"), "suit"),
        (("animals", 1, None, "nope"), "edition"),
    ],
)
def test_bad_card_requests_say_what_was_expected(args: tuple, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        card_face(*args)


def test_unknown_back_style() -> None:
    with pytest.raises(ValueError, match="expected one of"):
        card_back("playing-cards", "purple")
    with pytest.raises(ValueError, match="whole number"):
        card_back("animals", "design-blue")


def test_designed_backs_are_seeded_varied_and_for_either_deck() -> None:
    """`design-N` is back design N: the same picture every time, for either deck, and
    designs differ from each other (plain ones among them: not every back is patterned)."""
    first = card_back("playing-cards", "design-3")
    assert first.shape == (CARD_SIZE[1], CARD_SIZE[0], 3) and not first.flags.writeable
    assert np.array_equal(first, card_back("animals", "design-3"))
    designs = [card_back("playing-cards", f"design-{n}") for n in range(40)]
    assert min(_diff(designs[0], other) for other in designs[1:]) > 3
    middles = [design[100:250, 60:190].std() for design in designs]
    assert min(middles) < 8 < max(middles)  # some plain, some busy


def test_each_draw_of_a_designed_back_style_is_a_new_design() -> None:
    """One generator drawn from again and again (as the readers' training samples do)
    gives a new design each time; `card_back` keeps the picture of a style it drew."""
    from companion.vision.synth.art import random_design_style

    rng = np.random.default_rng(5)
    assert len({random_design_style(rng) for _ in range(20)}) == 20
    assert card_back("playing-cards", "design-7") is card_back("playing-cards", "design-7")


def test_classic_art_is_the_shipped_demo_deck() -> None:
    """The enrolled `demo-animals` profile was made from these pictures: they must not drift.
    They were drawn with OpenCV 5.0, so exactly so where OpenCV draws text as 5.0 did;
    elsewhere only the text may differ (under 3% of a face's pixels; the back has none)."""
    import cv2

    folder = Path(__file__).parents[2] / "calibration" / "decks" / "demo-animals"
    if not folder.is_dir():
        pytest.skip("no shipped demo-animals profile pictures")
    exact = draws_reference_text()
    for name in ("1", "2", "3", "4", "5", "back"):
        shipped = cv2.imread(str(folder / f"{name}.png"))
        ours = card_back("animals") if name == "back" else card_face("animals", int(name))
        assert shipped is not None and shipped.shape == ours.shape, name
        differs = float(np.any(shipped != ours, axis=2).mean())
        assert differs == 0.0 if exact or name == "back" else differs < 0.03, name


def test_the_reference_text_is_opencv_5_0s() -> None:
    """The models' training scenes were rendered with OpenCV 5.0: its text is the reference
    (4.10 draws Hershey strokes, 5.1 shapes with HarfBuzz)."""
    import cv2

    assert draws_reference_text() == cv2.__version__.startswith("5.0.")
    assert (text_engine_note() is None) == draws_reference_text()
