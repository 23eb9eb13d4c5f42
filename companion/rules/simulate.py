"""Random legal games: for property tests, benchmarks and the demo.

Choices are drawn from a `random.Random` so a seed gives the same game every time.
"""

from __future__ import annotations

import random

from companion.rules.events import GameConfig, GameEvent
from companion.rules.state import GameState, IllegalMove, initial_state
from companion.rules.tablelog import hunt_events


def random_hunt(state: GameState, rng: random.Random) -> tuple[dict[str, int], dict[str, int]]:
    """A legal hunt line for `state` (phase "play" at the start of a hunt).

    Each player still in the round plays a card left in hand; a random subset of players
    gets a prey rank above their card (it is used only if they become a lone revealer).
    """
    played = {s.name: rng.choice(sorted(s.hand)) for s in state.seats if not s.eaten}
    prey = {
        name: rng.randint(rank + 1, 5)
        for name, rank in played.items()
        if rank < 5 and rng.random() < 0.7
    }
    return played, _usable_prey(state, played, prey)


def _usable_prey(state: GameState, played: dict[str, int], prey: dict[str, int]) -> dict[str, int]:
    """Keep only the prey of players who will be the lone revealer of their call.

    Worked out by trying the hunt: a table log may name prey only for lone revealers.
    """
    used: dict[str, int] = {}
    for name, rank in prey.items():
        try:
            hunt_events(state, played, {**used, name: rank})
        except IllegalMove:
            continue
        used[name] = rank
    return used


def random_game(
    config: GameConfig, rng: random.Random, max_rounds: int = 40
) -> tuple[GameEvent, ...]:
    """The facts of a random legal game, until someone wins or `max_rounds` rounds pass."""
    state = initial_state(config)
    events: list[GameEvent] = []
    while state.phase != "over" and state.round <= max_rounds:
        played, prey = random_hunt(state, rng)
        new_events, state = hunt_events(state, played, prey)
        events.extend(new_events)
    return tuple(events)
