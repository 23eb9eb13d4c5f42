"""Pictures taken when the table answers a question: `companion calibrate --camera` (each
player lays a card) and `companion deck enroll --camera` (each card laid in turn)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from companion.vision.sources import CameraSource


def frame_after_answer(
    camera: CameraSource, index: int, prompt: str, error: type[Exception]
) -> np.ndarray:
    """Ask `prompt` and wait for Enter; then camera `index`'s next picture (BGR), the one
    it queued before the answer skipped: what lies on the table once it was answered.
    `error` (the command's own) where no one can answer (standard input closed) or the
    camera gives no picture."""
    try:
        input(prompt)
    except EOFError:
        raise error(
            "no answer: the questions need someone at the keyboard (standard input is closed)"
        ) from None
    camera.read(timeout=0.5)  # skip the frame queued before the answer
    frame = camera.read(timeout=3.0)
    if frame is None:
        raise error(f"camera {index} gave no picture")
    return frame.image
