"""Reading a frame as the benchmark times it: one pipeline per deck and finder, built once,
the wall and CPU milliseconds of each frame, and where that time goes by stage
(`vision.stages`)."""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Sequence

import numpy as np

from companion.vision.stages import counting

from .scenes import ANIMAL_DECK, FRAME_SIZE

_PIPELINES: dict[tuple[str, str], object] = {}
REST = "the rest"  # time no stage counted (`timed_read`)
# The stage only a frame left in doubt runs, with the default finder (`fusion.read_cards`).
IN_DOUBT_STAGE = "edge finder"


def pipeline_for(deck: str, finder: str):  # -> CardPipeline
    """`deck`'s pipeline with `finder`, built once per deck and finder for every table the
    benchmark reads."""
    from companion.vision.decks import load_deck
    from companion.vision.pipeline import CardPipeline

    name = ANIMAL_DECK if deck == "animals" else deck
    if (name, finder) not in _PIPELINES:
        pipeline = CardPipeline(load_deck(name), finder=finder)
        # The first onnxruntime call allocates: keep it out of the timings.
        pipeline.read(np.full((*FRAME_SIZE[::-1], 3), 90, np.uint8))
        _PIPELINES[name, finder] = pipeline
    return _PIPELINES[name, finder]


def timed_read(
    deck: str,
    image: np.ndarray,
    times: list[float],
    finder: str = "both",
    stage_times: list[Counter[str]] | None = None,
) -> tuple[list, list]:
    """Read `image` with `deck`'s pipeline, seat every card; append the milliseconds, and
    to `stage_times` the CPU milliseconds of each stage (`vision.stages`), "the rest"
    being what no stage counted (the reading rules, joining the finders, seating)."""
    pipeline, seats = pipeline_for(deck, finder), bench_seats(image.shape[1], image.shape[0])
    start, start_cpu = time.perf_counter(), time.thread_time()
    with counting() as spent:
        readings = pipeline.read(image)
        seated = [seats.seat_of(r.center) for r in readings]
    # CPU time besides: on a busy machine the wall clock also counts the time other
    # processes held the core, the CPU time does not
    cpu = (time.thread_time() - start_cpu) * 1000
    times.append((time.perf_counter() - start) * 1000)
    if stage_times is not None:
        frame = Counter({name: 1000 * seconds for name, seconds in spent.items()})
        frame[REST] = cpu - sum(frame.values())
        stage_times.append(frame)
    return readings, seated


def doubt_figures(stage_times: Sequence[Counter[str]]) -> dict[str, str]:
    """How many frames the default finder's first look settled, and how many it left in
    doubt (the edge finder ran: `fusion.in_doubt`), with the median CPU milliseconds of
    each. Why: the two kinds cost several times apart, so the median frame of all is one of
    the first kind where most frames are settled, and jumps to the second kind where most
    are not; a change that puts a few more tables in doubt can move it far."""
    kinds: dict[bool, list[float]] = {False: [], True: []}
    for frame in stage_times:
        kinds[IN_DOUBT_STAGE in frame].append(sum(frame.values()))
    total = len(stage_times)

    def kind(cpu: list[float]) -> str:
        median = f", median {statistics.median(cpu):.1f} ms" if cpu else ""
        return f"{len(cpu)} of {total}{median}"

    return {
        "frames the first look settled": kind(kinds[False]),
        "frames it left in doubt": kind(kinds[True]),
    }


def stage_means(stage_times: Sequence[Counter[str]]) -> dict[str, float]:
    """Mean CPU milliseconds per frame of each stage, the costliest first, "the rest" last."""
    totals: Counter[str] = Counter()
    for frame in stage_times:
        totals.update(frame)
    means = {name: round(total / len(stage_times), 2) for name, total in totals.most_common()}
    means[REST] = means.pop(REST, 0.0)
    return means


def bench_seats(width: int, height: int):  # -> Calibration
    """Four seats, one per side of the picture (seating costs the same for any layout)."""
    from companion.vision.calibration import Calibration

    return Calibration(
        {
            "north": (width / 2, 0.1 * height),
            "east": (0.9 * width, height / 2),
            "south": (width / 2, 0.9 * height),
            "west": (0.1 * width, height / 2),
        }
    )
