"""Pictures taken when the table answers a question: `companion calibrate --camera` (each
player lays a card) and `companion deck enroll --camera` (each card laid in turn)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from companion.vision.sources import CameraSource


def frame_after_answer(camera: CameraSource, prompt: str) -> np.ndarray | None:
    """Ask `prompt` and wait for Enter; then the camera's next picture (BGR), the one it
    queued before the answer skipped: what lies on the table once it was answered. None
    where the camera gives no picture."""
    input(prompt)
    camera.read(timeout=0.5)  # skip the frame queued before the answer
    frame = camera.read(timeout=3.0)
    return None if frame is None else frame.image
