"""Measure the card reader (`python -m models.train evaluate`): the figures in models/README.md.

No torch needed: this runs the shipped ONNX models through `companion.vision.read`.

- real photos (edje-aces `test_` split, never trained on): every card whose whole quad is
  found from its labelled box, read as the playing-cards deck;
- synthetic scenes from seeds never used in training (truth corners, cards at least 90%
  visible), for playing cards and for the unseen "woodland" animal edition enrolled from
  one flat picture per card.

A reading counts as right when face, rank and suit all match the truth; "misread" counts
any card reported as a game rank 1..5 that it is not (the error that spoils a game).
"""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np

from companion.vision.decks import enroll, load_deck
from companion.vision.read import CardReader
from companion.vision.synth import random_scene, render_scene
from companion.vision.types import CardReading

from .demo_deck import render_pictures
from .real_photos import RealCard, load_real_cards

SCENE_SEED = 900_000  # far from every training seed


def _score(truth: tuple, got: tuple, counts: Counter) -> None:
    """Tally one reading: (face, rank, suit) of the truth against the reading."""
    face, rank, _ = truth
    counts["cards"] += 1
    if got == truth:
        counts["right"] += 1
    elif got[1] is not None and got[1] != rank:
        counts["misread"] += 1
    elif face == "up" and rank is not None and got[1] is None:
        counts["unread"] += 1
    else:
        counts["other error"] += 1
    if rank is not None:
        counts["game cards"] += 1
        counts["game cards right"] += got == truth


def real_photos() -> Counter:
    """The playing-card reader on the real test split."""
    reader = CardReader(load_deck("playing-cards"))
    counts: Counter = Counter()
    for image, cards in load_real_cards():
        for card in cards:
            if card.split != "test" or card.corners is None:
                continue
            reading = reader.read_batch(image, [card.corners])[0]
            truth = _real_truth(card)
            _score(truth, _as_read(reading, truth), counts)
    return counts


def real_photos_detected() -> Counter:
    """Finder + reader on the real test split: each labelled card matched to a reading as
    `companion bench vision --real-photos` matches them (`bench.real_photos.match_labels`).

    A reading that matches no labelled card and reads as a game card counts as a
    "phantom game card"; labelled cards with no matching reading are "not found".
    """
    from companion.vision.bench.real_photos import match_labels
    from companion.vision.pipeline import CardPipeline

    pipeline = CardPipeline(load_deck("playing-cards"))
    counts: Counter = Counter()
    for image, cards in load_real_cards():
        if not cards or cards[0].split != "test":
            continue
        readings = pipeline.read(image)
        truths = [_real_truth(card) for card in cards]
        matches = match_labels(
            [c.box for c in cards],
            [r.corners for r in readings],
            image.shape[:2],
            _reads_truth(readings, truths),
        )
        for card, truth, best in zip(cards, truths, matches, strict=True):
            game = card.rank <= 5
            if best is None:
                counts["cards"] += 1
                counts["game cards"] += game
                counts["not found"] += 1
                continue
            _score(truth, _as_read(readings[best], truth), counts)
        counts["phantom game cards"] += sum(
            1 for i, r in enumerate(readings) if i not in matches and r.rank is not None
        )
    return counts


def _real_truth(card: RealCard) -> tuple:
    """(face, rank, suit) of a labelled real card as `_score` compares it: no rank nor suit
    for a 6..King."""
    game = card.rank <= 5
    return ("up", card.rank if game else None, card.suit if game else None)


def _reads_truth(readings: list[CardReading], truths: list[tuple]) -> Callable[[int, int], bool]:
    """`bench.real_photos.match_labels`' test of a pair: whether reading j reads truth i right."""
    return lambda i, j: _as_read(readings[j], truths[i]) == truths[i]


def _as_read(reading: CardReading, truth: tuple) -> tuple:
    """(face, rank, suit) of a reading as `_score` compares it with `truth`: its suit only
    where the truth is a game card."""
    return (reading.face, reading.rank, reading.suit if truth[1] is not None else None)


def synthetic(deck_name: str, scene_deck: str, edition: str | int | None, n: int) -> Counter:
    """A reader on `n` rendered 15-card scenes, read from the true corners."""
    reader = CardReader(load_deck(deck_name))
    return _read_scenes(reader, scene_deck, edition, n)


def _read_scenes(reader: CardReader, scene_deck: str, edition: str | int | None, n: int) -> Counter:
    rng = np.random.default_rng(SCENE_SEED)
    counts: Counter = Counter()
    for _ in range(n):
        spec = random_scene(rng, 15, scene_deck, edition=edition, hand_rate=0.0)
        image, truths = render_scene(spec)
        shown = [t for t in truths if t.visible >= 0.9]
        readings = reader.read_batch(image, [t.corners for t in shown])
        for t, r in zip(shown, readings, strict=True):
            _score((t.face, t.rank, t.suit), (r.face, r.rank, r.suit), counts)
    return counts


def synthetic_detected(deck_name: str, scene_deck: str, edition: str | None, n: int) -> Counter:
    """Finder + reader on `n` rendered scenes: each card matched to the nearest reading."""
    from companion.vision.geometry import quad_long_side
    from companion.vision.pipeline import CardPipeline

    pipeline = CardPipeline(load_deck(deck_name))
    rng = np.random.default_rng(SCENE_SEED)
    counts: Counter = Counter()
    for _ in range(n):
        spec = random_scene(rng, 15, scene_deck, edition=edition, hand_rate=0.0)
        image, truths = render_scene(spec)
        readings = pipeline.read(image)
        centres = np.array([r.center for r in readings]).reshape(-1, 2)
        for t in truths:
            if t.visible < 0.9:
                continue
            dist = np.linalg.norm(centres - np.array(t.center), axis=1)
            if len(dist) == 0 or dist.min() > 0.25 * quad_long_side(t.corners):
                counts["cards"] += 1
                counts["game cards"] += t.rank is not None
                counts["not found"] += 1
                continue
            r = readings[int(dist.argmin())]
            _score((t.face, t.rank, t.suit), (r.face, r.rank, r.suit), counts)
    return counts


def enrolled_unseen(edition: str, n: int) -> Counter:
    """Enroll an edition from one flat picture per card, then read it in scenes."""
    with tempfile.TemporaryDirectory() as tmp:
        pictures = render_pictures(Path(tmp) / "pictures", edition)
        profile = enroll("unseen", pictures, decks_dir=Path(tmp))
        return _read_scenes(CardReader(profile), "animals", edition, n)


def _line(name: str, c: Counter) -> str:
    game = c["game cards right"] / max(1, c["game cards"])
    return (
        f"{name}: {c['right']}/{c['cards']} right ({c['right'] / max(1, c['cards']):.1%}), "
        f"game cards {c['game cards right']}/{c['game cards']} ({game:.1%}), "
        f"misread as another rank {c['misread']}, unread {c['unread']}, "
        f"other errors {c['other error']}"
    )


def main(scenes: int = 40) -> None:
    print(_line("real photos, test split (playing-cards)", real_photos()))
    detected = real_photos_detected()
    print(
        _line("real photos, test split, found by the card finder", detected)
        + f", not found {detected['not found']}, "
        f"phantom game cards {detected['phantom game cards']}"
    )
    print(
        _line(
            f"synthetic playing cards, {scenes} scenes",
            synthetic("playing-cards", "playing-cards", None, scenes),
        )
    )
    print(
        _line(
            f"synthetic demo-animals (classic), {scenes} scenes",
            synthetic("demo-animals", "animals", "classic", scenes),
        )
    )
    animals = synthetic_detected("demo-animals", "animals", "classic", scenes)
    print(
        _line(f"synthetic demo-animals found by the card finder, {scenes} scenes", animals)
        + f", not found {animals['not found']}"
    )
    print(
        _line(
            f"playing cards shown to the demo-animals deck, {scenes} scenes",
            synthetic("demo-animals", "playing-cards", None, scenes),
        )
    )
    print(
        _line(
            f"unseen edition woodland enrolled from flat pictures, {scenes} scenes",
            enrolled_unseen("woodland", scenes),
        )
    )
