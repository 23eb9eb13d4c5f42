"""Where a frame's time goes (`vision.stages`): stages counted only while asked, a stage
within another counted once, and the benchmark's means by stage."""

from __future__ import annotations

from collections import Counter

from companion.vision import stages
from companion.vision.bench.timing import (
    IN_DOUBT_STAGE,
    REST,
    doubt_figures,
    stage_means,
    timed_read,
)
from companion.vision.synth import CardSpec, SceneSpec, render_scene


@stages.timed("outer")
def _outer() -> str:
    return _inner()


@stages.timed("inner")
def _inner() -> str:
    return "done"


def test_stages_count_only_while_asked_and_a_stage_within_another_counts_to_it(
    monkeypatch,
) -> None:
    """A clock that moves one second each time it is read: each stage counted reads it
    twice (one second), a stage within another not at all."""
    ticks = iter(range(1000))
    monkeypatch.setattr(stages.time, "thread_time", lambda: float(next(ticks)))
    assert _outer() == "done"  # nobody counting: the function runs as it is, unclocked
    assert next(ticks) == 0
    with stages.counting() as spent:
        assert _outer() == "done"
        assert _inner() == "done"
        with stages.stage("block"):
            pass
    assert spent == {"outer": 1.0, "inner": 1.0, "block": 1.0}
    with stages.counting() as again:
        pass
    assert not again  # a new count starts from nothing
    _outer()
    assert spent == {"outer": 1.0, "inner": 1.0, "block": 1.0}  # nothing after the block


def test_the_benchmark_reports_each_stage_of_a_frame_and_the_rest() -> None:
    image, _ = render_scene(
        SceneSpec(
            table="felt-green",
            cards=(CardSpec("playing-cards", 2, "clubs", "up", (400, 300), length=200),),
        )
    )
    times: list[float] = []
    per_frame: list[Counter[str]] = []
    readings, _ = timed_read("playing-cards", image, times, "both", per_frame)
    assert [r.label for r in readings] == ["2 of clubs"]
    (frame,) = per_frame
    assert {"finder net", "rough quads", "reader nets", "placing quads", REST} <= set(frame)
    assert IN_DOUBT_STAGE not in frame  # one card read for sure: the first look settles it
    assert all(ms >= 0 for ms in frame.values())
    means = stage_means([frame, Counter({"finder net": 2.0, REST: 1.0})])
    assert list(means)[-1] == REST  # the rest last, the stages costliest first
    assert means["finder net"] == round((frame["finder net"] + 2.0) / 2, 2)


def test_the_benchmark_tells_settled_frames_from_those_left_in_doubt() -> None:
    """A frame in doubt is one where the edge finder ran; each kind's median apart."""
    settled = [Counter({"finder net": 6.0, REST: 2.0}), Counter({"finder net": 8.0, REST: 2.0})]
    doubtful = [Counter({"finder net": 7.0, IN_DOUBT_STAGE: 30.0, REST: 60.0})]
    assert doubt_figures(settled + doubtful) == {
        "frames the first look settled": "2 of 3, median 9.0 ms",
        "frames it left in doubt": "1 of 3, median 97.0 ms",
    }
    assert doubt_figures(settled)["frames it left in doubt"] == "0 of 2"
