"""Where the tuning tables' cards are lost (`python -m models.train lost`).

The benchmark says how many cards a pipeline reads right, on held-out tables it must
never be tuned on. This says which cards it loses on tuning tables (seeds below the
benchmark's), scored exactly as the benchmark scores (`bench.tallies`), and for each of
them what the reader reads from the card's true outline. Why: a card read right from its
true outline was lost by the finders (no quad on it, or one too far off to read); one
read wrong even so was lost by the reader (covered, blurred, too small). The two call for
different work, and the split is the first thing to know before either.

No torch needed: this runs the shipped models through `companion.vision`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from companion.vision.bench.scenes import HELD_OUT_SEED, row_seed_offset, seed_offset, table_specs
from companion.vision.bench.tallies import MIN_CARD_LENGTH, VISIBLE, match_truths, reads_truth
from companion.vision.bench.timing import IN_DOUBT_STAGE, pipeline_for
from companion.vision.geometry import quad_iou, quad_long_side
from companion.vision.read import CardReader
from companion.vision.stages import counting
from companion.vision.synth import CardTruth, SceneSpec, render_scene
from companion.vision.types import CardReading

# The tuning tables models/README.md quotes, by the seed of the first.
FIRST_TABLES = {"playing-cards": 4_200_000, "animals": 4_800_000}
# and its tuning tables laid in rows (`--rows`: `bench.scenes.row_scenes`), the playing
# deck's first; the animals' lie `row_seed_offset` further on (4,470,000+)
FIRST_ROW_TABLES = 4_450_000


@dataclass(frozen=True)
class LostCard:
    """A card the pipeline did not read right: the table's seed, the card, the reading
    that stands for it (None where none does: not found), the best overlap (IoU) of any
    reading with it, what the reader reads from its true outline, whether the first look
    left its frame in doubt (`fusion.in_doubt`: the edge finder and the searches for
    badly outlined cards ran) or settled it, and the table's motion blur (pixels; 0 on
    most tables), which smears what the reader needs most: the indices."""

    seed: int
    truth: CardTruth
    reading: CardReading | None
    best_iou: float
    from_outline: CardReading
    in_doubt: bool
    motion_blur: float = 0.0

    @property
    def finders_lost_it(self) -> bool:
        """Read right from its true outline: the quads, not the reader, lost it."""
        return reads_truth(self.from_outline, self.truth)

    def line(self) -> str:
        t = self.truth
        card = "back" if t.face == "down" else f"rank {t.rank}" if t.rank else "6..King"
        if t.rank and t.suit:
            card += f" of {t.suit}"
        got = (
            f"read {self.reading.label} {self.reading.confidence:.2f}"
            if self.reading is not None
            else f"not found (best IoU {self.best_iou:.2f})"
        )
        outline = self.from_outline
        return (
            f"{self.seed} {card}, {quad_long_side(t.corners):.0f} px, {t.visible:.0%} in sight: "
            f"{got}; from its true outline {outline.label} {outline.confidence:.2f}"
            + (" (right)" if self.finders_lost_it else "")
            + ("" if self.in_doubt else "; the first look settled its frame")
            + (f"; motion blur {self.motion_blur:.1f} px" if self.motion_blur else "")
        )


def lost_cards(
    deck: str, tables: int, first: int | None = None, rows: bool = False
) -> Iterator[LostCard]:
    """The cards the default pipeline for `deck` loses on `tables` tuning tables seeded
    from `first` (by default `FIRST_TABLES`; with `rows`, tables laid in touching rows
    from `FIRST_ROW_TABLES`), counted as the benchmark counts them."""
    first, specs = _tuning_tables(deck, tables, first, rows)
    pipeline = pipeline_for(deck, "both")
    reader = CardReader(pipeline.deck)  # the pipeline's own, read from true outlines
    for index, spec in enumerate(specs):
        image, truths = render_scene(spec)
        with counting() as spent:  # which stages ran: the edge finder only in doubt
            readings = pipeline.read(image)
        for truth, best in zip(truths, match_truths(readings, truths), strict=True):
            if truth.visible < VISIBLE:
                continue  # the benchmark does not count it
            reading = readings[best] if best is not None else None
            if reading is not None and reads_truth(reading, truth):
                continue
            ious = [quad_iou(r.corners, truth.corners) for r in readings]
            yield LostCard(
                first + index,
                truth,
                reading,
                max(ious, default=0.0),
                reader.read_batch(image, [truth.corners])[0],
                IN_DOUBT_STAGE in spent,
                spec.motion_blur,
            )


def _tuning_tables(
    deck: str, tables: int, first: int | None, rows: bool
) -> tuple[int, Iterator[SceneSpec]]:
    """The first table's own seed (`first`, by default `FIRST_TABLES`, or with `rows`
    `FIRST_ROW_TABLES` and the deck's offset) and the tables' specs; never a held-out one."""
    offset = row_seed_offset(deck) if rows else seed_offset(deck)
    if first is None:
        first = FIRST_ROW_TABLES + offset if rows else FIRST_TABLES[deck]
    if first + tables > HELD_OUT_SEED:  # every benchmark table, rows too, lies beyond
        raise ValueError(
            f"tables from {first:,} run into the held-out seeds ({HELD_OUT_SEED:,} on): "
            "the benchmark's tables are never looked into"
        )
    # the seeds said are the tables' own: the scene makers add the deck's offset
    return first, table_specs(deck, tables, first - offset, rows=rows)


def main(deck: str, tables: int, first: int | None = None, rows: bool = False) -> None:
    """Print each lost card, then how many the finders and the reader lost."""
    lost = []
    for card in lost_cards(deck, tables, first, rows):
        print(card.line(), flush=True)
        lost.append(card)
    small = sum(quad_long_side(c.truth.corners) < MIN_CARD_LENGTH for c in lost)
    outlined = sum(c.finders_lost_it for c in lost)
    print(
        f"{deck}, {tables} tuning tables{' laid in rows' if rows else ''}: "
        f"{len(lost)} cards lost ({small} under "
        f"{MIN_CARD_LENGTH:.0f} px); {outlined} read right from their true outline (the "
        f"finders lost them), {len(lost) - outlined} not (the reader did)"
    )
    if lost:
        share = np.mean([c.reading is None for c in lost])
        settled = sum(not c.in_doubt for c in lost)
        print(f"not found at all: {share:.0%}; in frames the first look settled: {settled}")
        shaken = sum(s.motion_blur > 0 for s in _tuning_tables(deck, tables, first, rows)[1])
        blurred = [c for c in lost if c.motion_blur]
        by_reader = sum(not c.finders_lost_it for c in blurred)
        print(
            f"on the {shaken} of {tables} tables with motion blur: {len(blurred)} "
            f"({by_reader} lost by the reader)"
        )
