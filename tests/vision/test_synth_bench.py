"""Renderer speed (run with `pytest -m bench`): training sets and the live demo need it."""

import time

import cv2
import numpy as np
import pytest

from companion.vision.synth import (
    CardSpec,
    FilmFrame,
    TableFilm,
    card_place,
    game_table,
    random_scene,
    render_scene,
    seat_places,
)


def _median_ms(run, n: int) -> tuple[float, float]:
    """Median wall and CPU milliseconds (CPU time is steadier on a shared machine), with
    the art caches warm (card pictures are drawn once per deck edition)."""
    for i in range(n):
        run(i)
    wall, cpu = [], []
    for i in range(n):
        start, start_cpu = time.perf_counter(), time.process_time()
        run(i)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return float(np.median(wall) * 1000), float(np.median(cpu) * 1000)


@pytest.mark.bench
def test_bench_render_speed() -> None:
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        specs = [random_scene(np.random.default_rng(s), n_cards=15) for s in range(40)]
        scene_ms = _median_ms(lambda i: render_scene(specs[i % len(specs)]), len(specs))
        seats = seat_places(4)
        cards = tuple(
            CardSpec("animals", 1 + k, face="down", center=c, angle=a, length=110)
            for seat in seats
            for k in range(3)
            for c, a in [card_place(seat, k)]
        )
        film = TableFilm(game_table(1))
        film_ms = _median_ms(lambda i: film.render(i, FilmFrame(cards)), 40)
    finally:
        cv2.setNumThreads(threads)
    print("\nmedian ms (wall / CPU), one thread:")
    print(f"random 1280x720 scene, 15 cards: {scene_ms[0]:.1f} / {scene_ms[1]:.1f}")
    print(f"film frame, 12 cards, cached table: {film_ms[0]:.1f} / {film_ms[1]:.1f}")
