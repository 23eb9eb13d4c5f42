"""A playing card that many quads read alike, none surely: it stands where nothing else
was read.

On a frame in doubt the searches read dozens of quads round a card the finders outlined
badly: the side search moves each side, the cut-outs and the search at the ends of unsure
quads try card-sized parts, each also placed on the edges (`FrameReads.known` holds them
all). A card partly under its neighbour, one corner index hidden, reads as its game card
on many of them but at the floor of naming one (confidence 0.5 to 0.9, where its whole
face and its one corner in sight agree but the hidden corner shows the neighbour's print),
so no search lets it stand (`levels.SURE_ENOUGH`), and the frame loses it: on the 450
playing tuning row tables (4,450,000+), 28 of the 151 cards lost were game cards in a
steady frame with no reading on even a third of them. Tuning row table 4,450,083: an Ace
of clubs 72 px long, 82% in sight, read as itself at 0.52 to 0.57 on four quads and as no
game card on the rest.

Where `VOTES` quads or more, each overlapping the surest of them (`ALIKE`), read one game
card, no quad read this frame names another game card there, no card kept lies there
(`levels.SAME_CARD`, `levels.mostly_on`) and no card kept names it (one deck holds each
card once: its suit is its player's), the surest of those quads stands for it.

Playing cards only: an enrolled deck's animal lies before every player that plays it, so
nothing tells a second one from a misread. Measured without that guard, the animal row
tables (250 from 4,470,000) gained 4 cards and a game card where no card lies: a wolf at
0.65 on an owl mostly under a coaster, read so by three quads (4,470,216).

Measured (2026-12-07, seventy-first stop; OpenCV 5.0, the tuning sets): playing row tables
1,229 -> 1,231 of 1,271 (100 from 4,450,000), 1,910 -> 1,913 of 1,957 (150 from
4,450,100), 2,505 -> 2,511 of 2,567 (200 from 4,450,250); playing card scenes 4,347 ->
4,348 of 4,367 (300 from 4,200,000); tables seen 35 degrees from straight down: rows
1,835 -> 1,840 of 1,931 (150 from 4,460,000), card scenes 2,123 -> 2,127 (150 from
4,210,000); designed backs 1,254 -> 1,255 (100 from 4,100,000). No wrong game rank, game
card on no card or phantom more anywhere; jokers, heaps, empty tables, the animal sets
and the real train split as photographed and at 100 px exactly as before. At 2 votes,
17 row cards more but a wrong game rank; at 4, 9. It runs on steady frames in doubt only.
"""

from __future__ import annotations

from ..geometry import quad_iou
from ..types import CardReading
from .levels import SAME_CARD, mostly_on
from .reading import FrameReads

# Quads reading one game card, at least, that overlap the surest of them at ALIKE (IoU):
# one card's outline moved by the searches, not two cards.
VOTES = 3
ALIKE = 0.5


def voted_cards(frame: FrameReads, kept: list[CardReading]) -> list[CardReading]:
    """`kept`, with each playing card that `VOTES` alike quads read this frame name (see
    above) standing where no card of `kept` lies and none names it."""
    if frame.enrolled:
        return kept
    games = [r for r in frame.known.values() if r.rank is not None]
    named = {r.label for r in kept if r.rank is not None}
    taken = [r.corners for r in kept]
    open_ = sorted(
        (r for r in games if r.label not in named and _clear_of(r, taken)),
        key=lambda r: -r.confidence,
    )
    out = list(kept)
    counted: set[int] = set()
    for index, surest in enumerate(open_):
        if index in counted:
            continue
        alike = [
            k
            for k, r in enumerate(open_)
            if k not in counted and quad_iou(r.corners, surest.corners) >= ALIKE
        ]
        counted.update(alike)
        if len(alike) < VOTES or surest.label in named or _named_otherwise(surest, games):
            continue
        named.add(surest.label)
        out.append(surest)
    return out


def _clear_of(reading: CardReading, taken: list) -> bool:
    """Whether `reading`'s quad lies on none of the `taken` quads (`SAME_CARD`,
    `mostly_on`)."""
    quad = reading.corners
    return not mostly_on(quad, taken) and all(quad_iou(quad, q) < SAME_CARD for q in taken)


def _named_otherwise(surest: CardReading, games: list[CardReading]) -> bool:
    """Whether a quad of `games` at `ALIKE` with `surest` names another game card."""
    return any(
        r.label != surest.label and quad_iou(r.corners, surest.corners) >= ALIKE for r in games
    )
