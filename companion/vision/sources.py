"""Where frames come from: a camera, a video file, a folder of images, or the renderer.

Every source iterates `Frame`s (id, t, BGR image) and has `close()`; use it as a context
manager. A live camera is read by its own thread into a small drop-oldest queue, so a
slow consumer always gets the newest picture; files give every frame in order, with
t = index / fps. `open_source(spec)` picks the right one from a command-line value.
"""

from __future__ import annotations

import logging
import threading
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import cv2
import numpy as np

from .types import Frame

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff")


class SourceError(RuntimeError):
    """A frame source that cannot be opened or read; the message says what was expected."""


@runtime_checkable
class FrameSource(Protocol):
    """Anything that yields frames in order and can be closed (also with `with`)."""

    def __iter__(self) -> Iterator[Frame]: ...

    def close(self) -> None: ...

    def __enter__(self) -> Any: ...

    def __exit__(self, *exc: object) -> None: ...


class _Closing(ABC):
    """`with source:` closes the source at the end of the block."""

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @abstractmethod
    def close(self) -> None:
        """Release the device or file."""


class CameraSource(_Closing):
    """A live camera read by a background thread into a bounded drop-oldest queue.

    `lost` turns True when no picture has come for `lost_after` seconds (unplugged); the
    thread keeps trying to reopen the camera, and frames resume when it is back.
    `capture_factory(index)` returns the capture object (cv2.VideoCapture by default;
    tests pass a video file's capture).
    """

    def __init__(
        self,
        index: int,
        queue_size: int = 2,
        *,
        size: tuple[int, int] | None = None,
        lost_after: float = 1.0,
        capture_factory: Callable[[int], Any] = cv2.VideoCapture,
    ) -> None:
        if queue_size < 1:
            raise ValueError(f"queue_size must be at least 1, got {queue_size}")
        self.index = index
        self.lost_after = lost_after
        self._factory = capture_factory
        self._size = size
        self._queue: deque[Frame] = deque(maxlen=queue_size)
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._next_id = 0
        self._last_frame_at = time.monotonic()
        self.dropped = 0  # frames pushed out unread by newer ones
        self._capture = self._open()
        self._thread = threading.Thread(target=self._run, name=f"camera-{index}", daemon=True)
        self._thread.start()

    def _open(self) -> Any:
        cap = self._factory(self.index)
        if cap is None or not cap.isOpened():
            if cap is not None:
                cap.release()
            raise SourceError(
                f"cannot open camera {self.index}: is it plugged in and not used by another "
                "program? (try another index)"
            )
        if self._size is not None:
            # Most USB webcams give 1280x720 at 30 fps only as MJPG: raw frames that size fill
            # USB 2 at 5 to 10 fps. A camera without MJPG keeps its own format.
            cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG"))
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self._size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self._size[1])
        return cap

    def _run(self) -> None:
        while not self._stop.is_set():
            ok, image = self._capture.read() if self._capture is not None else (False, None)
            if not ok or image is None:
                self._recover()
                continue
            frame = Frame(self._next_id, time.monotonic(), image)
            self._next_id += 1
            with self._cond:
                if len(self._queue) == self._queue.maxlen:
                    self.dropped += 1
                self._queue.append(frame)
                self._last_frame_at = frame.t
                self._cond.notify_all()

    def _recover(self) -> None:
        """The camera gave nothing: wait a little, then try to reopen it."""
        if self._stop.wait(0.05):
            return
        if time.monotonic() - self._last_frame_at < self.lost_after:
            return
        if self._capture is not None:
            self._capture.release()
            self._capture = None
        try:
            self._capture = self._open()
        except SourceError:
            self._stop.wait(0.5)

    @property
    def lost(self) -> bool:
        """True when no picture has come for `lost_after` seconds."""
        return time.monotonic() - self._last_frame_at > self.lost_after

    def frame_size(self, timeout: float = 3.0) -> tuple[int, int] | None:
        """(width, height) of the camera's pictures, waiting up to `timeout` s for one
        (left in the queue); None if none came. A camera may give another size than it
        was asked for: the nearest it has."""
        with self._cond:
            self._cond.wait_for(lambda: bool(self._queue) or self._stop.is_set(), timeout)
            if not self._queue:
                return None
            height, width = self._queue[-1].image.shape[:2]
        return width, height

    def read(self, timeout: float = 1.0) -> Frame | None:
        """The oldest queued frame, waiting up to `timeout` s; None if none came."""
        with self._cond:
            if not self._queue:
                self._cond.wait_for(lambda: bool(self._queue) or self._stop.is_set(), timeout)
            return self._queue.popleft() if self._queue else None

    def __iter__(self) -> Iterator[Frame]:
        """Frames until `close()`; a lost camera makes the iteration wait, not end."""
        while not self._stop.is_set():
            frame = self.read(0.2)
            if frame is not None:
                yield frame

    def close(self) -> None:
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        self._thread.join(timeout=2.0)
        if self._capture is not None:
            self._capture.release()
            self._capture = None


class VideoFileSource(_Closing):
    """Every frame of a video file, in order; t = index / fps (the file's, or `fps`)."""

    def __init__(self, path: str | Path, fps: float | None = None) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise SourceError(f"no video file at {self.path}")
        self._capture = cv2.VideoCapture(str(self.path))
        if not self._capture.isOpened():
            raise SourceError(
                f"cannot read {self.path} as a video (expected a file OpenCV can decode, "
                "e.g. .mp4 or .avi)"
            )
        file_fps = self._capture.get(cv2.CAP_PROP_FPS)
        self.fps = float(fps or (file_fps if file_fps and file_fps > 0 else 30.0))

    def frame_size(self) -> tuple[int, int]:
        """(width, height) of the video's frames."""
        if self._capture is None:
            raise SourceError(f"{self.path} is closed")
        width = int(self._capture.get(cv2.CAP_PROP_FRAME_WIDTH))
        height = int(self._capture.get(cv2.CAP_PROP_FRAME_HEIGHT))
        return width, height

    def __iter__(self) -> Iterator[Frame]:
        index = 0
        while self._capture is not None:
            ok, image = self._capture.read()
            if not ok:
                return
            yield Frame(index, index / self.fps, image)
            index += 1

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


class ImageFolderSource(_Closing):
    """The images of a folder in name order; t = index / fps. Unreadable files are
    skipped with a warning (listed in `skipped`), so one bad file does not end a run."""

    def __init__(self, folder: str | Path, fps: float = 30.0) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise SourceError(f"no folder at {self.folder}")
        self.paths = sorted(
            p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file()
        )
        if not self.paths:
            raise SourceError(
                f"no images in {self.folder} (expected files ending in {', '.join(IMAGE_SUFFIXES)})"
            )
        self.fps = fps
        self.skipped: list[Path] = []

    def frame_size(self) -> tuple[int, int] | None:
        """(width, height) of the first readable image; None if none is readable."""
        for path in self.paths:
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is not None:
                return image.shape[1], image.shape[0]
        return None

    def __iter__(self) -> Iterator[Frame]:
        index = 0
        for path in self.paths:
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                log.warning("skipping %s: not a readable image", path)
                self.skipped.append(path)
                continue
            yield Frame(index, index / self.fps, image)
            index += 1

    def close(self) -> None:
        """Nothing to release: files are opened one at a time."""


class SyntheticSource(_Closing):
    """Frames from any iterable of BGR images (the demo's rendered film).

    With `realtime=True` frames are paced at `fps` x `speed`, as a camera would deliver
    them; otherwise they come as fast as they are made.
    """

    def __init__(
        self,
        images: Iterable[np.ndarray],
        fps: float = 30.0,
        *,
        realtime: bool = False,
        speed: float = 1.0,
    ) -> None:
        if fps <= 0 or speed <= 0:
            raise ValueError(f"fps and speed must be positive, got fps={fps}, speed={speed}")
        self._images = iter(images)
        self.fps = fps
        self.realtime = realtime
        self.speed = speed
        self._closed = False

    def __iter__(self) -> Iterator[Frame]:
        start = time.monotonic()
        for index, image in enumerate(self._images):
            if self._closed:
                return
            if self.realtime:
                due = start + index / (self.fps * self.speed)
                delay = due - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
            yield Frame(index, index / self.fps, image)

    def close(self) -> None:
        self._closed = True


def open_source(
    spec: int | str | Path, **options: Any
) -> CameraSource | VideoFileSource | ImageFolderSource:
    """A camera index (int or digits), a video file or a folder of images."""
    if isinstance(spec, int) or (isinstance(spec, str) and spec.strip().isdigit()):
        return CameraSource(int(spec), **options)
    path = Path(spec)
    if path.is_dir():
        return ImageFolderSource(path, **options)
    if path.is_file():
        return VideoFileSource(path, **options)
    raise SourceError(f"{spec!s} is neither a camera index, a video file nor a folder of images")


class VideoWriter(_Closing):
    """Writes frames to an .mp4 (mp4v) file, sized by the first frame (`--save-video`)."""

    def __init__(self, path: str | Path, fps: float = 30.0) -> None:
        self.path = Path(path)
        self.fps = fps
        self._writer: cv2.VideoWriter | None = None
        self._size: tuple[int, int] | None = None
        self.frames = 0

    def write(self, image: np.ndarray) -> None:
        """Append one BGR uint8 frame; every frame must have the first one's size."""
        h, w = image.shape[:2]
        if self._writer is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fourcc = cv2.VideoWriter.fourcc(*"mp4v")
            self._writer = cv2.VideoWriter(str(self.path), fourcc, self.fps, (w, h))
            if not self._writer.isOpened():
                raise SourceError(f"cannot write a video to {self.path} (mp4v codec)")
            self._size = (w, h)
        elif (w, h) != self._size:
            raise SourceError(f"frame is {w}x{h} but the video is {self._size[0]}x{self._size[1]}")
        self._writer.write(image)
        self.frames += 1

    def close(self) -> None:
        if self._writer is not None:
            self._writer.release()
            self._writer = None
