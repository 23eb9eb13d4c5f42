"""Deck profiles: the built-in and shipped decks, enrolling an unseen edition, clear errors."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.vision.decks import (
    CARD_KEYS,
    DeckError,
    enroll,
    list_decks,
    load_deck,
    read_profile,
    write_profile,
)
from companion.vision.features import READ_SIZE
from companion.vision.read import CardReader
from companion.vision.synth import CardSpec, SceneSpec, card_back, card_face, render_scene
from companion.vision.synth.art import designed_back

# enrolled decks go to a temporary user data directory, never the real one
pytestmark = pytest.mark.usefixtures("private_data_dir")


def _pictures(folder: Path, edition: str = "woodland") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for rank in range(1, 6):
        cv2.imwrite(
            str(folder / f"{rank}.png"), np.asarray(card_face("animals", rank, None, edition))
        )
    cv2.imwrite(str(folder / "back.png"), np.asarray(card_back("animals", edition)))
    return folder


def test_builtin_and_shipped_decks_are_listed_and_load() -> None:
    names = [d.name for d in list_decks()]
    assert names[:2] == ["playing-cards", "demo-animals"]
    assert load_deck("playing-cards").kind == "playing-cards"
    demo = load_deck("demo-animals")
    assert demo.kind == "enrolled" and set(demo.templates) == set(CARD_KEYS)


def test_unknown_deck_names_the_known_ones() -> None:
    with pytest.raises(DeckError, match=r"unknown deck 'nope'.*playing-cards.*demo-animals"):
        load_deck("nope")


def test_enroll_unseen_edition_then_read_it_on_a_table(tmp_path: Path) -> None:
    profile = enroll("woodland", _pictures(tmp_path / "pics"))
    assert "woodland" in [d.name for d in list_decks()]
    assert load_deck("woodland").templates["3"].shape == (1, READ_SIZE[1], READ_SIZE[0], 3)
    faces = [
        CardSpec(
            "animals",
            rank,
            None,
            "up",
            (150 + 220 * (rank - 1), 220),
            angle=(rank * 47) % 360,
            length=190,
            edition="woodland",
        )
        for rank in range(1, 6)
    ]
    specs = (
        *faces,
        CardSpec("animals", 2, None, "down", (300, 540), angle=160, length=170, edition="woodland"),
        CardSpec("playing-cards", 9, "hearts", "up", (700, 540), angle=20, length=170),
        CardSpec("playing-cards", 1, "spades", "up", (1000, 540), angle=200, length=170),
    )
    image, truths = render_scene(SceneSpec(table="felt-dark", cards=specs, seed=2))
    readings = CardReader(profile).read_batch(image, [t.corners for t in truths])
    got = [(r.face, r.rank) for r in readings]
    assert got[:6] == [("up", 1), ("up", 2), ("up", 3), ("up", 4), ("up", 5), ("down", None)]
    assert got[6][1] is None and got[7][1] is None  # playing cards are not this deck's cards


def test_enroll_from_folders_and_a_photo(tmp_path: Path) -> None:
    pics = _pictures(tmp_path / "pics", "classic")
    (pics / "4").mkdir()
    (pics / "4.png").rename(pics / "4" / "scan.png")
    spec = SceneSpec(
        size=(800, 600),
        table="wood-dark",
        cards=(
            CardSpec("animals", 5, None, "up", (400, 300), angle=35, length=300, edition="classic"),
        ),
    )
    photo, _ = render_scene(spec)
    (pics / "5.png").unlink()
    cv2.imwrite(str(pics / "5.jpg"), photo)
    profile = enroll("mixed-sources", pics)
    assert len(profile.templates["4"]) == 1
    reading = CardReader(profile).read_cards(
        np.stack([cv2.resize(np.asarray(card_face("animals", 5, None, "classic")), READ_SIZE)]),
        [np.zeros((4, 2), np.float32)],
    )[0]
    assert reading.rank == 5


def test_enroll_errors_say_what_was_expected(tmp_path: Path) -> None:
    with pytest.raises(DeckError, match="not a folder"):
        enroll("x", tmp_path / "missing")
    pics = _pictures(tmp_path / "pics")
    (pics / "3.png").unlink()
    (pics / "back.png").unlink()
    with pytest.raises(DeckError, match=r"missing pictures .* for: 3, back"):
        enroll("x", pics)
    (pics / "3.png").write_text("not an image")
    cv2.imwrite(str(pics / "back.png"), np.zeros((350, 250, 3), np.uint8))
    with pytest.raises(DeckError, match=r"cannot read image .*3.png"):
        enroll("x", pics)
    for bad in ("playing-cards", "Bad Name", ""):
        with pytest.raises(DeckError):
            enroll(bad, pics)


def test_broken_profile_file_is_a_clear_error(
    private_data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = private_data_dir / "prey-companion" / "decks"
    folder.mkdir(parents=True)
    (folder / "broken.npz").write_bytes(b"garbage")
    with pytest.raises(DeckError, match=r"unreadable.*enroll the deck again"):
        load_deck("broken")
    with pytest.raises(DeckError, match="unreadable"):
        read_profile(folder / "broken.npz")
    assert main(["deck", "list"]) == 0  # listed, and said to be unreadable, not a crash
    (line,) = [x for x in capsys.readouterr().out.splitlines() if x.startswith("broken")]
    assert line.endswith("(unreadable: enroll it again)")


def test_deck_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "list"]) == 0
    assert "demo-animals" in capsys.readouterr().out
    assert main(["deck", "enroll", "mine", "--images", str(tmp_path / "none")]) == 2
    assert "not a folder" in capsys.readouterr().err
    assert main(["deck", "enroll", "mine", "--images", str(_pictures(tmp_path / "p"))]) == 0
    out = capsys.readouterr().out
    assert "enrolled deck 'mine'" in out
    (sheet_line,) = [x for x in out.splitlines() if x.startswith("the cards as cut")]
    sheet = cv2.imread(sheet_line.split(": ", 1)[1].split(" (check")[0])
    assert sheet is not None and sheet.shape[1] == 6 * (READ_SIZE[0] + 8)  # 1..5, back
    assert "back check: face-down cards read as backs on 8 rendered tables" in out
    assert "looks for it by its colour" not in out  # the woodland back: printed inside
    assert main(["deck", "list"]) == 0
    assert "mine" in capsys.readouterr().out


def test_enrolling_a_deck_with_a_plain_back_warns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The back check (`vision.back_check`) runs on the enrolled back: the deck is
    enrolled all the same (exit 0), and the table is told before its game."""
    pictures = _pictures(tmp_path / "p")
    cv2.imwrite(str(pictures / "back.png"), np.full((350, 250, 3), 60, np.uint8))
    assert main(["deck", "enroll", "plain", "--images", str(pictures)]) == 0
    captured = capsys.readouterr()
    assert "enrolled deck 'plain'" in captured.out and "back check:" in captured.out
    assert "looks for it by its colour" in captured.out  # `DeckProfile.plain_back`
    assert "may miss this deck's face-down cards" in captured.err
    # checked with the net for backs of any design too, which sees few of them either
    assert "back check with the finder that learned backs of any design" in captured.out


def test_a_back_its_own_net_misses_is_enrolled_to_be_seen_by_the_net_for_backs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Tuning design 4,100,000, purple stripes printed to the edge (`back_check.choose_finder`):
    the profile is saved saying so, and read back so."""
    pictures = _pictures(tmp_path / "p")
    cv2.imwrite(str(pictures / "back.png"), designed_back(4_100_000))
    assert main(["deck", "enroll", "striped", "--images", str(pictures)]) == 0
    out = capsys.readouterr().out
    assert "back check with the finder that learned backs of any design" in out
    assert "this deck's frames are now seen by it" in out
    assert load_deck("striped").any_backs
    assert not load_deck("demo-animals").any_backs
    assert main(["deck", "list"]) == 0
    listed = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()}
    assert listed["striped"].endswith("(seen by the finder for backs of any design)")
    assert listed["demo-animals"].endswith("shipped")


def test_profiles_say_which_finder_net_sees_them(private_data_dir: Path) -> None:
    """Saved and read back; absent (a profile enrolled before) it is the deck's own net;
    anything but true or false is a clear error."""
    demo = load_deck("demo-animals")
    folder = private_data_dir / "prey-companion" / "decks"
    write_profile(replace(demo, name="mine", any_backs=True), folder / "mine.npz")
    assert load_deck("mine").any_backs
    with np.load(folder / "mine.npz") as data:
        arrays = dict(data)
    header = json.loads(bytes(arrays["header"]).decode())
    for value, fine in ((None, True), ("yes", False)):
        if value is None:
            header.pop("any_backs")
        else:
            header["any_backs"] = value
        arrays["header"] = np.frombuffer(json.dumps(header).encode(), np.uint8)
        np.savez(folder / "old.npz", **arrays)
        if fine:
            assert not load_deck("old").any_backs
        else:
            with pytest.raises(DeckError, match="any_backs is 'yes', expected true or false"):
                load_deck("old")
