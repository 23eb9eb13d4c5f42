"""Where each player sits: seat anchors in image pixels, saved as a small JSON file.

A card belongs to the nearest seat anchor. Anchors come from `--seats` text, from printed
ArUco markers (marker i in front of player i; the markers also let the anchors follow a
bumped camera), or from one card laid in front of each player. The file format is
documented in calibration/README.md; a missing, broken or stale file raises
`CalibrationError` with a message that says what to do, never a traceback.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from .geometry import quad_long_side, quad_sides

SCHEMA = "prey-companion/calibration"
SCHEMA_VERSION = 1
ARUCO_DICTIONARY = cv2.aruco.DICT_4X4_50
Point = tuple[float, float]


class CalibrationError(ValueError):
    """A calibration that cannot be used; the message says why and what to do."""


# A card's long side, mm (poker and bridge cards alike), and the side of a marker's black
# square as `marker_sheet` prints it (A4 at 150 dpi): a marker seen in a picture says how
# long a card looks there.
CARD_MM = 88.9
SHEET_DPI = 150
SHEET_PAGE = (1240, 1754)  # A4 at SHEET_DPI, pixels
# Real cards shorter than this in the picture are found less often: in the benchmark's
# real photos shrunk to a webcam's scale, game cards were read right 96% of the time with
# the longest card 150 px long, 85-88% at 100 px (models/README.md, card finder, "Real
# cards at a webcam's scale"; `companion bench vision --real-card-length`).
RELIABLE_CARD_LENGTH = 150.0


@dataclass(frozen=True)
class Calibration:
    """Seat anchors (image pixels) in player order, clockwise seen from above.

    `image_size` (width, height) is the picture the anchors belong to (None: any);
    `markers` maps a seat to its ArUco marker id and `marker_centers` holds where each
    marker was seen, so `follow` can move the anchors when the camera is bumped;
    `max_distance` (pixels), when set, leaves cards farther than that from every anchor
    in no seat; `card_length` (pixels) is how long a card looked at calibration time
    (the cards laid, or the printed markers' size), None where unknown, so that the table
    hears when the camera sees cards too small to read reliably (`card_length_advice`).
    """

    seats: Mapping[str, Point]
    image_size: tuple[int, int] | None = None
    markers: Mapping[str, int] = field(default_factory=dict)
    marker_centers: Mapping[int, Point] = field(default_factory=dict)
    max_distance: float | None = None
    card_length: float | None = None

    def __post_init__(self) -> None:
        if not self.seats:
            raise CalibrationError("a calibration needs at least one seat")
        for name, point in self.seats.items():
            if not name.strip():
                raise CalibrationError("seat names must not be empty")
            if len(point) != 2 or not all(math.isfinite(float(v)) for v in point):
                raise CalibrationError(f"seat {name!r}: expected an (x, y) point, got {point!r}")
        if self.card_length is not None and not (
            math.isfinite(self.card_length) and self.card_length > 0
        ):
            raise CalibrationError(
                f"expected a card length of more than 0 pixels, got {self.card_length!r}"
            )

    @property
    def names(self) -> tuple[str, ...]:
        """Seat names in player order."""
        return tuple(self.seats)

    def seat_of(self, point: Point, max_distance: float | None = None) -> str | None:
        """The seat whose anchor is nearest to `point`, or None beyond `max_distance`."""
        limit = max_distance if max_distance is not None else self.max_distance
        best, best_d = None, math.inf
        for name, (x, y) in self.seats.items():
            d = math.hypot(point[0] - x, point[1] - y)
            if d < best_d:
                best, best_d = name, d
        if limit is not None and best_d > limit:
            return None
        return best

    def check_image_size(self, size: tuple[int, int], source: str = "the camera's picture") -> None:
        """Raise if the anchors were measured on pictures of another size than `source`'s
        ("camera 0's picture", "video game.mp4"): the seats would lie elsewhere."""
        if self.image_size is not None and tuple(self.image_size) != tuple(size):
            w, h = self.image_size
            raise CalibrationError(
                f"the calibration was made on {w}x{h} pictures but {source} is "
                f"{size[0]}x{size[1]}: run `companion calibrate` again on its pictures"
            )

    # --- following a bumped camera ------------------------------------------------------

    def follow(self, seen: Mapping[int, Point]) -> Calibration:
        """Move the anchors as the markers moved: `seen` maps marker id -> centre now.

        Uses a homography with 4 or more common markers, a similarity with 2 or 3; with
        fewer the calibration is returned unchanged (the camera cannot be followed).
        """
        common = [i for i in self.marker_centers if i in seen]
        if len(common) < 2:
            return self
        src = np.array([self.marker_centers[i] for i in common], np.float32)
        dst = np.array([seen[i] for i in common], np.float32)
        names = list(self.seats)
        anchors = np.array([self.seats[n] for n in names], np.float32).reshape(-1, 1, 2)
        if len(common) >= 4:
            hom, _ = cv2.findHomography(src, dst, 0)
            if hom is None:
                return self
            moved = cv2.perspectiveTransform(anchors, hom)
        else:
            m, _ = cv2.estimateAffinePartial2D(src, dst)
            if m is None:
                return self
            moved = cv2.transform(anchors, m)
        moved = moved.reshape(-1, 2)
        return replace(
            self,
            seats={n: (float(p[0]), float(p[1])) for n, p in zip(names, moved, strict=True)},
            marker_centers={**self.marker_centers, **{i: seen[i] for i in common}},
        )

    # --- file -------------------------------------------------------------------------

    def to_json(self) -> dict:
        """The documented file content (see calibration/README.md)."""
        ids = dict(self.markers)
        return {
            "schema": SCHEMA,
            "version": SCHEMA_VERSION,
            "image_size": list(self.image_size) if self.image_size else None,
            "max_distance": self.max_distance,
            "card_length": round(self.card_length, 1) if self.card_length else None,
            "seats": [
                {
                    "name": name,
                    "anchor": [round(float(x), 2), round(float(y), 2)],
                    "marker": ids.get(name),
                }
                for name, (x, y) in self.seats.items()
            ],
            "markers": {
                str(i): [round(float(p[0]), 2), round(float(p[1]), 2)]
                for i, p in self.marker_centers.items()
            },
        }

    def save(self, path: str | Path) -> None:
        """Write the calibration as JSON (parent folders are created)."""
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, data: object, source: str = "calibration") -> Calibration:
        """Build from parsed JSON, raising `CalibrationError` naming what is wrong."""
        if not isinstance(data, dict) or data.get("schema") != SCHEMA:
            raise CalibrationError(f"{source} is not a companion calibration file")
        version = data.get("version")
        if version != SCHEMA_VERSION:
            raise CalibrationError(
                f"{source} has calibration format version {version!r}, this program reads "
                f"version {SCHEMA_VERSION}: run `companion calibrate` again"
            )
        try:
            size = data.get("image_size")
            seats = {}
            markers = {}
            for entry in data["seats"]:
                name = str(entry["name"])
                x, y = (float(v) for v in entry["anchor"])
                seats[name] = (x, y)
                if entry.get("marker") is not None:
                    markers[name] = int(entry["marker"])
            centers = {
                int(k): (float(v[0]), float(v[1])) for k, v in (data.get("markers") or {}).items()
            }
            max_d = data.get("max_distance")
            # absent from files written before it was recorded: unknown
            card_length = data.get("card_length")
            return cls(
                seats=seats,
                image_size=(int(size[0]), int(size[1])) if size else None,
                markers=markers,
                marker_centers=centers,
                max_distance=float(max_d) if max_d is not None else None,
                card_length=float(card_length) if card_length is not None else None,
            )
        except CalibrationError as e:
            raise CalibrationError(f"{source}: {e}") from None
        except (KeyError, TypeError, ValueError, IndexError) as e:
            raise CalibrationError(
                f"{source} is damaged ({type(e).__name__}: {e}); expected seats as "
                '[{"name": ..., "anchor": [x, y]}]: run `companion calibrate` again'
            ) from None

    @classmethod
    def load(cls, path: str | Path, image_size: tuple[int, int] | None = None) -> Calibration:
        """Read a calibration file; with `image_size`, also check it fits that camera."""
        p = Path(path)
        if not p.is_file():
            raise CalibrationError(
                f"no calibration file at {p}: run `companion calibrate` first, or give "
                '--seats "Alia=412,650;Ben=..."'
            )
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            raise CalibrationError(f"{p} is not readable JSON ({e})") from None
        calibration = cls.from_json(data, str(p))
        if image_size is not None:
            calibration.check_image_size(image_size)
        return calibration


_SEAT_RE = re.compile(r"^\s*([^=;]+?)\s*=\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*$")


def parse_seats(text: str, image_size: tuple[int, int] | None = None) -> Calibration:
    """Parse ``"Alia=412,650;Ben=900,640"`` (name=x,y, separated by ';') into a calibration."""
    seats: dict[str, Point] = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        m = _SEAT_RE.match(part)
        if m is None:
            raise CalibrationError(
                f'cannot read seat {part!r}: expected NAME=X,Y, e.g. "Alia=412,650;Ben=900,640"'
            )
        name = m.group(1)
        if name in seats:
            raise CalibrationError(f"seat {name!r} is given twice in --seats")
        try:
            seats[name] = (float(m.group(2)), float(m.group(3)))
        except ValueError:
            raise CalibrationError(f"seat {part!r}: X and Y must be numbers") from None
    if not seats:
        raise CalibrationError('no seats given: expected "Alia=412,650;Ben=900,640"')
    return Calibration(seats=seats, image_size=image_size)


# --- ArUco markers ----------------------------------------------------------------------


def _dictionary() -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY)


def detect_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """ArUco markers (DICT_4X4_50) in a BGR or grey picture: id -> (4, 2) corners."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    detector = cv2.aruco.ArucoDetector(_dictionary(), cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(grey)
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners, strict=True)}


def marker_image(marker_id: int, side: int = 300) -> np.ndarray:
    """One marker as a grey image with its white quiet zone."""
    if not 0 <= marker_id < 50:
        raise CalibrationError(f"marker ids run from 0 to 49 (DICT_4X4_50), got {marker_id}")
    inner = cv2.aruco.generateImageMarker(_dictionary(), marker_id, side)
    pad = side // 6
    return cv2.copyMakeBorder(inner, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255)


def _marker_side(page: tuple[int, int]) -> int:
    """The side of each marker's black square on a sheet of `page` pixels (2 x 3 cells
    under a 120-pixel heading)."""
    return int(min(page[0] // 2, (page[1] - 120) // 3) * 0.62)


# the side of a marker printed from the default sheet at its size, mm (57)
PRINTED_MARKER_MM = _marker_side(SHEET_PAGE) / SHEET_DPI * 25.4


def marker_sheet(
    players: Sequence[str] | int = 5, page: tuple[int, int] = SHEET_PAGE
) -> np.ndarray:
    """A printable sheet (A4 at 150 dpi by default): marker i for seat i, labelled.

    Cut the markers apart and lay marker i in front of player i (players clockwise).
    """
    names = [f"Seat {i + 1}" for i in range(players)] if isinstance(players, int) else list(players)
    if not 1 <= len(names) <= 6:
        raise CalibrationError(f"a marker sheet holds 1 to 6 seats, got {len(names)}")
    w, h = page
    sheet = np.full((h, w), 255, np.uint8)
    cols, rows = 2, 3
    cell_w, cell_h = w // cols, (h - 120) // rows
    side = _marker_side(page)
    cv2.putText(
        sheet,
        "Prey Another Day - seat markers (ArUco 4x4_50)",
        (60, 70),
        cv2.FONT_HERSHEY_DUPLEX,
        1.1,
        0,
        2,
        cv2.LINE_AA,
    )
    for i, name in enumerate(names):
        marker = marker_image(i, side)
        r, c = divmod(i, cols)
        x0 = c * cell_w + (cell_w - marker.shape[1]) // 2
        y0 = 120 + r * cell_h + 10
        sheet[y0 : y0 + marker.shape[0], x0 : x0 + marker.shape[1]] = marker
        label = f"{name}  (marker {i})"
        cv2.putText(
            sheet,
            label,
            (x0, y0 + marker.shape[0] + 40),
            cv2.FONT_HERSHEY_DUPLEX,
            0.9,
            0,
            2,
            cv2.LINE_AA,
        )
        cv2.rectangle(
            sheet,
            (c * cell_w + 8, 120 + r * cell_h),
            ((c + 1) * cell_w - 8, 120 + (r + 1) * cell_h - 8),
            180,
            1,
        )
    return sheet


def calibrate_from_markers(
    image: np.ndarray, players: Sequence[str], source: str = "the photo"
) -> Calibration:
    """Marker i in front of player i: anchors at the marker centres."""
    _check_players(players)
    found = detect_markers(image)
    missing = [f"{i} ({name})" for i, name in enumerate(players) if i not in found]
    if missing:
        seen = ", ".join(str(i) for i in sorted(found)) or "none"
        raise CalibrationError(
            f"markers not found in {source}: {', '.join(missing)}; markers seen: {seen}. "
            "Lay marker i in front of player i, flat and fully in view"
        )
    centers = {i: tuple(float(v) for v in found[i].mean(axis=0)) for i in range(len(players))}
    h, w = image.shape[:2]
    sides = [float(quad_sides(found[i]).mean()) for i in range(len(players))]
    return Calibration(
        seats={name: centers[i] for i, name in enumerate(players)},  # type: ignore[misc]
        image_size=(w, h),
        markers={name: i for i, name in enumerate(players)},
        marker_centers=centers,  # type: ignore[arg-type]
        card_length=float(np.median(sides)) * CARD_MM / PRINTED_MARKER_MM,
    )


CardFinder = Callable[[np.ndarray], Sequence[np.ndarray]]


def _default_finder() -> CardFinder:
    from .detect import find_cards  # lazy: the finder is another module of this layer

    return find_cards


def calibrate_from_cards(
    image: np.ndarray,
    players: Sequence[str],
    finder: CardFinder | None = None,
    source: str = "the photo",
) -> Calibration:
    """One card in front of each player: anchors at the card centres.

    Which card is whose: the players are given clockwise seen from above, and the first
    player is the one whose card lies nearest the bottom edge's middle, going clockwise
    round the centre of the cards (as `companion calibrate` explains to the table).
    """
    _check_players(players)
    quads = list((finder or _default_finder())(image))
    if len(quads) != len(players):
        raise CalibrationError(
            f"found {len(quads)} cards in {source} but there are {len(players)} players: "
            "lay exactly one card in front of each player, apart from each other"
        )
    centers = [tuple(float(v) for v in np.asarray(q).reshape(4, 2).mean(axis=0)) for q in quads]
    cx = sum(c[0] for c in centers) / len(centers)
    cy = sum(c[1] for c in centers) / len(centers)

    def clockwise_from_bottom(c: tuple[float, ...]) -> float:
        return (math.degrees(math.atan2(c[1] - cy, c[0] - cx)) - 90.0) % 360.0

    ordered = sorted(centers, key=clockwise_from_bottom)
    h, w = image.shape[:2]
    return Calibration(
        seats={name: (c[0], c[1]) for name, c in zip(players, ordered, strict=True)},
        image_size=(w, h),
        card_length=_median_length(quads),
    )


def calibrate_cards_in_turn(
    images: Sequence[np.ndarray],
    players: Sequence[str],
    finder: CardFinder | None = None,
    sources: Sequence[str] | None = None,
) -> Calibration:
    """Players lay a card in front of their place one after the other, when asked.

    `images[k]` is taken after player k laid theirs (earlier cards stay): the one card that
    is new in it is player k's, so no convention about where anyone sits is needed.
    """
    _check_players(players)
    if len(images) != len(players):
        raise CalibrationError(
            f"expected one picture per player ({len(players)}), got {len(images)}"
        )
    find = finder or _default_finder()
    names = sources or [f"picture {k + 1}" for k in range(len(images))]
    anchors: dict[str, Point] = {}
    laid: list[np.ndarray] = []
    for name, image, source in zip(players, images, names, strict=True):
        quads = [np.asarray(q, np.float64).reshape(4, 2) for q in find(image)]
        new = [
            q
            for q in quads
            if all(math.dist(q.mean(axis=0), a) > 0.5 * _long_side(q) for a in anchors.values())
        ]
        if len(new) != 1:
            raise CalibrationError(
                f"{source}: expected exactly one new card (for {name}), found {len(new)}; "
                "lay one card per player, apart from the others, and keep the camera still"
            )
        c = new[0].mean(axis=0)
        anchors[name] = (float(c[0]), float(c[1]))
        laid.append(new[0])
    h, w = images[0].shape[:2]
    return Calibration(seats=anchors, image_size=(w, h), card_length=_median_length(laid))


def card_length_advice(calibration: Calibration) -> str | None:
    """A line for the table where the cards looked shorter than `RELIABLE_CARD_LENGTH` at
    calibration time; None where they looked long enough, or their length is unknown."""
    length = calibration.card_length
    if length is None or length >= RELIABLE_CARD_LENGTH:
        return None
    return (
        f"cards look about {length:.0f} px long in the picture: below about "
        f"{RELIABLE_CARD_LENGTH:.0f} px real cards are missed more often (about one in five at "
        "100 px in our real-photo benchmark); bring the camera closer to the table or zoom "
        "in, then calibrate again"
    )


def _long_side(quad: np.ndarray) -> float:
    return float(quad_sides(quad).max())


def _median_length(quads: Sequence[np.ndarray]) -> float | None:
    """The median length of the cards `quads` outline (`geometry.quad_long_side`,
    pixels), None for none."""
    if not len(quads):
        return None
    return float(np.median([quad_long_side(q) for q in quads]))


def _check_players(players: Sequence[str]) -> None:
    if not 2 <= len(players) <= 5:
        raise CalibrationError(f"a game has 2 to 5 players, got {len(players)}")
    if len(set(players)) != len(players) or not all(p.strip() for p in players):
        raise CalibrationError(f"player names must be distinct and non-empty, got {list(players)}")


def load_calibration(path: str | Path, image_size: tuple[int, int] | None = None) -> Calibration:
    """`Calibration.load` as a function (raises `CalibrationError`, a ValueError)."""
    return Calibration.load(path, image_size)


def default_calibration_path() -> Path:
    """Where `companion calibrate` saves by default (the user's config directory)."""
    import platformdirs

    return platformdirs.user_config_path("prey-companion") / "calibration.json"
