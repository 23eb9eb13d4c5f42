"""ChangeGate: frames showing nothing new keep the last readings; a card turned, a hand
coming in or a picture of another size are read in full, and so is every REREAD_EVERY-th
frame."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion.vision.change import REREAD_EVERY, ChangeGate
from companion.vision.synth import CardSpec, random_scene, render_scene
from companion.vision.synth.spec import HandSpec

SIZE = (960, 540)


def table(cards: tuple[CardSpec, ...] = (), hand: HandSpec | None = None, noise_seed: int = 0):
    """The same table each time, with `cards`, and the camera's own noise (seeded)."""
    spec = random_scene(np.random.default_rng(990_100), 0, size=SIZE, table="wood-light")
    spec = replace(spec, cards=cards, hand=hand, motion_blur=0.0)
    image, _ = render_scene(spec, np.random.default_rng(0))
    noise = np.random.default_rng(noise_seed).normal(0.0, 3.0, image.shape)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


CARD = CardSpec(deck="playing-cards", rank=1, suit="hearts", face="down", center=(480, 270))


def test_a_still_table_is_read_once_then_again_every_reread_every_frames() -> None:
    gate = ChangeGate()
    first = table((CARD,))
    decisions = [gate.changed(first)]
    decisions += [gate.changed(table((CARD,), noise_seed=k)) for k in range(1, 2 * REREAD_EVERY)]
    assert decisions[0]
    assert [k for k, read in enumerate(decisions) if read] == [0, REREAD_EVERY]


def test_the_overall_light_changing_is_not_a_change() -> None:
    gate = ChangeGate()
    image = table((CARD,))
    assert gate.changed(image)
    brighter = np.clip(image.astype(np.float32) * 1.06, 0, 255).astype(np.uint8)
    assert not gate.changed(brighter)


@pytest.mark.parametrize("what", ["turned up", "put down", "slid", "hand"])
def test_a_card_turned_put_down_or_slid_and_a_hand_are_changes(what: str) -> None:
    gate = ChangeGate()
    assert gate.changed(table((CARD,)))
    if what == "turned up":
        after = table((replace(CARD, face="up"),), noise_seed=1)
    elif what == "put down":
        second = replace(CARD, center=(700, 300))
        after = table((CARD, second), noise_seed=1)
    elif what == "slid":
        after = table((replace(CARD, center=(482, 270)),), noise_seed=1)  # 2 px
    else:
        after = table((CARD,), HandSpec(tip=(480, 270), angle=90.0, width=60.0), noise_seed=1)
    assert gate.changed(after)


def test_a_picture_of_another_size_is_read_and_bad_settings_are_refused() -> None:
    gate = ChangeGate()
    assert gate.changed(np.zeros((540, 960, 3), np.uint8))
    assert gate.changed(np.zeros((720, 1280, 3), np.uint8))
    with pytest.raises(ValueError, match="expected a level above 0"):
        ChangeGate(level=0)
    with pytest.raises(ValueError, match="every >= 1"):
        ChangeGate(every=0)


def test_the_eyes_keep_the_last_readings_for_a_frame_that_shows_nothing_new() -> None:
    from companion.referee.eyes import VisionEyes
    from companion.vision.calibration import parse_seats
    from companion.vision.tracker import Tracker
    from companion.vision.types import CardReading, Frame

    quad = np.float32([[450, 230], [510, 230], [510, 310], [450, 310]])

    class Pipeline:  # counts the frames it is asked to read
        calls = 0

        def read(self, image: np.ndarray) -> list[CardReading]:
            Pipeline.calls += 1
            return [CardReading(quad, "down", None, None, "back", 0.9)]

    eyes = VisionEyes(
        Pipeline(), Tracker(parse_seats("Alia=480,500;Ben=480,40")), gate=ChangeGate()
    )
    frames = [table((CARD,), noise_seed=k) for k in range(4)] + [table((replace(CARD, face="up"),))]
    sights = [eyes.see(Frame(k, k / 30, image)) for k, image in enumerate(frames)]
    assert Pipeline.calls == eyes.full_reads == 2  # the first frame and the turned card
    assert all(len(sight.readings) == 1 for sight in sights)  # still frames keep the card
