"""Timings of the dashboard (not run by default: `pytest -m bench tests/ui -s`)."""

from __future__ import annotations

import time

import cv2
import numpy as np
import pytest
from conftest import run_async
from test_ui_table import EXAMPLE_1_KEYS
from textual.geometry import Size

from companion.referee.session import GameSession
from companion.store import Store
from companion.ui.app import CompanionApp
from companion.ui.screens.table import TableScreen
from companion.ui.widgets.live_view import Outline, draw_outlines, fit_size, half_block_strips

pytestmark = pytest.mark.bench


def _camera_frame(rng: np.random.Generator) -> tuple[np.ndarray, list[Outline]]:
    image = cv2.GaussianBlur(rng.integers(0, 255, (720, 1280, 3), np.uint8), (31, 31), 0)
    outlines = []
    for n in range(8):
        x, y = 100 + 140 * n, 200 + 40 * (n % 3)
        corners = np.array([[x, y], [x + 90, y], [x + 90, y + 130], [x, y + 130]], np.float32)
        outlines.append(Outline(corners, "lynx", (80, 220, 80)))
    return image, outlines


def test_bench_live_view_frame_to_strips():
    image, outlines = _camera_frame(np.random.default_rng(0))
    cells = Size(80, 24)
    runs = 60
    start = time.perf_counter()
    for _ in range(runs):
        out_w, out_h = fit_size((1280, 720), cells)
        small = cv2.resize(image, (out_w, out_h), interpolation=cv2.INTER_AREA)
        draw_outlines(small, outlines, (out_w / 1280, out_h / 720))
        strips = half_block_strips(small)
    per_frame = (time.perf_counter() - start) / runs
    print(
        f"\nlive view 1280x720 -> {out_w}x{out_h} px ({len(strips)} rows): {per_frame * 1e3:.1f} ms"
    )


@run_async
async def test_bench_key_handling(store: Store, session: GameSession):
    """The table's own work per key (check, store, replay, widget updates), then a paint."""
    app = CompanionApp(store, session=session)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        table = app.screen
        assert isinstance(table, TableScreen)
        actions = {"a": table.action_all_played, "enter": table.action_confirm}
        start = time.perf_counter()
        for key in EXAMPLE_1_KEYS:
            action = actions.get(key)
            action() if action else table.action_digit(int(key))
        handled = (time.perf_counter() - start) / len(EXAMPLE_1_KEYS)
        start = time.perf_counter()
        await pilot.press(*["escape"] * 4)  # a full Pilot round trip, redraw and repaint
        round_trip = (time.perf_counter() - start) / 4
    assert session.state.round == 2
    print(f"\nkey handling (check, fsync'd store, redraw): {handled * 1e3:.1f} ms per key")
    print(f"Pilot key round trip with repaint (120x40): {round_trip * 1e3:.1f} ms per key")
