"""`companion calibrate`: record where each player sits (seat anchors), or print markers.

companion calibrate markers --out sheet.png [--players Alia,Ben,...]
companion calibrate --image photo.jpg --players Alia,Ben,Carmen   (ArUco markers)
companion calibrate --from-cards photo.jpg --players Alia,Ben,Carmen
companion calibrate --seats "Alia=412,650;Ben=900,640" --size 1280x720
companion calibrate --show [FILE]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.cli.args import add_camera_size, parse_size


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "calibrate",
        help="record the seat of each player (ArUco markers, cards, or coordinates)",
        description=(
            "Record a seat anchor per player, in image pixels, so that every card is given to "
            "the nearest seat. Players are named in clockwise order seen from above. With "
            "'markers', write a printable sheet of ArUco seat markers instead."
        ),
    )
    p.add_argument("action", nargs="?", choices=["markers"], help="print the marker sheet")
    p.add_argument("--players", help="player names in clockwise order: Alia,Ben,Carmen")
    p.add_argument("--image", type=Path, help="a photo of the table with marker i before player i")
    p.add_argument(
        "--from-cards",
        type=Path,
        nargs="+",
        metavar="IMAGE",
        help="one photo with one card before each player (first player: nearest the bottom "
        "edge, then clockwise), or one photo per player taken after each laid their card",
    )
    p.add_argument(
        "--camera",
        type=int,
        metavar="N",
        help="use camera N: each player in turn lays a card when asked (or, with "
        "--markers-now, one picture of the markers)",
    )
    p.add_argument(
        "--markers-now", action="store_true", help="with --camera: calibrate from markers"
    )
    add_camera_size(p)
    p.add_argument("--seats", help='anchors as "Alia=412,650;Ben=900,640"')
    p.add_argument(
        "--size", type=parse_size, help="with --seats: the picture size WxH, e.g. 1280x720"
    )
    p.add_argument("--max-distance", type=float, help="cards farther from every seat are in none")
    p.add_argument("--out", type=Path, help="where to write (default: the user config dir)")
    p.add_argument("--show", nargs="?", const="", metavar="FILE", help="print a calibration")
    p.set_defaults(func=run)


def _players(text: str | None) -> list[str]:
    from companion.vision.calibration import CalibrationError

    if not text:
        raise CalibrationError("expected --players NAME,NAME,... (clockwise seen from above)")
    return [name.strip() for name in text.split(",")]


def _read_image(path: Path):  # -> np.ndarray
    import cv2

    from companion.vision.calibration import CalibrationError

    if not path.is_file():
        raise CalibrationError(f"no image file at {path}")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise CalibrationError(f"cannot read {path} as an image")
    return image


def _from_camera(
    index: int, players: list[str], markers: bool, size: tuple[int, int]
):  # -> Calibration
    """Ask the table, grab a fresh frame for each answer, calibrate from those frames (the
    camera asked for pictures of `size`, as `companion play` asks it)."""
    from companion.cli.camera_prompts import frame_after_answer
    from companion.vision import calibration as cal
    from companion.vision.sources import CameraSource, SourceError

    try:
        camera = CameraSource(index, queue_size=1, size=size)
    except SourceError as error:
        raise cal.CalibrationError(f"{error}; or calibrate from a photo: --image PHOTO") from None
    with camera:

        def grab(prompt: str):  # -> np.ndarray
            return frame_after_answer(camera, index, prompt, cal.CalibrationError)

        if markers:
            image = grab("Lay marker i in front of player i, then press Enter ")
            return cal.calibrate_from_markers(image, players, f"camera {index}")
        images = [
            grab(f"{name}: lay one card in front of your place, press Enter ") for name in players
        ]
        return cal.calibrate_cards_in_turn(images, players, sources=[f"after {p}" for p in players])


def _describe(calibration, path: Path | None) -> str:
    from companion.vision.calibration import card_length_advice

    lines = [f"calibration {path}" if path else "calibration"]
    if calibration.image_size:
        lines.append(f"  picture: {calibration.image_size[0]}x{calibration.image_size[1]}")
    if calibration.card_length:
        lines.append(f"  cards: about {calibration.card_length:.0f} px long")
    for name, (x, y) in calibration.seats.items():
        marker = calibration.markers.get(name)
        extra = f"  (marker {marker})" if marker is not None else ""
        lines.append(f"  {name}: {x:.0f},{y:.0f}{extra}")
    if (advice := card_length_advice(calibration)) is not None:
        lines.append(f"note: {advice}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    import dataclasses

    import cv2

    from companion.vision import calibration as cal

    try:
        if args.action == "markers":
            if args.out is None:
                raise cal.CalibrationError("expected --out FILE.png for the marker sheet")
            players = _players(args.players) if args.players else 5
            sheet = cal.marker_sheet(players)
            args.out.parent.mkdir(parents=True, exist_ok=True)
            if not cv2.imwrite(str(args.out), sheet):
                raise cal.CalibrationError(f"cannot write {args.out} (use .png or .jpg)")
            print(f"wrote {args.out}: print it, cut it, lay marker i in front of player i")
            return 0
        if args.show is not None:
            path = Path(args.show) if args.show else cal.default_calibration_path()
            print(_describe(cal.load_calibration(path), path))
            return 0
        given = [args.image, args.from_cards, args.seats, args.camera]
        if sum(x is not None for x in given) != 1:
            raise cal.CalibrationError(
                "give exactly one of --image PHOTO (markers), --from-cards PHOTO..., "
                "--camera N or --seats TEXT"
            )
        if args.seats is not None:
            calibration = cal.parse_seats(args.seats, args.size)
        elif args.image is not None:
            calibration = cal.calibrate_from_markers(
                _read_image(args.image), _players(args.players), str(args.image)
            )
        elif args.camera is not None:
            calibration = _from_camera(
                args.camera, _players(args.players), args.markers_now, args.camera_size
            )
        elif len(args.from_cards) == 1:
            (photo,) = args.from_cards
            calibration = cal.calibrate_from_cards(
                _read_image(photo), _players(args.players), source=str(photo)
            )
        else:
            calibration = cal.calibrate_cards_in_turn(
                [_read_image(p) for p in args.from_cards],
                _players(args.players),
                sources=[str(p) for p in args.from_cards],
            )
        if args.max_distance is not None:
            calibration = dataclasses.replace(calibration, max_distance=args.max_distance)
        out = args.out or cal.default_calibration_path()
        calibration.save(out)
        print(_describe(calibration, out))
        return 0
    except cal.CalibrationError as error:
        print(f"companion calibrate: {error}", file=sys.stderr)
        return 2
