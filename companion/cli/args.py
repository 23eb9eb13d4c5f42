"""Argument types shared by several subcommands, kept light: building the parser must not
import OpenCV or the demo."""

from __future__ import annotations

import argparse


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
