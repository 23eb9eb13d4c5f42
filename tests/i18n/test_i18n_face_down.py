"""No speech ever names a face-down card: checked over generated games, every language.

The games come from the rules engine's random legal games, hunt by hunt, so the test
knows the true rank of every card lying face down. After each fact, every rank the
announcements name (as params, and as words in each language's text) must be public:
the rank being called, the prey a hunter named, or a card already face up.
"""

from __future__ import annotations

import random
import re

import pytest

from companion.i18n import LANGUAGES, deck_for_rules, rank_name, render
from companion.i18n.messages import RANK_PARAMS
from companion.rules.events import GameConfig, Hunted
from companion.rules.narration import announce, opening
from companion.rules.simulate import random_hunt
from companion.rules.state import GameState, apply, initial_state
from companion.rules.tablelog import hunt_events

PLAYERS = ("Alia", "Ben", "Carmen", "Dori")


def _face_up_ranks(state: GameState) -> set[int]:
    return {card.rank for seat in state.seats for card in seat.played if card.rank is not None}


def _named_in_text(text: str, rank: int, lang: str, deck: str) -> bool:
    word = rank_name(rank, lang, deck).lower()
    return re.search(rf"\b{re.escape(word)}\b", text.lower()) is not None


@pytest.mark.parametrize("rules", ["original", "playing-cards"])
@pytest.mark.parametrize("seed", range(6))
def test_no_announcement_names_a_face_down_card(rules, seed):
    rng = random.Random(seed)
    deck = deck_for_rules(rules)
    state = initial_state(GameConfig(PLAYERS, rules))
    checked = 0
    said = list(opening(state))
    assert said, "a game opens with something to say"
    while state.phase != "over" and state.round <= 12:
        played, prey = random_hunt(state, rng)
        events, _ = hunt_events(state, played, prey)
        for event in events:
            after = apply(state, event)
            hidden = {played[s.name] for s in after.seats if s.face_down}
            public = _face_up_ranks(state) | _face_up_ranks(after)
            public |= {state.call_rank, after.call_rank} - {None}
            if isinstance(event, Hunted):
                public.add(event.rank)
            secret = hidden - public
            for announcement in announce(state, event, after):
                for name in RANK_PARAMS:
                    assert announcement.params.get(name) not in secret, announcement
                for lang in LANGUAGES:
                    text = render(announcement, lang, deck)
                    named = [r for r in secret if _named_in_text(text, r, lang, deck)]
                    assert not named, f"{text!r} names face-down rank(s) {named}"
                checked += 1
            state = after
    assert checked > 20
