"""The demo of the playing-card variant: Aces to 5s, a suit per player, filmed and read
through the real pipeline with the rule setting of that deck."""

from __future__ import annotations

from companion.cli import main
from companion.demo.film import PLAYER_SUITS, render_shots
from companion.demo.game import make_film
from companion.rules.tablelog import read_table_log

ONE_ROUND = (
    '{"game": {"players": ["Alia", "Ben", "Carmen"]}}\n'
    '{"hunt": {"played": {"Alia": 1, "Ben": 3, "Carmen": 2}, "prey": {"Alia": 3}}}\n'
    '{"hunt": {"played": {"Alia": 2, "Carmen": 1}, "prey": {"Carmen": 2}}}\n'
)
FIVE_PLAYERS = (
    '{"game": {"players": ["Alia", "Ben", "Carmen", "Dori", "Emil"]}}\n'
    '{"hunt": {"played": {"Alia": 1, "Ben": 2, "Carmen": 3, "Dori": 4, "Emil": 5}}}\n'
)


def test_the_playing_card_demo_sees_the_scripted_game_through_the_real_pipeline(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    log.write_text(ONE_ROUND)
    args = ["demo", "--headless", "--log", str(log), "--size", "960x540", "--fps", "10"]
    code = main([*args, "--deck", "playing-cards"])
    printed = capsys.readouterr().out
    assert "The pipeline saw exactly the scripted game." in printed, printed
    assert "Ace!" in printed  # the calls name the playing cards' ranks
    assert code == 0


def test_a_film_of_playing_cards_gives_each_seat_its_suit_and_the_rules_of_that_deck():
    config, events = read_table_log(ONE_ROUND)
    film = make_film(config, events, fps=5, size=(640, 360), deck="playing-cards")
    assert film.config.rules == "playing-cards" and film.deck == "playing-cards"
    suits = dict(zip(config.players, PLAYER_SUITS, strict=False))
    _, _, truths = next(s for s in render_shots(film.moments, film.layout, 5, 7, film.look) if s[2])
    seats = film.layout.anchors()
    for truth in truths:
        nearest = min(seats, key=lambda name: _distance(seats[name], truth.corners.mean(axis=0)))
        assert (truth.spec.deck, truth.spec.suit) == ("playing-cards", suits[nearest])
    assert make_film(config, events, fps=5, size=(640, 360)).config.rules == "original"


def test_a_playing_card_game_log_is_filmed_in_playing_cards_unless_asked_otherwise():
    config, events = read_table_log(ONE_ROUND.replace('"]}}', '"], "rules": "playing-cards"}}', 1))
    assert make_film(config, events, fps=5, size=(640, 360)).deck == "playing-cards"
    animals = make_film(config, events, fps=5, size=(640, 360), deck="demo-animals")
    assert (animals.deck, animals.config.rules) == ("demo-animals", "original")


def test_the_playing_card_demo_refuses_a_fifth_player_with_why(tmp_path, capsys):
    log = tmp_path / "five.jsonl"
    log.write_text(FIVE_PLAYERS)
    assert main(["demo", "--headless", "--log", str(log), "--deck", "playing-cards"]) == 2
    assert "2 to 4 players, one suit each; this game has 5" in capsys.readouterr().err


def test_the_live_bench_films_playing_cards_too(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    log.write_text(ONE_ROUND)
    args = ["--size", "640x360", "--fps", "10", "--log", str(log), "--deck", "playing-cards"]
    assert main(["bench", "live", "--eyes", "renderer", *args]) == 0
    assert "the referee saw the scripted game: yes" in capsys.readouterr().out
    log.write_text(FIVE_PLAYERS)
    assert main(["bench", "live", "--eyes", "renderer", *args]) == 2
    assert "this game has 5" in capsys.readouterr().err


def _distance(a, b) -> float:
    return float(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5)
