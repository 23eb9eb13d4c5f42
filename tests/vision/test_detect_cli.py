"""`companion detect --json`: the documented contract (../shared/spec/detect-json.md)."""

from __future__ import annotations

import json

import cv2
import pytest

from companion.cli import main
from companion.vision.calibration import Calibration
from companion.vision.synth import CardSpec, SceneSpec, render_scene

CARD_KEYS = {"corners", "face", "rank", "suit", "label", "confidence"}


@pytest.fixture(scope="module")
def table_picture(tmp_path_factory):
    """A rendered table with three animal cards, saved as a PNG."""
    cards = tuple(
        CardSpec(
            deck="animals",
            rank=k + 1,
            face="up" if k else "down",
            center=(150.0 + 200.0 * k, 200.0),
            angle=30.0 * k,
            length=140.0,
            edition="classic",
        )
        for k in range(3)
    )
    image, _ = render_scene(SceneSpec(size=(640, 400), table="wood-dark", seed=2, cards=cards))
    path = tmp_path_factory.mktemp("pictures") / "table.png"
    cv2.imwrite(str(path), image)
    return path


def run_detect(capsys, *args: str) -> tuple[int, dict | None, str]:
    status = main(["detect", "--deck", "demo-animals", *args])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if out.strip() else None), err


def test_json_schema(capsys, table_picture):
    status, output, err = run_detect(capsys, "--json", str(table_picture))
    assert status == 0, err
    assert output["deck"] == "demo-animals"
    (report,) = output["images"]
    assert report["image"] == str(table_picture)
    assert (report["width"], report["height"]) == (640, 400)
    assert len(report["cards"]) == 3
    for card in report["cards"]:
        assert set(card) == CARD_KEYS  # no "seat" without --calibration
        assert len(card["corners"]) == 4 and all(len(p) == 2 for p in card["corners"])
        assert card["face"] in ("up", "down")
        assert card["rank"] is None or 1 <= card["rank"] <= 5
        assert card["suit"] is None  # animal cards have no suit
        assert isinstance(card["label"], str) and card["label"]
        assert 0.0 <= card["confidence"] <= 1.0


def test_unreadable_picture_exit_2_others_still_printed(capsys, table_picture, tmp_path):
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not a picture")
    status, output, err = run_detect(
        capsys, "--json", str(broken), str(table_picture), str(tmp_path / "missing.png")
    )
    assert status == 2
    assert "broken.jpg" in err and "missing.png" in err
    assert [r["image"] for r in output["images"]] == [str(table_picture)]


def test_annotate_writes_pictures(capsys, table_picture, tmp_path):
    folder = tmp_path / "checked"
    status, _, err = run_detect(capsys, "--json", "--annotate", str(folder), str(table_picture))
    assert status == 0, err
    written = cv2.imread(str(folder / "table.png"))
    assert written is not None and written.shape == (400, 640, 3)


def test_calibration_adds_seats(capsys, table_picture, tmp_path):
    path = tmp_path / "seats.json"
    Calibration({"Alia": (100.0, 200.0), "Ben": (600.0, 200.0)}).save(path)
    status, output, err = run_detect(
        capsys, "--json", "--calibration", str(path), str(table_picture)
    )
    assert status == 0, err
    seats = [card["seat"] for card in output["images"][0]["cards"]]
    assert set(seats) <= {"Alia", "Ben"} and "Alia" in seats and "Ben" in seats


def test_a_calibration_of_another_picture_size_seats_nobody_and_says_why(
    capsys, table_picture, tmp_path
):
    path = tmp_path / "seats.json"
    Calibration({"Alia": (100.0, 200.0), "Ben": (600.0, 200.0)}, image_size=(1280, 720)).save(path)
    status, output, err = run_detect(
        capsys, "--json", "--calibration", str(path), str(table_picture)
    )
    assert status == 2
    assert "made on 1280x720 pictures but this picture is 640x400" in err
    assert {card["seat"] for card in output["images"][0]["cards"]} == {None}


def test_broken_calibration_and_unknown_deck_say_why(capsys, table_picture, tmp_path):
    path = tmp_path / "seats.json"
    path.write_text("{not json", encoding="utf-8")
    status, output, err = run_detect(
        capsys, "--json", "--calibration", str(path), str(table_picture)
    )
    assert status == 2 and output is None and "seats.json" in err
    status = main(["detect", "--deck", "no-such-deck", "--json", str(table_picture)])
    assert status == 2
    assert "no-such-deck" in capsys.readouterr().err


def test_text_output_without_json(capsys, table_picture):
    status = main(["detect", "--deck", "demo-animals", str(table_picture)])
    out = capsys.readouterr().out
    assert status == 0
    assert "table.png: 3 cards" in out


def test_annotate_into_a_file_says_why(capsys, table_picture, tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("", encoding="utf-8")
    status, output, err = run_detect(
        capsys, "--json", "--annotate", str(blocker), str(table_picture)
    )
    assert status == 2 and "not-a-folder" in err
    assert len(output["images"]) == 1  # the readings are still printed
