"""Which game the demo films, and the film's settings (shared by the CLI, bench and tests)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from companion.demo.film import CardLook, Instant, render_film, render_shots
from companion.demo.layout import TableLayout, table_layout
from companion.demo.pacing import script_game
from companion.demo.script import Moment, Pacing
from companion.referee.live import CallerMode, Timing
from companion.rules.events import GameConfig, GameEvent
from companion.rules.examples import DEMO_GAME, read_example
from companion.rules.simulate import random_game
from companion.rules.tablelog import read_table_log
from companion.vision.synth import CardTruth
from companion.vision.types import Frame

DEMO_PLAYERS = ("Alia", "Ben", "Carmen", "Dori")
DEMO_DECK = "demo-animals"
PLAYING_DECK = "playing-cards"
# The deck each rule setting plays with (RULES.md, "Rule settings"): a film's rule
# setting follows the deck it films.
DECK_OF_RULES = {"original": DEMO_DECK, "playing-cards": PLAYING_DECK}
RANDOM_GAME_ROUNDS = 8


@dataclass(frozen=True)
class DemoFilm:
    """A game, its script and how it is filmed."""

    config: GameConfig
    events: tuple[GameEvent, ...]
    moments: list[Moment]
    layout: TableLayout
    timing: Timing
    fps: float
    seed: int = 7
    caller: CallerMode = "companion"
    deck: str = DEMO_DECK
    pacing: Pacing = field(default_factory=Pacing)
    look: CardLook = field(default_factory=CardLook)

    @property
    def frames(self) -> int:
        return sum(max(1, round(m.seconds * self.fps)) for m in self.moments)

    def pictures(self) -> Iterator[tuple[Instant, Frame | None]]:
        """Every frame of the film in order, rendered (`film.render_film`), its cards drawn
        as `look` says: one place that hands the film's settings to the renderer."""
        return render_film(self.moments, self.layout, self.fps, self.seed, self.look)

    def shots(self) -> Iterator[tuple[Instant, Frame | None, list[CardTruth]]]:
        """`pictures` with the renderer's truth of every card in each (`film.render_shots`)."""
        return render_shots(self.moments, self.layout, self.fps, self.seed, self.look)


def load_game(log: Path | None = None, seed: int | None = None) -> tuple[GameConfig, tuple]:
    """The bundled demo game, a table log file, or a random legal game from `seed`.

    Raises `TableLogError` (line and problem) for a bad log, `OSError` for a missing file.
    """
    if log is not None:
        return read_table_log(log.read_text(encoding="utf-8"))
    if seed is not None:
        config = GameConfig(DEMO_PLAYERS)
        return config, random_game(config, random.Random(seed), max_rounds=RANDOM_GAME_ROUNDS)
    return read_table_log(read_example(DEMO_GAME))


def make_film(
    config: GameConfig,
    events: tuple[GameEvent, ...],
    *,
    fps: float = 15.0,
    size: tuple[int, int] = (960, 540),
    timing: Timing | None = None,
    seed: int = 7,
    caller: CallerMode = "companion",
    deck: str | None = None,
) -> DemoFilm:
    """Script `events` with `caller` calling, for a film of `size` at `fps` of `deck`'s
    cards (`DEMO_DECK` or `PLAYING_DECK`; None: the deck of the game's rule setting). The
    game takes the rule setting of the deck filmed (RULES.md pairs them). ValueError for
    playing cards past four players."""
    deck = deck or DECK_OF_RULES[config.rules]
    rules = next(rules for rules, its_deck in DECK_OF_RULES.items() if its_deck == deck)
    config = replace(config, rules=rules)
    look = CardLook.playing_cards(config.players) if deck == PLAYING_DECK else CardLook()
    timing = timing or Timing()
    moments = script_game(config, events, timing, caller=caller, fps=fps)
    layout = table_layout(config.players, size)
    return DemoFilm(
        config, events, moments, layout, timing, fps, seed, caller=caller, deck=deck, look=look
    )
