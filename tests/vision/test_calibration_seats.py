"""Seat calibration: parsing, nearest seat, files (broken, stale), markers, cards, CLI."""

import json
import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.vision.calibration import (
    Calibration,
    CalibrationError,
    calibrate_cards_in_turn,
    calibrate_from_cards,
    calibrate_from_markers,
    card_length_advice,
    detect_markers,
    load_calibration,
    marker_image,
    marker_sheet,
    parse_seats,
)
from companion.vision.marker_watch import MarkerWatch

PLAYERS = ["Alia", "Ben", "Carmen", "Dori"]
# Bottom, left, top, right: clockwise seen from above, starting at the bottom.
ANCHORS = [(640, 620), (150, 360), (640, 100), (1130, 360)]


def _table_with_markers(shift: tuple[int, int] = (0, 0)) -> np.ndarray:
    image = np.full((720, 1280, 3), 90, np.uint8)
    for i, (x, y) in enumerate(ANCHORS):
        m = cv2.cvtColor(marker_image(i, 72), cv2.COLOR_GRAY2BGR)
        s = m.shape[0]
        x0, y0 = x + shift[0] - s // 2, y + shift[1] - s // 2
        image[y0 : y0 + s, x0 : x0 + s] = m
    return image


def test_parse_seats_and_nearest_seat() -> None:
    cal = parse_seats("Alia=412,650; Ben=900,640 ;Carmen = 600.5,100")
    assert cal.names == ("Alia", "Ben", "Carmen")
    assert cal.seats["Carmen"] == (600.5, 100.0)
    assert cal.seat_of((420, 600)) == "Alia"
    assert cal.seat_of((610, 200)) == "Carmen"
    assert cal.seat_of((610, 200), max_distance=50) is None


@pytest.mark.parametrize(
    ("text", "message"),
    [("", "no seats"), ("Alia=1,2;Alia=3,4", "twice"), ("Alia:1,2", "NAME=X,Y"), ("=1,2", "NAME")],
)
def test_parse_seats_explains_bad_text(text: str, message: str) -> None:
    with pytest.raises(CalibrationError, match=message):
        parse_seats(text)


def test_save_load_round_trip(tmp_path: Path) -> None:
    cal = Calibration(
        {"Alia": (1.5, 2.0), "Ben": (3.0, 4.0)}, (1280, 720), {"Alia": 0}, {0: (1.5, 2.0)}, 300.0
    )
    path = tmp_path / "sub" / "cal.json"
    cal.save(path)
    assert json.loads(path.read_text())["version"] == 1
    assert load_calibration(path) == cal


def test_broken_and_stale_files_get_clear_messages(tmp_path: Path) -> None:
    with pytest.raises(CalibrationError, match="no calibration file"):
        load_calibration(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(CalibrationError, match="not readable JSON"):
        load_calibration(bad)
    bad.write_text(json.dumps({"hello": 1}))
    with pytest.raises(CalibrationError, match="not a companion calibration"):
        load_calibration(bad)
    good = Calibration({"Alia": (1.0, 2.0)}, (1280, 720)).to_json()
    bad.write_text(json.dumps({**good, "version": 99}))
    with pytest.raises(CalibrationError, match="version 99"):
        load_calibration(bad)
    bad.write_text(json.dumps({**good, "seats": [{"name": "Alia"}]}))
    with pytest.raises(CalibrationError, match="damaged"):
        load_calibration(bad)
    bad.write_text(json.dumps(good))
    with pytest.raises(CalibrationError, match=r"1280x720.*1920x1080"):
        load_calibration(bad, image_size=(1920, 1080))


def test_marker_sheet_markers_are_detectable() -> None:
    sheet = marker_sheet(["Alia", "Ben", "Carmen"])
    assert sheet.shape == (1754, 1240)
    assert sorted(detect_markers(sheet)) == [0, 1, 2]


def test_calibrate_from_markers_and_follow_a_bumped_camera() -> None:
    cal = calibrate_from_markers(_table_with_markers(), PLAYERS)
    for name, (x, y) in zip(PLAYERS, ANCHORS, strict=True):
        assert cal.seats[name] == pytest.approx((x, y), abs=2)
    assert cal.markers == {"Alia": 0, "Ben": 1, "Carmen": 2, "Dori": 3}
    moved = MarkerWatch(cal).look(_table_with_markers(shift=(30, -20)))
    assert moved is not None
    assert moved.seats["Dori"] == pytest.approx((1160, 340), abs=2)
    assert MarkerWatch(cal).look(np.zeros((720, 1280, 3), np.uint8)) is None  # nothing seen


def test_missing_marker_is_named() -> None:
    image = _table_with_markers()
    image[560:680, 580:700] = 90  # hide marker 0
    with pytest.raises(CalibrationError, match=r"0 \(Alia\).*markers seen: 1, 2, 3"):
        calibrate_from_markers(image, PLAYERS)


def test_calibrate_from_cards_orders_players_clockwise_from_bottom() -> None:
    def quad(x: float, y: float) -> np.ndarray:
        return np.array([[x - 40, y - 56], [x + 40, y - 56], [x + 40, y + 56], [x - 40, y + 56]])

    shuffled = [quad(*ANCHORS[i]) for i in (2, 0, 3, 1)]
    cal = calibrate_from_cards(np.zeros((720, 1280, 3), np.uint8), PLAYERS, lambda img: shuffled)
    assert [cal.seats[p] for p in PLAYERS] == [pytest.approx(a) for a in ANCHORS]
    with pytest.raises(CalibrationError, match=r"found 2 cards.*4 players"):
        calibrate_from_cards(np.zeros((9, 9, 3), np.uint8), PLAYERS, lambda img: shuffled[:2])


def test_cli_markers_seats_and_show(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    sheet = tmp_path / "sheet.png"
    assert main(["calibrate", "markers", "--out", str(sheet), "--players", "A,B"]) == 0
    assert sorted(detect_markers(cv2.imread(str(sheet)))) == [0, 1]
    out = tmp_path / "cal.json"
    assert (
        main(["calibrate", "--seats", "A=1,2;B=3,4", "--size", "640x480", "--out", str(out)]) == 0
    )
    assert load_calibration(out).image_size == (640, 480)
    with pytest.raises(SystemExit) as refused:
        main(["calibrate", "--seats", "A=1,2;B=3,4", "--size", "12x", "--out", str(out)])
    assert refused.value.code == 2
    assert "expected WIDTHxHEIGHT" in capsys.readouterr().err
    photo = tmp_path / "photo.png"
    cv2.imwrite(str(photo), _table_with_markers())
    out2 = tmp_path / "cal2.json"
    assert (
        main(
            ["calibrate", "--image", str(photo), "--players", ",".join(PLAYERS), "--out", str(out2)]
        )
        == 0
    )
    assert main(["calibrate", "--show", str(out2)]) == 0
    shown = capsys.readouterr().out
    assert "Carmen: 640,100  (marker 2)" in shown
    # markers 72 px wide, printed 57 mm: cards of 88.9 mm look 111 px long, too short
    assert re.search(r"cards: about 11\d px long", shown)
    assert re.search(r"note: cards look about 11\d px long.*closer", shown)
    assert main(["calibrate", "--show", str(tmp_path / "none.json")]) == 2
    assert "no calibration file" in capsys.readouterr().err
    assert main(["calibrate", "--image", str(tmp_path / "none.png"), "--players", "A,B"]) == 2


def test_calibration_records_how_long_the_cards_look_and_says_when_too_short(
    tmp_path: Path,
) -> None:
    """Cards laid (their median long side) or printed markers (a card is 88.9 mm, a
    marker from the sheet 57 mm) say how long a card looks; under 150 px the table hears
    that real cards are missed more often; the length is kept in the file."""

    def quad(x: float, y: float, long: float) -> np.ndarray:
        half_w, half_h = long * 5 / 14, long / 2
        return np.array(
            [
                [x - half_w, y - half_h],
                [x + half_w, y - half_h],
                [x + half_w, y + half_h],
                [x - half_w, y + half_h],
            ]
        )

    blank = np.zeros((720, 1280, 3), np.uint8)
    quads = [quad(*a, long) for a, long in zip(ANCHORS, (90, 100, 110, 300), strict=True)]
    cal = calibrate_from_cards(blank, PLAYERS, lambda img: quads)
    assert cal.card_length == pytest.approx(105)
    advice = card_length_advice(cal)
    assert advice is not None and "about 105 px long" in advice and "closer" in advice
    in_turn = calibrate_cards_in_turn(
        [np.full((720, 1280, 3), k, np.uint8) for k in range(4)],
        PLAYERS,
        lambda image: quads[: int(image[0, 0, 0]) + 1],
    )
    assert in_turn.card_length == pytest.approx(105)
    markers = calibrate_from_markers(_table_with_markers(), PLAYERS)
    assert markers.card_length == pytest.approx(72 * 88.9 / 57.07, rel=0.02)
    # long enough, or not known (seats typed in): nothing to say
    big = [quad(*a, 200) for a in ANCHORS]
    assert card_length_advice(calibrate_from_cards(blank, PLAYERS, lambda img: big)) is None
    assert parse_seats("A=1,2;B=3,4").card_length is None
    assert card_length_advice(parse_seats("A=1,2;B=3,4")) is None
    # kept in the file; a file written before it was recorded reads as unknown
    path = tmp_path / "cal.json"
    cal.save(path)
    assert load_calibration(path).card_length == pytest.approx(105)
    data = json.loads(path.read_text())
    del data["card_length"]
    path.write_text(json.dumps(data))
    assert load_calibration(path).card_length is None
    for bad in (-3, "long", 0):
        path.write_text(json.dumps({**data, "card_length": bad}))
        with pytest.raises(CalibrationError, match=r"card length|damaged"):
            load_calibration(path)


def test_cards_laid_in_turn_need_no_seating_convention() -> None:
    def quad(x: float, y: float) -> np.ndarray:
        return np.array([[x - 40, y - 56], [x + 40, y - 56], [x + 40, y + 56], [x - 40, y + 56]])

    order = [ANCHORS[2], ANCHORS[0], ANCHORS[3], ANCHORS[1]]  # any seating
    pictures = [np.full((720, 1280, 3), k, np.uint8) for k in range(4)]

    def finder(image: np.ndarray) -> list[np.ndarray]:
        return [quad(*a) for a in order[: int(image[0, 0, 0]) + 1]]

    cal = calibrate_cards_in_turn(pictures, PLAYERS, finder)
    assert [cal.seats[p] for p in PLAYERS] == [pytest.approx(a) for a in order]
    with pytest.raises(
        CalibrationError, match=r"picture 2: expected exactly one new card \(for Ben\)"
    ):
        calibrate_cards_in_turn([pictures[0]] * 4, PLAYERS, finder)
    with pytest.raises(CalibrationError, match="one picture per player"):
        calibrate_cards_in_turn(pictures[:2], PLAYERS, finder)


def test_cli_camera_asks_each_player_in_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    from companion.vision import calibration, sources
    from companion.vision.types import Frame

    laid: list[int] = []
    asked: list[tuple[int, int] | None] = []

    class FakeCamera:
        def __init__(
            self, index: int, queue_size: int = 1, size: tuple[int, int] | None = None
        ) -> None:
            asked.append(size)

        def read(self, timeout: float = 1.0) -> Frame:
            return Frame(0, 0.0, np.full((720, 1280, 3), len(laid), np.uint8))

        def __enter__(self) -> "FakeCamera":
            return self

        def __exit__(self, *exc: object) -> None:
            pass

    def finder(image: np.ndarray) -> list[np.ndarray]:
        n = int(image[0, 0, 0])
        return [
            np.array([[x - 40, y - 56], [x + 40, y - 56], [x + 40, y + 56], [x - 40, y + 56]])
            for x, y in ANCHORS[:n]
        ]

    monkeypatch.setattr(sources, "CameraSource", FakeCamera)
    monkeypatch.setattr(calibration, "_default_finder", lambda: finder)
    monkeypatch.setattr("builtins.input", lambda prompt: laid.append(1))
    out = tmp_path / "cam.json"
    assert (
        main(["calibrate", "--camera", "0", "--players", ",".join(PLAYERS), "--out", str(out)]) == 0
    )
    assert load_calibration(out).seats["Carmen"] == pytest.approx(ANCHORS[2])
    assert load_calibration(out).image_size == (1280, 720)
    assert asked == [(1280, 720)]  # the size `companion play` asks the camera for too


def test_markers_on_a_rendered_tilted_table() -> None:
    from companion.vision.synth import DistractorSpec, Light, SceneSpec, render_scene, seat_places

    places = seat_places(4)

    def photo(shift: float) -> np.ndarray:
        markers = tuple(
            DistractorSpec("marker", (p.anchor[0] + shift, p.anchor[1]), 70, p.facing, marker_id=i)
            for i, p in enumerate(places)
        )
        light = Light(warmth=0.6, gradient=0.3, brightness=0.8)
        spec = SceneSpec(distractors=markers, table="wood-dark", tilt=30, light=light)
        return render_scene(spec)[0]

    cal = calibrate_from_markers(photo(0.0), PLAYERS)
    for name, place in zip(PLAYERS, places, strict=True):
        assert cal.seats[name] == pytest.approx(place.anchor, abs=3)
    bumped = MarkerWatch(cal).look(photo(25.0))
    assert bumped is not None
    assert bumped.seats["Alia"] == pytest.approx(
        (places[0].anchor[0] + 25, places[0].anchor[1]), abs=3
    )


def test_live_eyes_follow_the_markers_and_never_read_one_as_a_card() -> None:
    """Live play with marker seats: a bumped camera moves the seats, and a marker the
    finder takes for a card is dropped before the tracker sees it."""
    from companion.referee.eyes import VisionEyes
    from companion.vision.tracker import Tracker
    from companion.vision.types import CardReading, Frame

    cal = calibrate_from_markers(_table_with_markers(), PLAYERS)
    watch = MarkerWatch(cal, every=1)

    def square(x: float, y: float, half: float) -> np.ndarray:
        return np.float32([[x - half, y - half], [x + half, y - half], [x + half, y + half],
                           [x - half, y + half]])  # fmt: skip

    class Pipeline:  # the marker of Carmen read as a back, and one real card by Ben
        def read(self, image: np.ndarray) -> list[CardReading]:
            return [
                CardReading(square(640 + 30, 100 - 20, 40), "down", None, None, "back", 0.9),
                CardReading(square(250 + 30, 360 - 20, 50), "down", None, None, "back", 0.9),
            ]

    eyes = VisionEyes(Pipeline(), Tracker(cal, confirm=1), watch)
    bumped = _table_with_markers(shift=(30, -20))
    sight = eyes.see(Frame(0, 0.0, bumped))
    assert len(sight.readings) == 1  # the marker is no card
    assert watch.calibration.seats["Carmen"] == pytest.approx((670, 80), abs=2)
    assert sight.table.seats["Ben"].face_down == 1
    assert sight.table.seats["Carmen"].face_down == 0


def test_marker_watch_looks_every_few_frames_and_ignores_plain_seats() -> None:
    cal = calibrate_from_markers(_table_with_markers(), PLAYERS)
    watch = MarkerWatch(cal, every=3)
    bumped = _table_with_markers(shift=(30, -20))
    assert watch.look(bumped) is not None  # the first frame is looked at
    assert [watch.look(bumped) for _ in range(3)] == [None, None, None]  # no new bump
    assert not MarkerWatch(parse_seats("Alia=1,2;Ben=3,4")).active
    assert MarkerWatch(parse_seats("Alia=1,2;Ben=3,4")).look(bumped) is None
    with pytest.raises(ValueError, match="every must be"):
        MarkerWatch(cal, every=0)


def test_marker_watch_follows_a_camera_that_creeps() -> None:
    """Shifts each below the threshold still add up to a move of the seats."""
    cal = calibrate_from_markers(_table_with_markers(), PLAYERS)
    watch = MarkerWatch(cal, every=1)
    moves = [watch.look(_table_with_markers(shift=(dx, 0))) for dx in range(1, 9)]
    assert any(m is not None for m in moves)
    assert watch.calibration.seats["Dori"] == pytest.approx((1138, 360), abs=2)
