"""Scripted films: fixed table per game, seats and card places, hand sweeps."""

import numpy as np
import pytest

from companion.vision.synth import (
    CardSpec,
    FilmFrame,
    TableFilm,
    card_place,
    game_table,
    hand_sweep,
    seat_places,
)

SIZE = (640, 360)


def test_seats_go_clockwise_from_the_bottom_and_face_their_player() -> None:
    bottom, left, top, right = seat_places(4, SIZE)
    assert bottom.anchor[1] > 250 and top.anchor[1] < 110
    assert left.anchor[0] < 200 and right.anchor[0] > 440
    assert bottom.facing == pytest.approx(0)
    assert left.facing == pytest.approx(90)
    assert top.facing == pytest.approx(180)
    assert right.facing == pytest.approx(270)
    with pytest.raises(ValueError, match="2 to 5"):
        seat_places(6)


def test_card_places_make_a_row_across_the_players_view() -> None:
    seat = seat_places(4, SIZE)[0]
    centres = [card_place(seat, k, length=60)[0] for k in range(3)]
    assert centres[0][0] < centres[1][0] < centres[2][0]
    assert centres[1] == pytest.approx(seat.anchor)


def test_film_frames_share_the_table_and_are_reproducible() -> None:
    seat = seat_places(2, SIZE)[0]
    centre, angle = card_place(seat, 1, length=70)
    frame = FilmFrame(
        cards=(CardSpec("animals", 4, face="up", center=centre, angle=angle, length=70),)
    )
    film = TableFilm(game_table(3, SIZE))
    a, (truth,) = film.render(0, frame)
    b, _ = film.render(1, frame)
    again, _ = TableFilm(game_table(3, SIZE)).render(0, frame)
    assert np.array_equal(a, again)
    assert not np.array_equal(a, b)  # noise and flicker differ between frames
    assert float(np.abs(a.astype(int) - b.astype(int)).mean()) < 8  # but the table is the same
    assert truth.label == "owl" and truth.center == pytest.approx(centre, abs=2)


def test_a_hand_sweep_covers_the_card_on_its_way() -> None:
    card = CardSpec("animals", 1, face="down", center=(320, 180), length=80)
    hands = hand_sweep((760, 180), (100, 180), 9, width=90)
    assert hands[0].angle == pytest.approx(180)
    film = TableFilm(game_table(4, SIZE))
    visible = [
        film.render(i, FilmFrame((card,), hand))[1][0].visible for i, hand in enumerate(hands)
    ]
    assert visible[0] == pytest.approx(1.0, abs=0.02)
    assert min(visible) < 0.5
    with pytest.raises(ValueError, match="at least 1 frame"):
        hand_sweep((0, 0), (1, 1), 0)


def test_a_light_change_is_scripted_per_frame() -> None:
    film = TableFilm(game_table(5, SIZE))
    normal, _ = film.render(0, FilmFrame())
    dim, _ = film.render(0, FilmFrame(brightness=0.6))
    assert dim.mean() < 0.75 * normal.mean()
