"""Whether the installed OpenCV draws the renderer's text as the models' training saw it.

The renderer writes every index, name and joker with `cv2.putText`, and OpenCV's text
engine has changed between versions: Hershey strokes up to 4.x, FreeType in 5.0, FreeType
with HarfBuzz shaping from 5.1 (glyphs placed a pixel apart, some shaped otherwise). The
pipeline reads cards the same on each, but a rendered scene is not the same picture: the
shipped models were trained on scenes rendered with 5.0, the demo deck's shipped pictures
were drawn with it, and the tests that pin a rendered scene read only just (a rule that
fires on one card) hold for its pixels. A digest of one probe text tells which engine is
installed, so that those tests skip with a reason elsewhere and the benchmark and the
training commands can say that their scenes are not the reference ones.
"""

from __future__ import annotations

import functools
import hashlib

import cv2
import numpy as np

REFERENCE_OPENCV = "5.0"  # the version whose text the reference scenes carry
# sha256 (first 16 hex digits) of `_probe()` as OpenCV 5.0.0 draws it
_REFERENCE_DIGEST = "0072d567a05ce3c3"


def _probe() -> np.ndarray:
    """A line of the renderer's kind of text (an index, a ten, a joker's word)."""
    canvas = np.zeros((48, 200), np.uint8)
    cv2.putText(canvas, "A 10 JOKER", (4, 34), cv2.FONT_HERSHEY_DUPLEX, 0.9, 255, 2, cv2.LINE_AA)
    return canvas


@functools.cache
def draws_reference_text() -> bool:
    """True where OpenCV draws text exactly as 5.0 did (`REFERENCE_OPENCV`)."""
    return hashlib.sha256(_probe().tobytes()).hexdigest()[:16] == _REFERENCE_DIGEST


def text_engine_note() -> str | None:
    """None on the reference engine; otherwise one line saying what differs."""
    if draws_reference_text():
        return None
    return (
        f"OpenCV {cv2.__version__} draws text otherwise than {REFERENCE_OPENCV}, with which "
        "the shipped models' training scenes were rendered: rendered scenes differ a little "
        f"(opencv-python-headless=={REFERENCE_OPENCV}.* renders them exactly)"
    )
