"""A small live picture of the table, drawn with half-block characters.

Each terminal cell shows two image pixels: the upper one as the foreground colour of
"▀" and the lower one as the background colour. That works in every terminal with
true colour and needs no image protocol.

Frames arrive from the camera thread far faster than a terminal can show them. The
widget can be fed from any thread through `LiveView.NewFrame`, a message that a newer
frame replaces while the older one is still waiting in the queue (`can_replace`); the
app's `TableFrame` (companion.ui.live) coalesces the same way and calls `show`. Either
way it draws at most MAX_FPS pictures a second, always the newest. The outlines and
labels of the cards are drawn with OpenCV on the already downscaled copy: cheaper, and
the lines stay one pixel wide whatever the camera resolution.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from time import monotonic

import cv2
import numpy as np
from rich.color import Color, ColorTriplet, ColorType
from rich.segment import Segment
from rich.style import Style
from textual.geometry import Size
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from companion.vision.types import CardReading

UPPER_HALF_BLOCK = "▀"
FACE_UP_COLOUR = (80, 220, 80)  # BGR: green outline for a card read face up
FACE_DOWN_COLOUR = (230, 160, 40)  # BGR: blue outline for a back
DOUBTFUL_COLOUR = (40, 40, 230)  # BGR: red outline for a reading below the threshold
DOUBTFUL_BELOW = 0.6
COLOUR_MASK = 0xF8  # keep 5 bits a channel
MAX_FPS = 10  # the terminal view needs no more; the UI thread has other work


@dataclass(frozen=True, slots=True)
class Outline:
    """One card to outline on the picture: its corners in image pixels and a label."""

    corners: np.ndarray  # (4, 2) float, image pixels
    label: str
    colour: tuple[int, int, int]  # BGR

    @classmethod
    def of_reading(cls, reading: CardReading) -> Outline:
        """Colour a reading by what the table should notice: face, or doubt."""
        if reading.confidence < DOUBTFUL_BELOW:
            colour = DOUBTFUL_COLOUR
        elif reading.face == "up":
            colour = FACE_UP_COLOUR
        else:
            colour = FACE_DOWN_COLOUR
        return cls(np.asarray(reading.corners, dtype=np.float32), reading.label, colour)


def fit_size(image_size: tuple[int, int], cells: Size) -> tuple[int, int]:
    """The (width, height) in pixels that fits `cells` (2 pixels a cell) keeping the aspect.

    `image_size` is (width, height). The height is always even so rows pair up.
    """
    width, height = image_size
    max_w, max_h = max(cells.width, 1), max(cells.height * 2, 2)
    scale = min(max_w / width, max_h / height)
    out_w = max(1, int(width * scale))
    out_h = max(2, int(height * scale) // 2 * 2)
    return out_w, out_h


def draw_outlines(
    image: np.ndarray, outlines: Sequence[Outline], scale: tuple[float, float]
) -> np.ndarray:
    """Draw each outline (and its label's first letters) on `image`, in place; return it."""
    sx, sy = scale
    for outline in outlines:
        pts = np.round(outline.corners * np.array([sx, sy], dtype=np.float32)).astype(np.int32)
        cv2.polylines(image, [pts.reshape(-1, 1, 2)], True, outline.colour, 1, cv2.LINE_8)
        if outline.label:
            x, y = int(pts[:, 0].min()), max(int(pts[:, 1].min()) - 2, 6)
            cv2.putText(
                image, outline.label[:6], (x, y), cv2.FONT_HERSHEY_PLAIN, 0.6, outline.colour, 1
            )
    return image


def _truecolor(rgb: tuple[int, int, int]) -> Color:
    return Color("", ColorType.TRUECOLOR, triplet=ColorTriplet(*rgb))


@lru_cache(maxsize=65536)
def _half_block_style(r: int, g: int, b: int, r2: int, g2: int, b2: int) -> Style:
    """Upper pixel as foreground, lower as background; cached across frames."""
    return Style.from_color(_truecolor((r, g, b)), _truecolor((r2, g2, b2)))


def half_block_strips(image: np.ndarray) -> list[Strip]:
    """Turn a BGR image with an even height into one Strip per pair of pixel rows.

    Colours are rounded to 5 bits a channel (invisible at this size) so that the style
    cache hits from one frame to the next and equal neighbours merge into one segment:
    building rich Styles is what costs here, not the pixels.
    """
    if image.ndim != 3 or image.shape[2] != 3 or image.shape[0] % 2:
        raise ValueError(f"expected a BGR image H x W x 3 with an even height, got {image.shape}")
    rgb = (image[:, :, ::-1] & COLOUR_MASK) | (~COLOUR_MASK & 0xFF) // 2
    strips: list[Strip] = []
    for row in range(0, rgb.shape[0], 2):
        pairs = np.concatenate([rgb[row], rgb[row + 1]], axis=1).tolist()
        segments: list[Segment] = []
        run_start = 0
        for column in range(1, len(pairs) + 1):
            if column < len(pairs) and pairs[column] == pairs[run_start]:
                continue
            style = _half_block_style(*pairs[run_start])
            segments.append(Segment(UPPER_HALF_BLOCK * (column - run_start), style))
            run_start = column
        strips.append(Strip(segments, len(pairs)))
    return strips


class LiveView(Widget):
    """Shows the newest camera frame with the cards outlined; blank until the first one."""

    DEFAULT_CSS = """
    LiveView {
        width: 1fr;
        height: 1fr;
        min-height: 6;
    }
    """

    class NewFrame(Message):
        """The newest picture to show; replaces an older one not yet handled."""

        def __init__(self, image: np.ndarray, outlines: Sequence[Outline] = ()) -> None:
            super().__init__()
            self.image = image
            self.outlines = tuple(outlines)

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, LiveView.NewFrame)

    def __init__(self, *, name: str | None = None, id: str | None = None) -> None:
        super().__init__(name=name, id=id)
        self._strips: list[Strip] = []
        self._last: tuple[np.ndarray, tuple[Outline, ...]] | None = None
        self._last_render = -1.0
        self._render_pending = False
        self.frames_shown = 0

    def show(self, image: np.ndarray, outlines: Sequence[Outline] = ()) -> None:
        """Show `image` (BGR) with `outlines`, at most MAX_FPS times a second.

        Call from the UI thread only. A frame arriving sooner than that is kept and the
        newest one is drawn when the interval has passed.
        """
        if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
            raise ValueError(f"expected a BGR uint8 image H x W x 3, got {image.shape}")
        self._last = (image, tuple(outlines))
        if self._render_pending:
            return
        wait = self._last_render + 1 / MAX_FPS - monotonic()
        if wait <= 0:
            self._render_last()
        else:
            self._render_pending = True
            self.set_timer(wait, self._render_last)

    def on_live_view_new_frame(self, message: LiveView.NewFrame) -> None:
        self.show(message.image, message.outlines)

    def on_resize(self) -> None:
        self._render_last()

    def _render_last(self) -> None:
        self._render_pending = False
        if self._last is None or self.size.width == 0 or self.size.height == 0:
            return
        self._last_render = monotonic()
        image, outlines = self._last
        height, width = image.shape[:2]
        out_w, out_h = fit_size((width, height), self.size)
        small = cv2.resize(image, (out_w, out_h), interpolation=cv2.INTER_AREA)
        draw_outlines(small, outlines, (out_w / width, out_h / height))
        self._strips = half_block_strips(small)
        self.frames_shown += 1
        self.refresh()

    def render_line(self, y: int) -> Strip:
        if y < len(self._strips):
            return self._strips[y]
        return Strip.blank(self.size.width)
