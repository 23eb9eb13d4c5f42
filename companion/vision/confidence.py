"""The scale of a reading's confidence, the same for every reader: 0.5 where a reading
just passes its floors, 1 where it is sure, below `DOUBT` where the reader does not stand
by it (the tracker trusts readings from 0.5 up)."""

from __future__ import annotations

# Confidence of a reading the reader does not stand by stays below this.
DOUBT = 0.4


def confidence_of(*measures: tuple[float, float, float]) -> float:
    """A reading's confidence from its measures, each (value, floor, sure): 0.5 where one
    is at its floor, 1 where every one is sure."""
    sureness = min((value - floor) / (sure - floor) for value, floor, sure in measures)
    return 0.5 + 0.5 * min(1.0, float(sureness))
