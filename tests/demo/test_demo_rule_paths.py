"""Short scripted games, rendered and played headless: each must give exactly its log.

Cards are read from the renderer's truth; the tracker, referee, engine and store are
the real ones (the camera-to-reader part is `companion bench vision`'s business).
"""

from __future__ import annotations

import pytest
from demo_films import film_of, play

GAME = '{"game": {"players": %s}}\n'
LONE_HUNTER_PREY_MISSED_ONE_SURVIVOR = GAME % '["Alia", "Ben", "Carmen", "Dori"]' + (
    '{"hunt": {"played": {"Alia": 1, "Ben": 4, "Carmen": 4, "Dori": 2},'
    ' "prey": {"Alia": 4, "Dori": 5}}}\n'
    '{"hunt": {"played": {"Alia": 2, "Dori": 1}, "prey": {"Dori": 2}}}\n'
)
BLOCKS_THREE_HUNTS_TIE_ON_SUMS = GAME % '["Alia", "Ben", "Carmen"]' + (
    '{"hunt": {"played": {"Alia": 3, "Ben": 3, "Carmen": 2}}}\n'
    '{"hunt": {"played": {"Alia": 4, "Ben": 5, "Carmen": 4}}}\n'
    '{"hunt": {"played": {"Alia": 2, "Ben": 1, "Carmen": 1}}}\n'
)
_TIED_ROUND = (
    '{"hunt": {"played": {"Alia": 1, "Ben": 1}}}\n'
    '{"hunt": {"played": {"Alia": 2, "Ben": 2}}}\n'
    '{"hunt": {"played": {"Alia": 3, "Ben": 3}}}\n'
)
TIE_ON_TOTALS = (
    GAME % '["Alia", "Ben"]'
    + _TIED_ROUND * 3
    + '{"hunt": {"played": {"Alia": 1, "Ben": 2}, "prey": {"Alia": 2}}}\n'
)


@pytest.mark.parametrize(
    "log",
    [LONE_HUNTER_PREY_MISSED_ONE_SURVIVOR, BLOCKS_THREE_HUNTS_TIE_ON_SUMS],
    ids=["lone-hunter-prey-missed-one-survivor", "blocks-three-hunts-tie-on-sums"],
)
@pytest.mark.parametrize("caller", ["table", "companion"])
def test_a_scripted_round_is_seen_exactly(tmp_path, log, caller):
    run = play(tmp_path, film_of(log, caller))
    assert run.seen_log == run.expected_log
    assert run.questions == []


def test_a_tie_on_totals_plays_on_to_the_winner(tmp_path):
    run = play(tmp_path, film_of(TIE_ON_TOTALS, "companion"))
    assert run.seen_log == run.expected_log
    said = [a.msg for a in run.announcements]
    assert "tie_play_on" in said
    assert said[-1] == "winner"
