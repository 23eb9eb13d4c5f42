"""Where the demo table puts each seat's cards in the picture.

Seats sit around the table edges, clockwise seen from above, the first at the bottom.
Each seat has a row of up to three played cards nearer the centre and, behind it, a row
for the hand an eaten player lays down; cards face their player (upside down to the
camera for the seat at the top). Sizes scale with the picture so a 640x360 test film and
a 1280x720 demo look alike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from companion.vision.synth import CARD_SIZE

CARD_ASPECT = CARD_SIZE[0] / CARD_SIZE[1]  # width / length
MAX_PLAYED, MAX_LAID = 3, 4
ROW_SPACING = 1.4  # card widths between neighbours: the finder needs a gap between cards


@dataclass(frozen=True, slots=True)
class SeatPlace:
    """One seat: its anchor (for calibration), card slots, card angle, hand direction."""

    anchor: tuple[float, float]
    played: tuple[tuple[float, float], ...]
    laid: tuple[tuple[float, float], ...]
    card_angle: float  # degrees clockwise on screen: the card's top points to the centre
    reach_angle: float  # degrees clockwise on screen: from the player toward the centre


@dataclass(frozen=True, slots=True)
class TableLayout:
    """The places of `players` in a picture of `size` (width, height)."""

    size: tuple[int, int]
    card_length: float
    seats: dict[str, SeatPlace]

    def anchors(self) -> dict[str, tuple[float, float]]:
        """Seat anchors in image pixels, as a calibration would record them."""
        return {name: place.anchor for name, place in self.seats.items()}


def table_layout(players: tuple[str, ...], size: tuple[int, int]) -> TableLayout:
    """Seats spread evenly around the picture's edges (2 to 5 players)."""
    width, height = size
    length = 0.17 * min(width, height * 16 / 9) * 9 / 16
    card_width = length * CARD_ASPECT
    cx, cy = width / 2, height / 2
    reach_x, reach_y = cx - 1.9 * length, cy - 1.9 * length
    seats = {}
    for index, name in enumerate(players):
        theta = math.radians(90 + 360 * index / len(players))
        ux, uy = math.cos(theta), math.sin(theta)  # toward the player
        vx, vy = -uy, ux  # along the row

        def at(out: float, along: float, ux=ux, uy=uy, vx=vx, vy=vy) -> tuple[float, float]:
            return (
                cx + ux * (reach_x + out) + vx * along,
                cy + uy * (reach_y + out) + vy * along,
            )

        step = ROW_SPACING * card_width
        played = tuple(at(0.0, step * (i - 1)) for i in range(MAX_PLAYED))
        laid = tuple(at(1.1 * length, step * (i - 1.5)) for i in range(MAX_LAID))
        seats[name] = SeatPlace(
            anchor=at(0.55 * length, 0.0),
            played=played,
            laid=laid,
            card_angle=(math.degrees(theta) - 90.0) % 360.0,
            reach_angle=(math.degrees(theta) + 180.0) % 360.0,
        )
    return TableLayout(size, length, seats)


def seats_argument(layout: TableLayout) -> str:
    """The anchors as `--seats "Alia=412,650;Ben=..."` (what `play --video` takes)."""
    return ";".join(f"{name}={x:.0f},{y:.0f}" for name, (x, y) in layout.anchors().items())
