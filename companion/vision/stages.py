"""Where a frame's time goes: CPU time per named stage of the pipeline (the finder's net,
placing quads, the readers' nets ...), counted only while a benchmark asks (`counting`).

Why in the pipeline itself rather than a profiler: the benchmark reports it on every run,
on the same frames as its median, at the cost of one flag test per stage when nobody
counts. A stage entered inside another counts towards the outer one, so the stages of a
frame never add up to more than its time. Counting is for one thread at a time (the
benchmark's); the live camera thread never counts.
"""

from __future__ import annotations

import functools
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

_totals: Counter[str] | None = None  # seconds of CPU by stage, while counting
_inside = False  # a stage is being counted: one entered within it counts towards it


class stage:
    """`with stage(name):` counts the CPU time of the block under `name`."""

    __slots__ = ("_name", "_start")

    def __init__(self, name: str) -> None:
        self._name = name
        self._start: float | None = None

    def __enter__(self) -> None:
        global _inside
        if _totals is not None and not _inside:
            _inside = True
            self._start = time.thread_time()

    def __exit__(self, *exc: object) -> None:
        global _inside
        if self._start is not None and _totals is not None:
            _totals[self._name] += time.thread_time() - self._start
            self._start = None
            _inside = False


def timed(name: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """A decorator: every call of the function counts as stage `name`."""

    def decorate(function: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(function)
        def counted(*args: P.args, **kwargs: P.kwargs) -> R:
            if _totals is None or _inside:
                return function(*args, **kwargs)
            with stage(name):
                return function(*args, **kwargs)

        return counted

    return decorate


@contextmanager
def counting() -> Iterator[Counter[str]]:
    """Count every stage (seconds of CPU by name) while the block runs."""
    global _totals, _inside
    _totals, _inside = Counter(), False
    try:
        yield _totals
    finally:
        _totals = None
