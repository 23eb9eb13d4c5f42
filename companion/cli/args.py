"""Argument types shared by several subcommands, kept light: building the parser must not
import OpenCV or the demo."""

from __future__ import annotations

import argparse

# The picture size a camera is asked for: the size card reading is measured at (`companion
# bench vision`). At a webcam's usual default, 640x480, the cards are half as long, most
# under the 60 pixels the reader is built for.
CAMERA_SIZE = (1280, 720)


def parse_size(text: str) -> tuple[int, int]:
    """`960x540` to (960, 540); anything else is refused with the expected form."""
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        message = f"expected WIDTHxHEIGHT like 960x540, got {text!r}"
        raise argparse.ArgumentTypeError(message) from None
    if not (320 <= width <= 3840 and 240 <= height <= 2160):
        raise argparse.ArgumentTypeError(f"expected a size from 320x240 to 3840x2160, got {text}")
    return width, height


def add_camera_size(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """`--camera-size WxH`: the picture size to ask the camera for."""
    width, height = CAMERA_SIZE
    parser.add_argument(
        "--camera-size",
        type=parse_size,
        default=CAMERA_SIZE,
        metavar="WxH",
        help=f"the picture size to ask the camera for (default {width}x{height}, the size card "
        "reading is measured at; a camera without it gives the nearest it has)",
    )
