"""render, rank_name, join_names and deck_for_rules: the words the table hears."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from companion.i18n import DECKS, LANGUAGES, deck_for_rules, join_names, rank_name, render
from companion.i18n.messages import MESSAGE_PARAMS


@dataclass(frozen=True)
class Note:
    """Stands in for rules.narration.Announcement (same shape)."""

    msg: str
    params: dict = field(default_factory=dict)


SAMPLE_VALUES = {
    "round": 2,
    "hunt": 1,
    "caller": "Dori",
    "players": ("Alia", "Ben"),
    "survivors": ("Alia", "Dori"),
    "rank": 3,
    "prey_rank": 4,
    "player": "Carmen",
    "hunter": "Carmen",
    "food": 2,
    "total": 8,
    "sum": 11,
    "reason": "highest",
    "totals": (("Alia", 6), ("Ben", 5)),
    "seat": "Carmen",
}


def _sample(msg: str) -> Note:
    return Note(msg, {name: SAMPLE_VALUES[name] for name in MESSAGE_PARAMS[msg]})


ENGLISH = {
    "round_start": "Round 2. Dori calls.",
    "hunt_start": "Hunt 1: Alia and Ben, play a card.",
    "call": "Lynx!",
    "nobody": "No lynx.",
    "lone_hunter": "Only Carmen. The lynx hunts: name your prey.",
    "lone_cannot_hunt": "Only Carmen. The lynx cannot hunt.",
    "blocked": "Alia and Ben: blocked.",
    "eaten": "The lynx eats Alia and Ben.",
    "prey_missing": "No owl to eat: nobody is eaten.",
    "declined": "Carmen does not hunt.",
    "hunt_end": "End of hunt 1. Alia and Dori survive.",
    "round_alone": "Carmen survives alone: 2 food.",
    "round_food": "Carmen, sum 11: 2 food.",
    "round_eaten": "Alia and Ben get nothing.",
    "totals": "Totals: Alia 6, Ben 5.",
    "tie_play_on": "Alia and Ben tie on 8: play on.",
    "winner": "Carmen wins with 8 food!",
    "undone": "Undone.",
    "camera_lost": "Camera lost: the game is paused.",
    "ask_unreadable": "Carmen, your card is unreadable: please straighten it.",
}


@pytest.mark.parametrize("msg", sorted(ENGLISH))
def test_english_matches_the_design_table(msg):
    assert render(_sample(msg)) == ENGLISH[msg]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("deck", DECKS)
def test_every_message_renders_fully(lang, deck):
    for msg in MESSAGE_PARAMS:
        text = render(_sample(msg), lang, deck)
        assert text and "{" not in text and "}" not in text, (lang, deck, msg, text)
        assert text[0].isupper(), (lang, msg, text)


@pytest.mark.parametrize(
    ("lang", "deck", "names"),
    [
        ("en", "animals", ["Bear", "Wolf", "Lynx", "Owl", "Mouse"]),
        ("fr", "animals", ["Ours", "Loup", "Lynx", "Hibou", "Souris"]),
        ("de", "animals", ["Bär", "Wolf", "Luchs", "Eule", "Maus"]),
        ("en", "playing-cards", ["Ace", "Two", "Three", "Four", "Five"]),
        ("fr", "playing-cards", ["As", "Deux", "Trois", "Quatre", "Cinq"]),
        ("de", "playing-cards", ["Ass", "Zwei", "Drei", "Vier", "Fünf"]),
    ],
)
def test_rank_names(lang, deck, names):
    assert [rank_name(rank, lang, deck) for rank in range(1, 6)] == names


def test_grammar_follows_the_language():
    assert render(Note("nobody", {"rank": 1}), "fr") == "Pas d'ours."
    assert render(Note("nobody", {"rank": 4}), "de") == "Keine Eule."
    assert render(Note("lone_cannot_hunt", {"player": "Ben", "rank": 5}), "fr").endswith(
        "La souris ne peut pas chasser."
    )
    assert render(Note("hunt_end", {"hunt": 2, "survivors": ("Dori",)})) == (
        "End of hunt 2. Dori survives."
    )
    one_food = Note("round_food", {"player": "A", "food": 1, "reason": "x", "sum": 6})
    assert render(one_food, "fr") == "A, somme 6 : 1 jeton de nourriture."


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("en", "Alia and Ben"), ("fr", "Alia et Ben"), ("de", "Alia und Ben")],
)
def test_join_names(lang, expected):
    assert join_names(("Alia", "Ben"), lang) == expected
    assert join_names(("Alia",), lang) == "Alia"
    assert join_names(("Alia", "Ben", "Carmen"), lang).startswith("Alia, Ben ")


def test_totals_accept_pairs_or_a_mapping():
    pairs = render(Note("totals", {"totals": (("Alia", 6), ("Ben", 5))}), "de")
    assert pairs == render(Note("totals", {"totals": {"Alia": 6, "Ben": 5}}), "de")
    assert pairs == "Stand: Alia 6, Ben 5."


def test_deck_for_rules():
    assert deck_for_rules("original") == "animals"
    assert deck_for_rules("playing-cards") == "playing-cards"
    with pytest.raises(ValueError, match="expected one of original, playing-cards"):
        deck_for_rules("poker")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: render(Note("call", {"rank": 1}), "it"), "unknown language 'it'"),
        (lambda: render(Note("call", {"rank": 1}), "en", "tarot"), "unknown deck 'tarot'"),
        (lambda: render(Note("shout", {})), "unknown message id 'shout'"),
        (lambda: render(Note("call", {})), "needs params rank"),
        (lambda: render(Note("call", {"rank": 6})), "rank must be an int from 1 to 5"),
        (lambda: render(Note("blocked", {"players": "Alia", "rank": 2})), "player names"),
        (lambda: render(Note("totals", {"totals": 5})), "totals must be"),
        (lambda: render(Note("winner", {"player": "A", "total": "8"})), "must be an int"),
    ],
)
def test_bad_input_says_what_was_expected(call, message):
    with pytest.raises(ValueError, match=message):
        call()
