"""Frame sources on written mp4 files and image folders (never a real camera)."""

import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision.sources import (
    CameraSource,
    FrameSource,
    ImageFolderSource,
    SourceError,
    SyntheticSource,
    VideoFileSource,
    VideoWriter,
    open_source,
)


def _frames(n: int, size: tuple[int, int] = (160, 120)) -> list[np.ndarray]:
    w, h = size
    out = []
    for i in range(n):
        img = np.zeros((h, w, 3), np.uint8)
        img[:, : 10 + 10 * i] = 200  # a bar that grows: frames are told apart by its width
        out.append(img)
    return out


def _bar(img: np.ndarray) -> int:
    return int((img[img.shape[0] // 2, :, 1] > 100).sum())


@pytest.fixture
def video(tmp_path: Path) -> Path:
    path = tmp_path / "clip.mp4"
    with VideoWriter(path, fps=25) as writer:
        for img in _frames(8):
            writer.write(img)
    assert writer.frames == 8
    return path


def test_video_file_gives_every_frame_in_order(video: Path) -> None:
    with VideoFileSource(video) as source:
        frames = list(source)
    assert [f.id for f in frames] == list(range(8))
    assert [f.t for f in frames] == pytest.approx([i / 25 for i in range(8)])
    bars = [_bar(f.image) for f in frames]
    assert bars == sorted(bars) and bars[0] < bars[-1]


def test_open_source_picks_by_spec(video: Path, tmp_path: Path) -> None:
    for i, img in enumerate(_frames(3)):
        cv2.imwrite(str(tmp_path / f"f{i:02d}.png"), img)
    assert isinstance(open_source(video), VideoFileSource)
    assert isinstance(open_source(str(tmp_path)), ImageFolderSource)
    with pytest.raises(SourceError, match="neither a camera index"):
        open_source(tmp_path / "missing.mp4")


def test_image_folder_sorted_and_skips_broken(tmp_path: Path) -> None:
    for i, img in enumerate(_frames(3)):
        cv2.imwrite(str(tmp_path / f"f{i:02d}.png"), img)
    (tmp_path / "f01b.jpg").write_bytes(b"not an image")
    (tmp_path / "notes.txt").write_text("ignored")
    source = ImageFolderSource(tmp_path, fps=10)
    frames = list(source)
    assert [f.id for f in frames] == [0, 1, 2]
    assert [f.t for f in frames] == pytest.approx([0, 0.1, 0.2])
    assert [p.name for p in source.skipped] == ["f01b.jpg"]
    assert isinstance(source, FrameSource)


def test_bad_inputs_are_explained(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no images"):
        ImageFolderSource(tmp_path)
    with pytest.raises(SourceError, match="no video file"):
        VideoFileSource(tmp_path / "nope.mp4")
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(b"\x00" * 100)
    with pytest.raises(SourceError, match="cannot read"):
        VideoFileSource(junk)


def test_camera_that_cannot_open_says_so() -> None:
    class Closed:
        def isOpened(self) -> bool:
            return False

        def release(self) -> None:
            pass

    with pytest.raises(SourceError, match="cannot open camera 3"):
        CameraSource(3, capture_factory=lambda i: Closed())


def test_camera_thread_drops_oldest_frames(video: Path) -> None:
    # A video file stands in for the camera; the consumer reads slowly.
    source = CameraSource(0, queue_size=2, capture_factory=lambda i: cv2.VideoCapture(str(video)))
    try:
        deadline = time.monotonic() + 5
        while source.dropped == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        first = source.read(timeout=2)
        second = source.read(timeout=2)
    finally:
        source.close()
    assert first is not None and second is not None
    assert second.id == first.id + 1
    assert first.id >= 1  # the oldest frames were dropped
    assert source.dropped >= 1
    assert second.t >= first.t


def test_camera_is_asked_for_a_size_and_tells_the_size_it_gives(video: Path) -> None:
    # The camera is asked for MJPG first (1280x720 at 30 fps over USB 2), then the size;
    # what it gives may differ (here a 160x120 video stands in for it).
    asked: list[tuple[int, float]] = []

    class Recording:
        def __init__(self) -> None:
            self.capture = cv2.VideoCapture(str(video))

        def set(self, prop: int, value: float) -> bool:
            asked.append((prop, value))
            return self.capture.set(prop, value)

        def __getattr__(self, name: str) -> object:
            return getattr(self.capture, name)  # isOpened, read, release

    source = CameraSource(0, size=(1280, 720), capture_factory=lambda i: Recording())
    try:
        assert source.frame_size(timeout=2) == (160, 120)
        assert source.read(timeout=2) is not None  # the frame looked at stays queued
    finally:
        source.close()
    mjpg = float(cv2.VideoWriter.fourcc(*"MJPG"))
    assert asked[:3] == [  # a camera lost and reopened is asked again
        (cv2.CAP_PROP_FOURCC, mjpg),
        (cv2.CAP_PROP_FRAME_WIDTH, 1280),
        (cv2.CAP_PROP_FRAME_HEIGHT, 720),
    ]


def test_files_tell_their_picture_size(video: Path, tmp_path: Path) -> None:
    with VideoFileSource(video) as source:
        assert source.frame_size() == (160, 120)
    (tmp_path / "a.png").write_bytes(b"not a picture")
    cv2.imwrite(str(tmp_path / "b.png"), np.zeros((50, 70, 3), np.uint8))
    assert ImageFolderSource(tmp_path).frame_size() == (70, 50)


def test_synthetic_source_numbers_frames() -> None:
    frames = list(SyntheticSource(iter(_frames(4)), fps=20))
    assert [f.id for f in frames] == [0, 1, 2, 3]
    assert frames[3].t == pytest.approx(0.15)
    with pytest.raises(ValueError, match="positive"):
        SyntheticSource([], fps=0)


def test_writer_refuses_a_frame_of_another_size(tmp_path: Path) -> None:
    with VideoWriter(tmp_path / "a.mp4") as writer:
        writer.write(_frames(1)[0])
        with pytest.raises(SourceError, match="160x120"):
            writer.write(np.zeros((10, 10, 3), np.uint8))


def test_camera_lost_then_back() -> None:
    class Flaky:
        """Gives `n` frames, then nothing (unplugged)."""

        def __init__(self, n: int) -> None:
            self.left = n

        def isOpened(self) -> bool:
            return True

        def read(self) -> tuple[bool, np.ndarray | None]:
            time.sleep(0.005)
            if self.left <= 0:
                return False, None
            self.left -= 1
            return True, _frames(1)[0]

        def release(self) -> None:
            pass

        def set(self, *args: object) -> bool:
            return True

    captures = iter([Flaky(3), Flaky(0), Flaky(1000)])
    source = CameraSource(0, queue_size=4, lost_after=0.1, capture_factory=lambda i: next(captures))
    try:
        first = [source.read(timeout=1) for _ in range(3)]
        assert all(f is not None for f in first)
        deadline = time.monotonic() + 3
        while not source.lost and time.monotonic() < deadline:
            time.sleep(0.01)
        assert source.lost
        back = source.read(timeout=3)  # the third capture opens after two failures
        assert back is not None and back.id == 3
        assert not source.lost
    finally:
        source.close()
