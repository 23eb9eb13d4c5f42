"""An enrolled deck's back told by its colour under the table's light.

Why colour: the embedding that reads an enrolled deck takes out each card's own colour and
contrast, so a phone or a note can be likened to a plain back; and a back printed with
little or nothing inside its margin carries no print for the edge finder to tell it from
a phone's dark screen. Its mean colour, compared up to the light's brightness, is what
sets the deck's back apart from those things (`back_coloured`).
"""

from __future__ import annotations

import numpy as np

# A colour is the enrolled back's where it is BACK_BRIGHTNESS times as bright and no
# channel lies more than BACK_TINT off that common gain (`back_coloured`). Measured on 12
# tuning designs (models/README.md, card finder, "An enrolled deck's own back"): the backs
# read right lie within 0.47-1.31 times as bright as the enrolled one and 0.26 off its
# tint, 15 of the 16 things read as backs on empty tables outside; with the rule (on an
# enrolled deck seen by the finder net for backs of any design), readings on 120 empty
# tables 16 -> 1, backs read right unchanged (104 of 158). The light of the rendered
# tables is what this knows: a back enrolled from a bright scan and seen in a dim room may
# read darker than 0.42, and go unread.
BACK_BRIGHTNESS = (0.42, 1.5)
BACK_TINT = 0.28

# The part of a card the edge finder looks for print in (`detect._INSIDE` is a grid over
# it: 0.2-0.8 of its width, 0.15-0.85 of its length), and the spread of grey (levels)
# under which an enrolled back counts as plain there (`plain_inside`): the edge finder's
# print test asks a step of 3 grey levels on a quiet cloth, 11 or more on a coarse one
# (`detect.STEP_FACTOR`), and a fine pattern blurs to less on a small card. Measured on
# the tuning designs (4,100,000+; 26, 51 and 59 of the 120 lie under 8, 14 and 20; the
# demo deck's back spreads by 52), 3 tables each from 4,650,000 + 10 x design: the 26
# faint designs' backs read 333, 350 and 354 of 450 (321 with none plain), the 16 other
# designs between 8 and 14 264 -> 268 of 282, the 5 between 14 and 20 80 of 87 either way;
# readings on 10 empty tables each the same, and on 90 more from 6,100,300 read with each
# deck that changes 60 -> 56 (8 -> 14) and 19 -> 17 (14 -> 20): read as a plain back's
# deck, a back must be its colour.
INSIDE_BOX = (0.2, 0.15, 0.8, 0.85)
PLAIN_INSIDE = 20.0


def tint_and_gain(colours: np.ndarray, reference: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How far mean BGR `colours` (..., 3) lie from `reference`'s tint, and how bright
    they are against it: the per-channel ratio's common gain, and the largest channel's
    departure from that gain (0 for the same colour under a brighter or dimmer light)."""
    ratio = (np.asarray(colours, np.float32) + 1.0) / (reference + 1.0)
    # channel by channel: reductions over a last axis of three cost ten times more on a
    # picture's pixels (`colour_blobs`); the same sums as ratio.mean(axis=-1)
    channels = ratio[..., 0], ratio[..., 1], ratio[..., 2]
    gain = (channels[0] + channels[1] + channels[2]) / 3
    off = [np.abs(channel / gain - 1.0) for channel in channels]
    return np.maximum(np.maximum(off[0], off[1]), off[2]), gain


def back_coloured(colours: np.ndarray, back: np.ndarray) -> np.ndarray:
    """For each mean BGR colour (..., 3), whether it is `back`'s (mean BGR) under the
    table's light: as bright within BACK_BRIGHTNESS, and no channel off the common gain
    by more than BACK_TINT."""
    tint, gain = tint_and_gain(colours, back)
    low, high = BACK_BRIGHTNESS
    return (gain >= low) & (gain <= high) & (tint <= BACK_TINT)


def plain_inside(backs: np.ndarray) -> np.ndarray | None:
    """The mean BGR of the inside (`INSIDE_BOX`) of an enrolled deck's back pictures (N,
    H, W, 3 uint8), where that inside is plain (its grey spreads by under PLAIN_INSIDE
    levels in every picture); None where the back carries print there, as most do."""
    backs = np.asarray(backs)
    height, width = backs.shape[1:3]
    u0, v0, u1, v1 = INSIDE_BOX
    rows = slice(round(v0 * height), round(v1 * height))
    inside = backs[:, rows, round(u0 * width) : round(u1 * width)]
    grey = inside.astype(np.float32) @ np.float32([0.114, 0.587, 0.299])
    if float(grey.reshape(len(grey), -1).std(axis=1).max()) >= PLAIN_INSIDE:
        return None
    return inside.reshape(-1, 3).astype(np.float32).mean(axis=0)
