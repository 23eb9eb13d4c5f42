"""Enrolling from a photo of one card (`--enroll-photos`): how often the enrolling finder
outlines the card right, and how a deck enrolled from such a photo reads its tables."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import cv2
import numpy as np

from .scenes import ANIMAL_EDITION, DESIGN_SEED, designed_back_tables
from .tallies import Tally

# Photos of one card to enroll (`--enroll-photos`): photo k of each framing from
# ENROLL_PHOTO_SEED + k, the card this long (pixels) in a picture of this size; outlined
# right at ENROLL_IOU with its true outline.
ENROLL_PHOTO_SEED = 5_700_000
ENROLL_FRAMINGS = {
    "webcam": ((1280, 720), (250.0, 400.0)),
    "phone": ((1200, 900), (450.0, 650.0)),
    "laid": ((1280, 720), (100.0, 250.0)),  # a card laid on the table, as a webcam sees it
}
ENROLL_IOU = 0.9


def enroll_photo_figures(count: int, finder: str = "both") -> dict[str, object]:
    """Photos of one card (`_enroll_photos`) of the backs of the first `count` tables of
    `designed_back_scenes`, and as many of the demo deck's faces, each outlined by the
    enrolling finder and scored against its true outline; then each table read with its
    back enrolled from its phone-framed photo and from its flat picture."""
    from companion.vision.decks import PLAYING_CARDS, DeckProfile
    from companion.vision.features import READ_SIZE, rectify_cards
    from companion.vision.geometry import quad_iou
    from companion.vision.pipeline import CardPipeline
    from companion.vision.single_card import card_in_photo, card_laid
    from companion.vision.synth.art import card_back

    outlines: dict[str, Counter] = {}
    photo_read, flat_read, enrolled = Tally(), Tally(), 0
    for index, (image, truths, style) in enumerate(designed_back_tables(count, DESIGN_SEED)):
        art = np.asarray(card_back("playing-cards", style))
        phone_back = None
        for name, photo, empty, truth in _enroll_photos(index, art):
            quad = card_in_photo(photo) if empty is None else card_laid(photo, empty)
            counts = outlines.setdefault(name, Counter())
            counts["photos"] += 1
            if quad is None:
                counts["no card found"] += 1
            else:
                counts["outlined right" if quad_iou(quad, truth) >= ENROLL_IOU else "wrong"] += 1
            if name == "backs, phone" and quad is not None:
                phone_back = rectify_cards(photo, [quad])[0]
        if phone_back is None:
            continue  # `deck enroll` says that no card was found: the user takes another
        enrolled += 1
        flat_back = cv2.resize(art, READ_SIZE, interpolation=cv2.INTER_AREA)  # as enrolled
        for back, tally in ((phone_back, photo_read), (flat_back, flat_read)):
            deck = DeckProfile(style, PLAYING_CARDS, {"back": back[None]}, "benchmark")
            tally.add_scene(CardPipeline(deck, finder=finder).read(image), [], truths)
    figures: dict[str, object] = {
        name: f"{c['outlined right']} of {c['photos']} outlined right, {c['wrong']} wrong, "
        f"{c['no card found']} not found"
        for name, c in outlines.items()
    }
    figures["decks enrolled from their phone photo"] = f"{enrolled} of {count}"
    for name, tally in (
        ("their tables, each back enrolled from its photo", photo_read),
        ("the same tables, each back enrolled from its flat picture", flat_read),
    ):
        summary = tally.summary()
        figures[name] = (
            f"face-down cards read as backs {summary['face-down cards read as backs']}, "
            f"cards right {summary['found and read right']} of {summary['cards']}"
        )
    return figures


def _enroll_photos(
    index: int, back_art: np.ndarray
) -> Iterator[tuple[str, np.ndarray, np.ndarray | None, np.ndarray]]:
    """Photo `index` of one card to enroll, of each kind: (kind, picture, the bare table
    before it was laid or None, true corners): the back (`back_art`) and an animal face,
    in each of ENROLL_FRAMINGS, a webcam's framing also laid before the camera
    (`deck enroll --camera`)."""
    from dataclasses import replace

    from companion.vision.synth import random_scene, render_scene

    for deck, what in (("playing-cards", "backs"), ("animals", "animal faces")):
        for framing, (size, lengths) in ENROLL_FRAMINGS.items():
            spec = random_scene(
                np.random.default_rng(ENROLL_PHOTO_SEED + index),
                1,
                deck,
                size=size,
                edition=ANIMAL_EDITION if deck == "animals" else None,
                face_up_rate=1.0 if deck == "animals" else 0.0,
                length_range=lengths,
                distractors=0,
                hand_rate=0.0,
                layout="scatter",
            )
            photo, truths = render_scene(spec, back_art=back_art)
            if not truths:  # a card too big for the picture is left out
                continue
            yield f"{what}, {framing}", photo, None, truths[0].corners
            if framing == "laid":
                empty, _ = render_scene(replace(spec, cards=()), back_art=back_art)
                yield f"{what}, laid before a webcam", photo, empty, truths[0].corners
