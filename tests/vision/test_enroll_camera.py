"""`companion deck enroll NAME --camera N`: the bare table, then each card laid before the
camera when asked (rendered frames from a stand-in camera; `single_card.card_laid`)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion.cli import main
from companion.vision import sources
from companion.vision.decks import CARD_KEYS, load_deck
from companion.vision.read import CardReader
from companion.vision.synth import CardSpec, SceneSpec, render_scene
from companion.vision.types import Frame

TABLE = SceneSpec(table="cloth-gingham", seed=5, tilt=12.0)
PLACES = ((420, 300), (800, 420), (560, 500), (900, 250), (640, 360), (480, 430))


# enrolled decks go to a temporary user data directory, never the real one
pytestmark = pytest.mark.usefixtures("private_data_dir")


def _laid(key: str, place: tuple[int, int]) -> np.ndarray:
    """The table with one card of the classic edition laid on it, as a webcam sees it."""
    rank, face = (1, "down") if key == "back" else (int(key), "up")
    card = CardSpec(
        "animals", rank, None, face, place, angle=25.0 * rank, length=190, edition="classic"
    )
    return render_scene(replace(TABLE, cards=(card,)))[0]


def _camera(monkeypatch: pytest.MonkeyPatch, frames: list[np.ndarray]) -> list[str]:
    """A stand-in camera showing frames[k] once the table has answered k questions; the
    questions asked, in order."""
    asked: list[str] = []

    class Camera:
        def __init__(self, index: int, queue_size: int = 1, size: tuple[int, int] | None = None):
            pass

        def read(self, timeout: float = 1.0) -> Frame:
            return Frame(0, 0.0, frames[min(len(asked), len(frames)) - 1])

        def __enter__(self) -> Camera:
            return self

        def __exit__(self, *exc: object) -> None:
            pass

    monkeypatch.setattr(sources, "CameraSource", Camera)
    monkeypatch.setattr("builtins.input", asked.append)
    return asked


def test_cards_laid_before_the_camera_enroll_a_deck_that_reads_them(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = render_scene(TABLE)[0]
    laid = [_laid(key, place) for key, place in zip(CARD_KEYS, PLACES, strict=True)]
    asked = _camera(monkeypatch, [empty, *laid])
    assert main(["deck", "enroll", "at-the-table", "--camera", "0"]) == 0
    assert asked[0].startswith("Clear the table")
    assert "the bear (1) face up" in asked[1] and "one card face down" in asked[6]
    out = capsys.readouterr().out
    assert "enrolled deck 'at-the-table'" in out and "the cards as cut" in out
    deck = load_deck("at-the-table")
    faces = tuple(
        CardSpec(rank=rank, face="up", center=(150 + 220 * (rank - 1), 300), edition="classic")
        for rank in range(1, 6)
    )
    image, truths = render_scene(SceneSpec(table="wood-light", cards=faces, seed=9))
    readings = CardReader(deck).read_batch(image, [t.corners for t in truths])
    assert [r.rank for r in readings] == [1, 2, 3, 4, 5]


def test_a_card_never_seen_by_the_camera_stops_enrolling_with_what_to_do(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The table stays bare: three tries for the bear, then a message, and no deck."""
    asked = _camera(monkeypatch, [render_scene(TABLE)[0]])
    assert main(["deck", "enroll", "never", "--camera", "0"]) == 2
    assert len(asked) == 1 + 3
    err = capsys.readouterr().err
    assert "no card found in 3 tries" in err and "the camera not moved" in err
    assert main(["deck", "list"]) == 0
    assert "never" not in capsys.readouterr().out


def test_back_only_goes_with_the_camera(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "enroll", "mine", "--back", "x.png", "--back-only"]) == 2
    assert "--back-only goes with --camera N" in capsys.readouterr().err


def test_no_one_at_the_keyboard_is_said_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Standard input closed (run from a script): a message, not a traceback."""
    _camera(monkeypatch, [render_scene(TABLE)[0]])

    def closed(prompt: str) -> str:
        raise EOFError

    monkeypatch.setattr("builtins.input", closed)
    assert main(["deck", "enroll", "nobody", "--camera", "0"]) == 2
    assert "no answer: the questions need someone at the keyboard" in capsys.readouterr().err


def test_a_back_laid_before_the_camera_is_checked(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`deck check-back --camera N`: the bare table, then one card face down, checked on
    rendered tables as a picture of it would be."""
    asked = _camera(monkeypatch, [render_scene(TABLE)[0], _laid("back", PLACES[5])])
    status = main(["deck", "check-back", "--camera", "0", "--deck", "demo-animals"])
    assert status in (0, 1)
    assert "one card face down" in asked[1]
    out = capsys.readouterr().out
    assert "back check: face-down cards read as backs on 8 rendered tables" in out
    assert main(["deck", "check-back", "x.png", "--camera", "0"]) == 2
    assert "PICTURE or --camera N, not both" in capsys.readouterr().err
