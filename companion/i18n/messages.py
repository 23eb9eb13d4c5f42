"""The message ids the rules layer announces, and the params each one carries.

This mirrors the table "Message ids and params" of docs/design.md. It lives here so the
catalogues can be checked against it (every id in every language, no placeholder that the
announcement does not provide) without importing the rules layer.
"""

from __future__ import annotations

from collections.abc import Mapping

MESSAGE_PARAMS: Mapping[str, tuple[str, ...]] = {
    "round_start": ("round", "caller"),
    "hunt_start": ("hunt", "caller", "players"),
    "call": ("rank",),
    "nobody": ("rank",),
    "lone_hunter": ("player", "rank"),
    "lone_cannot_hunt": ("player", "rank"),
    "blocked": ("players", "rank"),
    "eaten": ("hunter", "rank", "prey_rank", "players"),
    "prey_missing": ("hunter", "prey_rank"),
    "declined": ("player",),
    "hunt_end": ("hunt", "survivors"),
    "round_alone": ("round", "player", "food"),
    "round_food": ("player", "food", "reason", "sum"),
    "round_eaten": ("players",),
    "totals": ("totals",),
    "tie_play_on": ("players", "total"),
    "winner": ("player", "total"),
    "undone": (),
    "corrected": (),
    "ask_unreadable": ("seat",),
    "ask_disagree": ("seat",),
    "ask_early_flip": ("seat",),
    "ask_eaten_card": ("seat",),
    "ask_prey_or_call": ("seat", "rank"),
    "ask_played_twice": ("seat", "rank"),
    "camera_lost": (),
    "camera_back": (),
}

# Messages whose wording depends on a count ("Dori survives" / "Alia and Dori survive"):
# each catalogue holds them as gettext plural entries, chosen by the count of this param.
COUNTED_BY: Mapping[str, str] = {
    "hunt_end": "survivors",
    "round_eaten": "players",
    "round_food": "food",
}

# Params that are ranks: templates may use {rank} ("Bear"), {rank_the} ("the bear") and
# {rank_no} ("no bear"), so that articles and negation follow each language's grammar.
RANK_PARAMS = ("rank", "prey_rank")
RANK_FORMS = ("", "_the", "_no")

# Params that are amounts of food: templates may also use {food_amount} ("2 food",
# "1 jeton"), a plural entry of the catalogue.
AMOUNT_PARAMS = ("food", "total")

# Params that are lists of player names, spoken as "Alia, Ben and Carmen".
NAME_LIST_PARAMS = ("players", "survivors")

# Messages that are the calls themselves: synthesized ahead, and they cut in.
CALL_MESSAGE = "call"
