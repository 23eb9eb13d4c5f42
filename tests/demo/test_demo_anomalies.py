"""Anomalies on a filmed game: each ends with the right log and nothing lost."""

from __future__ import annotations

import math
from dataclasses import replace

from demo_films import film_of, play

from companion.demo.script import Moment

GAME = (
    '{"game": {"players": ["Alia", "Ben", "Carmen", "Dori"]}}\n'
    '{"hunt": {"played": {"Alia": 1, "Ben": 4, "Carmen": 4, "Dori": 2},'
    ' "prey": {"Alia": 4, "Dori": 5}}}\n'
)


def first_moment(moments: list[Moment], test) -> int:
    return next(i for i, m in enumerate(moments) if test(m))


def turned(moment: Moment, name: str, face: str) -> dict:
    """The moment's seats with `name`'s last card turned to `face`."""
    seat = moment.seats[name]
    rank, _ = seat.played[-1]
    return {**moment.seats, name: replace(seat, played=(*seat.played[:-1], (rank, face)))}


def test_an_early_flip_turned_back_is_asked_and_not_recorded(tmp_path):
    film = film_of(GAME)
    moments = film.moments
    at = first_moment(moments, lambda m: m.seats["Alia"].played and m.hand_at is None)
    down = moments[at]
    up = turned(down, "Alia", "up")
    flip = [
        Moment(0.3, up, hand_at=("Alia", 0)),
        Moment(2.0, up),
        Moment(0.3, down.seats, hand_at=("Alia", 0)),
    ]
    run = play(tmp_path, replace(film, moments=[*moments[: at + 1], *flip, *moments[at + 1 :]]))
    assert [q.announcement.msg for q in run.questions] == ["ask_early_flip"]
    assert run.seen_log == run.expected_log


def test_a_misread_card_is_corrected_by_key(tmp_path):
    film = film_of(GAME)
    dori = film.layout.seats["Dori"].anchor

    def unreadable_wolf(instant, reading):
        x, y = reading.center
        near_dori = math.hypot(x - dori[0], y - dori[1]) < 1.5 * film.layout.card_length
        if near_dori and reading.face == "up" and reading.rank == 2:
            return replace(reading, rank=None, label="other")
        return reading

    def operator(question):
        assert question.announcement.msg == "ask_unreadable"
        return next(a.action for a in question.answers if a.key == "2")

    run = play(tmp_path, film, misread=unreadable_wolf, answer=operator)
    assert len(run.questions) == 1
    assert run.seen_log == run.expected_log


def test_a_hand_over_the_cards_changes_nothing(tmp_path):
    film = film_of(GAME)
    moments = film.moments
    at = first_moment(moments, lambda m: any(f == "up" for _, f in m.seats["Alia"].played))
    still = moments[at + 1]
    covering = Moment(2.0, still.seats, hand_at=("Carmen", 0))
    run = play(tmp_path, replace(film, moments=[*moments[: at + 2], covering, *moments[at + 2 :]]))
    assert run.questions == []
    assert run.seen_log == run.expected_log


def test_a_camera_dropout_pauses_and_loses_nothing(tmp_path):
    film = film_of(GAME)
    moments = film.moments
    at = first_moment(moments, lambda m: any(f == "up" for _, f in m.seats["Alia"].played))
    lost = Moment(2.0, moments[at + 1].seats, camera=False)
    run = play(tmp_path, replace(film, moments=[*moments[: at + 2], lost, *moments[at + 2 :]]))
    said = [a.msg for a in run.announcements]
    assert said.count("camera_lost") == 1
    assert said.count("camera_back") == 1
    assert said.index("camera_lost") < said.index("camera_back")
    assert run.seen_log == run.expected_log
