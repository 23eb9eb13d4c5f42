"""Live play without the dashboard: frames in, the game's events printed, a table log out.

Used by `companion play --video FILE --headless` and `companion demo --headless`. The
printed lines are for people (frame number, time, the fact, what the companion says);
the table log written with `--log-out` is the machine-readable result.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TextIO

from companion.i18n import deck_for_rules, render
from companion.referee.eyes import VisionEyes
from companion.referee.live import LiveReferee, RefereeOutput
from companion.rules.events import GameEvent
from companion.rules.state import GameState
from companion.vision.types import Frame


class EventPrinter:
    """Prints each recorded fact, announcement and question once, as they happen."""

    def __init__(self, out: TextIO, lang: str = "en", rules: str = "original") -> None:
        self.out = out
        self.lang = lang
        self.deck = deck_for_rules(rules)
        self._asked: set[int] = set()

    def show(self, frame: int, t: float, output: RefereeOutput) -> None:
        for event in output.events:
            print(f"frame {frame:6d} {t:8.2f}s  {describe_event(event)}", file=self.out)
        for announcement in output.announcements:
            print(f"{'':23s}  > {render(announcement, self.lang, self.deck)}", file=self.out)
        question = output.question
        if question is not None and question.id not in self._asked:
            self._asked.add(question.id)
            keys = ", ".join(f"{a.key}: {a.label}" for a in question.answers)
            text = render(question.announcement, self.lang, self.deck)
            print(f"{'':23s}  ? {text} [{keys}]", file=self.out)


def describe_event(event: GameEvent) -> str:
    """A fact in one short line: `Revealed Ben 3`."""
    fields = [str(v) if not isinstance(v, tuple) else ",".join(v) or "-" for v in _values(event)]
    return " ".join([type(event).__name__, *fields])


def _values(event: GameEvent) -> tuple[object, ...]:
    return tuple(getattr(event, name) for name in getattr(event, "__slots__", ()))


def play_frames(
    referee: LiveReferee,
    frames: Iterable[Frame],
    eyes: VisionEyes,
    show: Callable[[int, float, RefereeOutput], None],
) -> int:
    """Every frame through the eyes and the referee; returns the number of frames."""
    count = 0
    last_t = 0.0
    for frame in frames:
        count += 1
        last_t = frame.t
        show(frame.id, frame.t, referee.on_table(eyes.see(frame).table))
    show(count, last_t, referee.camera_lost())
    return count


def final_scores(state: GameState) -> str:
    """`Totals: Alia 6, Ben 5 (finished, Alia wins)` for the end of a run."""
    totals = ", ".join(f"{name} {total}" for name, total in state.totals.items())
    if state.winner is not None:
        return f"Totals: {totals} (finished: {state.winner} wins)"
    return f"Totals: {totals} (in progress: round {state.round}, hunt {state.hunt})"
