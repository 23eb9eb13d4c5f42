"""`companion detect`: what the camera sees in still pictures (../shared/spec/detect-json.md)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from companion.vision.types import CardReading

DEFAULT_DECK = "playing-cards"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "detect",
        help="find and read the cards in pictures",
        description="Find every card in each picture and read it (face, rank, suit). "
        "Exit status 2 when a picture, the deck or the calibration cannot be read; the "
        "other pictures are still reported.",
    )
    p.add_argument("images", metavar="IMAGE", nargs="+", help="picture files (jpg, png, ...)")
    p.add_argument(
        "--deck",
        default=DEFAULT_DECK,
        help=f"playing-cards (built in) or an enrolled deck's name (default {DEFAULT_DECK})",
    )
    p.add_argument("--calibration", metavar="FILE", help="seat calibration: adds each card's seat")
    p.add_argument("--annotate", metavar="DIR", help="also write each picture, cards outlined")
    p.add_argument("--json", action="store_true", help="print one JSON object (documented format)")
    p.add_argument(
        "--finder",
        choices=("both", "edges", "learned"),  # pipeline.FINDERS, without importing cv2
        default="both",
        help="card finder: both (default: the learned segmenter, and edges too where it "
        "leaves doubt), "
        "edges or learned alone (models/README.md)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # Imported here: `companion --help` must not pay for OpenCV and onnxruntime.
    from companion.vision.calibration import Calibration, CalibrationError
    from companion.vision.decks import DeckError, load_deck
    from companion.vision.pipeline import CardPipeline

    try:
        deck = load_deck(args.deck)
    except DeckError as err:
        return _fail(str(err))
    calibration = None
    if args.calibration:
        try:
            calibration = Calibration.load(args.calibration)
        except CalibrationError as err:
            return _fail(str(err))
    try:
        pipeline = CardPipeline(deck, finder=args.finder)
    except OSError as err:  # a model file missing from the installation
        return _fail(str(err))
    status = 0
    reports = []
    written: set[str] = set()
    for path in args.images:
        image = read_image(path)
        if image is None:
            print(f"companion detect: cannot read {path!r} as a picture", file=sys.stderr)
            status = 2
            continue
        readings = pipeline.read(image)
        seats = None
        if calibration is not None:
            height, width = image.shape[:2]
            try:
                calibration.check_image_size((width, height), "this picture")
                seats = [calibration.seat_of(r.center) for r in readings]
            except CalibrationError as err:
                print(f"companion detect: {path}: {err}", file=sys.stderr)
                seats = [None] * len(readings)
                status = 2
        reports.append(image_report(path, image, readings, seats))
        if args.annotate:
            try:
                _write_annotated(Path(args.annotate), path, image, readings, seats, written)
            except OSError as err:
                print(
                    f"companion detect: cannot write into {args.annotate}: {err}", file=sys.stderr
                )
                status = 2
    output = {"deck": deck.name, "images": reports}
    if args.json:
        print(json.dumps(output))
    else:
        print(_as_text(output))
    return status


def read_image(path: str) -> np.ndarray | None:
    """The picture at `path` as BGR uint8, or None when it is missing or not a picture."""
    import cv2
    import numpy as np

    try:
        data = np.fromfile(path, dtype=np.uint8)
    except OSError:
        return None
    if data.size == 0:
        return None
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def image_report(
    path: str,
    image: np.ndarray,
    readings: Sequence[CardReading],
    seats: Sequence[str | None] | None,
) -> dict:
    """One entry of the documented "images" list."""
    height, width = image.shape[:2]
    cards = []
    for index, reading in enumerate(readings):
        card = {
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in reading.corners],
            "face": reading.face,
            "rank": reading.rank,
            "suit": reading.suit,
            "label": reading.label,
            "confidence": round(float(reading.confidence), 3),
        }
        if seats is not None:
            card["seat"] = seats[index]
        cards.append(card)
    return {"image": path, "width": int(width), "height": int(height), "cards": cards}


def _write_annotated(
    folder: Path,
    path: str,
    image: np.ndarray,
    readings: Sequence[CardReading],
    seats: Sequence[str | None] | None,
    written: set[str],
) -> None:
    import cv2

    from companion.vision.annotate import annotate

    folder.mkdir(parents=True, exist_ok=True)
    stem = Path(path).stem
    name, n = f"{stem}.png", 1
    while name in written:  # two pictures of the same name from different folders
        n += 1
        name = f"{stem}-{n}.png"
    written.add(name)
    if not cv2.imwrite(str(folder / name), annotate(image, readings, seats)):
        raise OSError(f"{folder / name} could not be written")


def _as_text(output: dict) -> str:
    lines = [f"deck: {output['deck']}"]
    for report in output["images"]:
        lines.append(f"{report['image']}: {len(report['cards'])} cards")
        for card in report["cards"]:
            x = sum(c[0] for c in card["corners"]) / 4
            y = sum(c[1] for c in card["corners"]) / 4
            seat = f"  seat {card['seat']}" if card.get("seat") else ""
            lines.append(
                f"  {card['label']:<16} {card['confidence']:.2f}  at ({x:.0f}, {y:.0f}){seat}"
            )
    return "\n".join(lines)


def _fail(message: str) -> int:
    print(f"companion detect: {message}", file=sys.stderr)
    return 2
