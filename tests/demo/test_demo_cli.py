"""`companion demo` and `companion play --video/--camera` from the command line."""

from __future__ import annotations

import pytest

from companion.cli import main
from companion.rules.tablelog import read_table_log, write_table_log

ONE_HUNT = (
    '{"game": {"players": ["Alia", "Ben"]}}\n'
    '{"hunt": {"played": {"Alia": 1, "Ben": 2}, "prey": {"Alia": 2}}}\n'
)
SEATS = "Alia=320,300;Ben=320,60"


def test_demo_refuses_a_bad_log_with_its_line(tmp_path, capsys):
    log = tmp_path / "bad.jsonl"
    log.write_text('{"game": {"players": ["Alia"]}}\n')
    assert main(["demo", "--headless", "--log", str(log)]) == 2
    assert "line 1" in capsys.readouterr().err


def test_demo_refuses_a_log_with_nothing_to_film(tmp_path, capsys):
    log = tmp_path / "empty.jsonl"
    log.write_text('{"game": {"players": ["Alia", "Ben"]}}\n')
    assert main(["demo", "--headless", "--log", str(log)]) == 2
    assert "no complete hunt" in capsys.readouterr().err


def test_demo_refuses_a_bad_size(capsys):
    with pytest.raises(SystemExit):
        main(["demo", "--headless", "--size", "big"])
    assert "WIDTHxHEIGHT" in capsys.readouterr().err


def test_play_without_a_camera_is_a_clear_error(capsys):
    assert main(["play", "--camera", "7", "--players", "Alia,Ben", "--seats", SEATS]) == 2
    assert "cannot open camera 7" in capsys.readouterr().err


def test_play_needs_players_and_seats(tmp_path, capsys):
    video = tmp_path / "none.mp4"
    video.write_bytes(b"")
    assert main(["play", "--video", str(video), "--headless", "--seats", SEATS]) == 2
    assert "--players" in capsys.readouterr().err
    assert main(["play", "--video", str(video), "--headless", "--players", "Alia,Ben"]) == 2
    assert "--seats" in capsys.readouterr().err
    args = ["play", "--video", str(video), "--players", "Alia,Ben", "--seats", "Alia=1,2"]
    assert main([*args, "--headless"]) == 2
    assert "one seat per player" in capsys.readouterr().err
    assert main([*args[:-1], SEATS, "--headless"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_a_saved_demo_video_replays_headless(tmp_path, capsys):
    log, video, out = tmp_path / "game.jsonl", tmp_path / "game.mp4", tmp_path / "out.jsonl"
    log.write_text(ONE_HUNT)
    size = ["--size", "960x540", "--fps", "10"]
    assert main(["demo", "--log", str(log), "--save-video", str(video), *size]) == 0
    printed = capsys.readouterr().out
    replay = printed.split("Replay it: companion ")[1].split()
    seats = printed.split('--seats "')[1].split('"')[0]
    assert replay[:2] == ["play", "--video"]
    args = ["play", "--video", str(video), "--headless", "--players", "Alia,Ben"]
    code = main([*args, "--seats", seats, "--log-out", str(out), "--db", str(tmp_path / "h.db")])
    assert code == 0
    assert "Totals:" in capsys.readouterr().out
    assert out.read_text() == write_table_log(*read_table_log(ONE_HUNT))


def test_the_live_bench_reports_delays_and_speed(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    log.write_text(ONE_HUNT)
    args = ["--eyes", "renderer", "--size", "640x360", "--fps", "10", "--log", str(log)]
    assert main(["bench", "live", *args]) == 0
    printed = capsys.readouterr().out
    assert "the referee saw the scripted game: yes" in printed
    assert "played    n=  2" in printed
    assert "revealed  n=  1" in printed
    assert "keeps up" in printed


def test_camera_play_resumes_the_last_unfinished_game(tmp_path, capsys):
    """`play --video ... --resume`: the game left unfinished goes on where it stopped,
    with its own players; no new game is started."""
    from companion.referee.session import GameSession
    from companion.rules.events import GameConfig
    from companion.store import Store

    log, video, out = tmp_path / "game.jsonl", tmp_path / "game.mp4", tmp_path / "out.jsonl"
    db = tmp_path / "h.db"
    log.write_text(ONE_HUNT)
    assert main(["demo", "--log", str(log), "--save-video", str(video), "--fps", "10"]) == 0
    seats = capsys.readouterr().out.split('--seats "')[1].split('"')[0]
    args = ["play", "--video", str(video), "--headless", "--seats", seats, "--db", str(db)]
    assert main([*args, "--resume"]) == 1
    assert "no unfinished game" in capsys.readouterr().err.lower()
    with Store(db) as store:
        game_id = GameSession.new(store, GameConfig(("Alia", "Ben"))).game_id
    assert main([*args, "--resume", "--log-out", str(out)]) == 0
    assert out.read_text() == write_table_log(*read_table_log(ONE_HUNT))
    with Store(db) as store:
        assert [g.id for g in store.games()] == [game_id]


def test_manual_play_refuses_a_camera(capsys):
    assert main(["play", "--manual", "--camera", "0"]) == 2
    assert "--manual is play without a camera" in capsys.readouterr().err


def test_play_refuses_seats_calibrated_on_pictures_of_another_size(tmp_path, capsys):
    """Anchors measured on 640x480 pictures would seat a 320x240 video's cards wrongly:
    the run is refused at once, saying both sizes; at the calibrated size it plays."""
    import numpy as np

    from companion.vision.calibration import Calibration
    from companion.vision.sources import VideoWriter

    video = tmp_path / "table.mp4"
    with VideoWriter(video, fps=10) as writer:
        for _ in range(3):
            writer.write(np.full((240, 320, 3), 90, np.uint8))
    seats = {"Alia": (160.0, 220.0), "Ben": (160.0, 20.0)}
    args = ["play", "--video", str(video), "--headless", "--players", "Alia,Ben"]
    args += ["--db", str(tmp_path / "h.db")]
    for size, code in (((640, 480), 2), ((320, 240), 0)):
        calibration = tmp_path / f"seats-{size[0]}.json"
        Calibration(seats=seats, image_size=size).save(calibration)
        assert main([*args, "--calibration", str(calibration)]) == code
        err = capsys.readouterr().err
        if code:
            assert "made on 640x480 pictures but video" in err
            assert "is 320x240: run `companion calibrate` again" in err


def test_play_says_when_the_cards_looked_too_short_at_calibration(tmp_path, capsys):
    """Seats calibrated from cards 90 px long: `play` says at the start that real cards
    that short are missed more often, and plays; from cards 200 px long it says nothing."""
    import numpy as np

    from companion.vision.calibration import Calibration
    from companion.vision.sources import VideoWriter

    video = tmp_path / "table.mp4"
    with VideoWriter(video, fps=10) as writer:
        for _ in range(3):
            writer.write(np.full((240, 320, 3), 90, np.uint8))
    args = ["play", "--video", str(video), "--headless", "--players", "Alia,Ben"]
    args += ["--db", str(tmp_path / "h.db")]
    for length, said in ((90.0, True), (200.0, False)):
        calibration = tmp_path / f"seats-{length:.0f}.json"
        seats = {"Alia": (160.0, 220.0), "Ben": (160.0, 20.0)}
        Calibration(seats=seats, image_size=(320, 240), card_length=length).save(calibration)
        assert main([*args, "--calibration", str(calibration)]) == 0
        err = capsys.readouterr().err
        assert ("companion play: cards look about 90 px long" in err) is said


def test_play_says_when_the_camera_gives_another_size_than_asked(monkeypatch, capsys):
    import argparse

    from companion.referee import live_play
    from companion.vision import sources
    from companion.vision.calibration import Calibration

    class Camera:
        def __init__(self, index: int, size: tuple[int, int] | None = None) -> None:
            self.asked = size

        def frame_size(self, timeout: float = 3.0) -> tuple[int, int]:
            return (640, 480)  # a webcam without 1280x720

        def close(self) -> None:
            pass

    monkeypatch.setattr(sources, "CameraSource", Camera)
    args = argparse.Namespace(camera=0, video=None, camera_size=(1280, 720))
    live_play._frames(args, Calibration({"Alia": (1.0, 2.0)}))
    assert "camera 0 gives 640x480 pictures, not the 1280x720 asked for" in (
        capsys.readouterr().err
    )
    args.camera_size = (640, 480)
    live_play._frames(args, Calibration({"Alia": (1.0, 2.0)}))
    assert capsys.readouterr().err == ""
