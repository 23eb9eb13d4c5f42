"""Render the project's own animal deck and enroll it as the shipped `demo-animals` profile.

The pictures are kept in calibration/decks/demo-animals/ (one flat scan per card, as a user
would enroll a deck), and the profile is written next to the models in the package.
"""

from __future__ import annotations

from pathlib import Path

import cv2

from companion.vision.decks import DEMO_ANIMALS, SHIPPED_DIR, enroll
from companion.vision.synth.art import card_back, card_face

PICTURES = Path(__file__).resolve().parents[2] / "calibration" / "decks" / DEMO_ANIMALS


def render_pictures(folder: Path, edition: str | int = "classic") -> Path:
    """Write 1.png … 5.png and back.png of one animal edition into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    for rank in range(1, 6):
        cv2.imwrite(str(folder / f"{rank}.png"), card_face("animals", rank, None, edition))
    cv2.imwrite(str(folder / "back.png"), card_back("animals", edition))
    return folder


def make_demo_deck() -> None:
    """Render the classic edition and enroll it into the package's shipped profiles."""
    render_pictures(PICTURES)
    profile = enroll(DEMO_ANIMALS, PICTURES, decks_dir=SHIPPED_DIR)
    print(f"wrote {profile.source} from {PICTURES}")
