"""Reading the finders' quads, each once a frame: a quad read earlier this frame is not
read again, and twins share a sure reading. `FrameReads` carries one frame's readings
through the searches that follow them (sides, pairs, cut-out cards)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..decks import PLAYING_CARDS
from ..detect import as_bgr
from ..read import CardReader
from ..types import CardReading
from .candidates import Candidates, edge_twins
from .levels import SURE_ENOUGH, mostly_on, preference, reads_sure


def read_quads(
    image: np.ndarray, reader: CardReader, found: Candidates, known: dict[bytes, CardReading]
) -> list[CardReading]:
    """One reading per quad of `found.quads`. A learned quad that is an edge quad's twin
    (`edge_twins`) is read only where that edge quad's reading is not sure; otherwise it
    shares it (both would read the same). The other way round, an edge quad whose learned
    twin was read for sure earlier this frame (`known`: the first look's) shares that
    reading: 2.5-3% less time per frame on average on the tuning tables (both ways frame
    by frame in one process), the same cards read right, and a 6..King two-thirds in
    sight read besides."""
    edge_count = len(found.edges)
    twins = {edge_count + j: e for j, e in edge_twins(found).items()}
    read_before = _twins_read_before(found, twins, known)
    first = [i for i in range(len(found.quads)) if i not in twins and i not in read_before]
    read = read_at(image, reader, found.quads, first, known)
    read.update(read_before)
    unsure = [index for index, e in twins.items() if preference(read[e]) < (True, SURE_ENOUGH)]
    read.update(read_at(image, reader, found.quads, unsure, known))
    for index, e in twins.items():
        read.setdefault(index, read[e])
    return [read[index] for index in range(len(found.quads))]


def _twins_read_before(
    found: Candidates, twins: Mapping[int, int], known: Mapping[bytes, CardReading]
) -> dict[int, CardReading]:
    """For each edge quad (by index in `found.quads`) whose learned twin (`twins`: learned
    index -> edge index) reads a card for sure in `known`, that reading."""
    out: dict[int, CardReading] = {}
    for index, e in twins.items():
        earlier = known.get(found.quads[index].tobytes())
        if e not in out and earlier is not None and reads_sure(earlier):
            out[e] = earlier
    return out


def read_at(
    image: np.ndarray,
    reader: CardReader,
    quads: Sequence[np.ndarray],
    indices: list[int],
    known: dict[bytes, CardReading],
) -> dict[int, CardReading]:
    """The readings of `quads[i]` for each i of `indices`, those not in `known` (by their
    corners: read earlier this frame) in one batch, then known too."""
    new = [index for index in indices if quads[index].tobytes() not in known]
    batch = reader.read_batch(image, [quads[index] for index in new])
    for index, reading in zip(new, batch, strict=True):
        known[quads[index].tobytes()] = reading
    return {index: known[quads[index].tobytes()] for index in indices}


@dataclass(frozen=True)
class FrameReads:
    """One frame as its first readings left it, for the searches that follow them (sides,
    pairs, cut-out cards): the frame and its reader, what the finders found, a reading per
    quad of `found.quads` (`readings`, the edge quads' first), the readings of learned
    quads' rough rectangles (`rough`, by learned index: those whose placed quad read
    unsure, with the side search's better readings in their place once it has run), and
    every quad read this frame by its corners (`known`, filled as quads are read, so that
    none is read twice)."""

    image: np.ndarray
    reader: CardReader
    found: Candidates
    readings: Sequence[CardReading]
    rough: Mapping[int, CardReading]
    known: dict[bytes, CardReading]

    @property
    def colour(self) -> np.ndarray:
        """The frame as BGR uint8, as placing quads on the cards' edges takes it."""
        return as_bgr(self.image)

    @property
    def enrolled(self) -> bool:
        """Whether the deck is an enrolled one (animals), not the built-in playing cards."""
        return self.reader.deck.kind != PLAYING_CARDS

    def read(self, quads: Sequence[np.ndarray]) -> list[CardReading]:
        """A reading of each of `quads`, in their order, each quad read once a frame
        (`read_at`)."""
        return list(
            read_at(self.image, self.reader, quads, list(range(len(quads))), self.known).values()
        )

    def placed(self, index: int) -> CardReading:
        """The reading of learned quad `index`'s placed quad."""
        return self.readings[len(self.found.edges) + index]

    def unsure_outlines(self, sure: Sequence[np.ndarray]) -> list[tuple[np.ndarray, ...]]:
        """The outlines of cards read unsure, as `pairs.stand_for` takes them: each learned
        quad of `unsure_learned` with its rough rectangle, and each edge quad the net sees
        card under (`Candidates.net_agrees`) that reads no card for sure and does not lie
        mostly on one of the `sure` quads."""
        found = self.found
        learned = [
            (found.learned[index], found.rough[index]) for index in self.unsure_learned(sure)
        ]
        edges = zip(found.edges, self.readings[: len(found.edges)], found.net_agrees, strict=True)
        return learned + [
            (quad,)
            for quad, reading, agrees in edges
            if agrees and not reads_sure(reading) and not mostly_on(quad, sure)
        ]

    def unsure_learned(self, sure: Sequence[np.ndarray]) -> list[int]:
        """The learned quads with a rough reading that read no card for sure, placed or
        rough, and do not lie mostly (`INSIDE_SURE`) on one of the `sure` quads: cards
        whose outline may be off."""
        return [
            index
            for index in self.rough
            if not (reads_sure(self.placed(index)) or reads_sure(self.rough[index]))
            and not mostly_on(self.found.learned[index], sure)
        ]
