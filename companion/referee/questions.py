"""Questions the live referee puts to the table, and the actions their answers carry.

The camera sometimes sees something the rules cannot accept (an early flip, a rank
played twice, a card in an eaten player's seat, an unreadable card) or cannot decide on
its own (prey or next call?). The referee then asks; the game waits and nothing is
recorded until a key answers. The UI shows `Question.announcement` rendered in the
table's language and hands the chosen `Answer.action` back to `LiveReferee.answer`.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.events import RANKS
from companion.rules.narration import Announcement


@dataclass(frozen=True, slots=True)
class Answer:
    """One possible answer: a single key, a short English label, what it does."""

    key: str
    label: str
    action: object


@dataclass(frozen=True, slots=True)
class Question:
    """An open question for the table; `answers` start with the most likely one."""

    id: int
    announcement: Announcement
    answers: tuple[Answer, ...]


@dataclass(frozen=True, slots=True)
class WaitForTable:
    """Nothing to record: the table fixes the cards (turns one back, straightens it)."""


@dataclass(frozen=True, slots=True)
class ReadAs:
    """The card the camera reads as `seen` (None: unreadable) in `seat` is really `rank`."""

    seat: str
    seen: int | None
    rank: int


@dataclass(frozen=True, slots=True)
class PreyOrCall:
    """Resolves the prey-or-next-call doubt: `eaten` True means the hunter ate them."""

    eaten: bool


def rank_answers(seat: str, seen: int | None, ranks: tuple[int, ...]) -> tuple[Answer, ...]:
    """One `ReadAs` answer per plausible rank, keyed by the rank's digit."""
    return tuple(
        Answer(str(rank), f"it is a {rank}", ReadAs(seat, seen, rank))
        for rank in ranks
        if rank in RANKS
    )


WAIT_ANSWER = Answer("w", "wait: the table fixes it", WaitForTable())
