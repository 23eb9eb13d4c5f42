"""`companion bench vision`: speed, accuracy and phantom rate of the whole card pipeline.

Figures (targets from issue 3):
- median milliseconds per 1280x720 frame with 15 cards: find + read + seat, one thread
  (target 10 ms), and where the CPU time goes: the mean per frame of each stage the
  pipeline counts (`vision.stages`: the finder's net, placing quads, the readers' nets
  ...), what no stage counts as "the rest";
- held-out synthetic scenes: cards found AND read right (face, rank, suit), counting
  every card at least `VISIBLE` uncovered (target 99.5%), and apart for the cards of the
  issue's size range (`MIN_CARD_LENGTH` and up); misreads as another game rank are
  counted apart because they are the errors that spoil a game (on mostly hidden cards
  too, and those apart again), and so are game cards read where no card matches (a
  phantom, or a quad on part of a card: a pip as an Ace; not a card read right from its
  part in sight);
  and apart for the frames shaken by `tallies.SHAKEN` px of motion blur or more and the
  others (the renderer shakes some tables: most cards lost lie on those);
- phantoms: readings on empty tables (things, hands, no cards), per image (target < 0.01),
  and readings on card scenes that match no card (overlap every card by less than IoU
  0.3), with those lying mostly on part of a card counted apart: the part in sight of a
  card mostly hidden under another, or a strip of a card read twice;
- with `--real-photos DIR` (a folder laid out like edje-aces: manifest.json + images):
  labelled cards found and read right, non-game cards (6..King) reported as 1..5 and
  game cards reported as another game card, its rank or its suit wrong (target: at least
  97% right, never a non-game card as a game rank; a wrong suit is the wrong player).
  The labels box only the visible part of a card; a reading matches a label by its box
  inside the photo or by the pixels of its part no other reading covers (`_shown_parts`:
  a card read from its corner index alone is reported whole, under the card that covers
  it); pairs are taken best first, those where the reading names the labelled card
  before the others (`match_cards`). `--real-turn` turns the photos first (cards face
  every side of a table), `--real-blur PIXELS` smears them as a camera shake that long
  (`shaken_photo`: the issue names motion blur among a real table's conditions), and
  `--real-card-length PIXELS` shrinks each into a 1280x720 frame so that its longest card
  is that long (`webcam_photo`): the photos' cards are big, a webcam's are about 100 px.
- with `--heaps N`: N held-out close-up heaps of 2 to 5 playing cards (as the real photos
  show them: `random_scene(..., layout="pile")`), each face whose corner index is in
  sight counted: read right or not, and game cards read where no such card lies or as
  another (`HeapTally`).
- with `--designed-backs N`: N held-out playing-card tables of 15 cards, most face down,
  each deck with a back design of its own (`synth.art.designed_back`: plain, faint or
  patterned, with or without a white margin), scored as the card scenes are, with the
  face-down cards read as backs counted apart: a back never seen must still be a card
  played.
- with `--own-backs N`: the first N of those tables, each read by the playing deck with
  that table's back enrolled (`companion deck enroll NAME --back PICTURE`, from the flat
  picture of the back), and `OWN_BACK_EMPTY` empty tables per table read with that deck.
- with `--enrolled-backs N`: N held-out tables of the demo animal deck's faces, the deck
  enrolled with a back design never trained on, one design per `ENROLLED_TABLES` tables,
  its finder net chosen by the back check as `companion deck enroll` chooses it
  (`back_check.choose_finder`); scored as the card scenes are, with as many empty tables
  read with those decks.
- with `--faint-backs N`: the same for N tables of decks whose back is a faint design
  (`FAINT_PRINT`: a few dots or a grey marbling), `FAINT_TABLES` tables each, and the
  same `FAINT_EMPTY` empty tables read with every such deck.
- with `--enroll-photos N`: rendered photos of one card for enrolling it, of the backs of
  the first N tables of `--designed-backs` and of the demo deck's faces (framed as a
  webcam, as a phone, and small as a webcam sees a card laid on the table:
  `ENROLL_FRAMINGS`): how often the card is outlined right (`single_card.card_in_photo`,
  IoU `ENROLL_IOU` with the truth), outlined wrong or not found, and the same for the
  small ones laid before the camera, the bare table seen first (`single_card.card_laid`,
  `deck enroll --camera`); and those tables read with each back enrolled from its
  phone-framed photo, beside the same tables read with it enrolled from its flat
  picture.
- with `--jokers N`: N held-out tables of 15 playing cards whose face-down cards are a
  deck's jokers (`synth.art.joker_face`, an edition of its own per table, from
  `JOKER_EDITION`: the readers' training draws its jokers from 1,000 on, the tuning
  used those below): the game cards read on a joker (target: none, as for any card
  that is not one), and the faces among them read right.
- with `--rows N`: N held-out tables per deck laid as a game lays them, rows of up to 3
  cards before 2 to 5 players, but each card touching or overlapping its neighbour by
  up to 30% of a card's width (`synth.random_scene(..., layout="rows")`; the card scenes'
  rows lie apart or just touch): scored as the card scenes are.

Every table of playing cards is drawn from one deck, no card twice, as at a game
(`random_scene(..., one_deck=True)`: until 2026-12-06 nearly nine tables in ten held
some card twice, which no game shows).

Seeds. Scenes are `synth.random_scene(np.random.default_rng(seed), ...)`. Seeds below
`HELD_OUT_SEED` are free for training and tuning (the reader's training uses streams 0,
1, 10_000, 10_001 and its evaluation 900_000; the finder was tuned on 0..99_999);
the benchmark only ever renders seeds from `HELD_OUT_SEED` on (card scenes) and from
`EMPTY_SEED` on (empty tables), which no training may use; close-up heaps from
`HEAP_SEED` (the tuning heaps of models/README.md start at 3,100,000), tables of designed
backs from `DESIGN_SEED`, enrolled decks' backs and their tables from
`ENROLLED_BACK_SEED`, faint ones from `FAINT_BACK_SEED` and their tables from
`FAINT_TABLE_SEED`, the empty tables read with a playing deck's own back from
`OWN_BACK_EMPTY_SEED`, the photos of one card to enroll from `ENROLL_PHOTO_SEED`, the
tables with jokers from `JOKER_SEED`, the tables of rows touching or overlapping from
`ROW_SEED`. The
back check of a deck's own back (`vision/back_check.py`) renders its tables from
`back_check.CHECK_SEED` (7,000,000), used by nothing else.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import onnxruntime

from companion.vision.pipeline import FINDERS
from companion.vision.synth.art.text_engine import text_engine_note

from .backs import enrolled_back_figures, faint_back_figures, own_back_figures
from .enroll_photos import enroll_photo_figures
from .jokers import joker_figures
from .real_photos import TURNS, real_photo_figures
from .scenes import (
    DESIGN_SEED,
    HEAP_SEED,
    HELD_OUT_SEED,
    ROW_SEED,
    designed_back_scenes,
    empty_tables,
    heap_scenes,
    rendered_tables,
)
from .tallies import HeapTally, Tally
from .timing import doubt_figures, pipeline_for, stage_means, timed_read

# The options that say how many tables of each kind to read (0 or more each): the option,
# its default, its metavar (None: argparse's own) and its help.
COUNT_OPTIONS = (
    ("--scenes", 100, None, "card scenes per deck (100)"),
    ("--empty", 100, None, "empty tables (100)"),
    ("--heaps", 0, None, "close-up heaps of playing cards (0: none)"),
    (
        "--designed-backs",
        0,
        "N",
        "playing-card tables whose backs are designs never trained on (0: none)",
    ),
    (
        "--own-backs",
        0,
        "N",
        "the first N of those tables, each read with its deck's back enrolled (0)",
    ),
    (
        "--enrolled-backs",
        0,
        "N",
        "tables of an enrolled animal deck whose back is a design never trained on (0)",
    ),
    ("--faint-backs", 0, "N", "the same, with faint back designs (3 tables a design; 0)"),
    (
        "--enroll-photos",
        0,
        "N",
        "photos of one card to enroll from: the backs of N designed-back tables (0)",
    ),
    ("--jokers", 0, "N", "playing-card tables with jokers laid among the cards (0: none)"),
    (
        "--rows",
        0,
        "N",
        "tables per deck whose rows of cards touch or overlap a little, as players lay "
        "them (0: none)",
    ),
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--deck",
        choices=("playing-cards", "animals", "both"),
        default="both",
        help="which deck's scenes to render (both)",
    )
    for option, default, metavar, text in COUNT_OPTIONS:
        parser.add_argument(option, type=int, default=default, metavar=metavar, help=text)
    parser.add_argument("--real-photos", metavar="DIR", help="labelled real photos (manifest.json)")
    parser.add_argument(
        "--real-split",
        choices=("test", "train", "all"),
        default="test",
        help="which real photos to score: the held-out test split by default",
    )
    parser.add_argument(
        "--real-turn",
        type=int,
        choices=TURNS,
        nargs="+",
        default=[0],
        metavar="DEGREES",
        help="turn the real photos (and their labels) clockwise by 0, 90, 180 or 270 degrees "
        "first: cards face every side of a table, and the camera may too; several turns "
        "(--real-turn 0 90 180 270) give one set of figures each",
    )
    parser.add_argument(
        "--real-blur",
        type=_blur_length,
        default=0.0,
        metavar="PIXELS",
        help="smear the real photos first by a camera shake this many pixels long, its "
        "direction turning from photo to photo (0, the default: none)",
    )
    parser.add_argument(
        "--real-card-length",
        type=_card_length,
        default=0.0,
        metavar="PIXELS",
        help="shrink each real photo into a 1280x720 frame so that its longest card is this "
        "many pixels long, as a webcam over a table shows cards (0, the default: as "
        "photographed)",
    )
    parser.add_argument(
        "--finder",
        choices=FINDERS,
        default="both",
        help="which card finder to measure: both (the default), edges or learned",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")


def _pixels_or_none(low: float, high: float):  # -> Callable[[str], float]
    """An option's value: 0 (none), or a length in pixels from `low` to `high`."""

    def length_in_pixels(text: str) -> float:
        try:
            length = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a length in pixels, got {text!r}") from None
        if not (length == 0 or low <= length <= high):
            raise argparse.ArgumentTypeError(
                f"expected 0, or {low:g} to {high:g} pixels, got {text}"
            )
        return length

    return length_in_pixels


# `--real-blur`: a shorter smear than 1.5 px moves no pixel. `--real-card-length`: the
# issue's cards are 60 to 400 px long; from 30, smaller ones may be measured too.
_blur_length = _pixels_or_none(1.5, 50)
_card_length = _pixels_or_none(30, 400)


def main(args: argparse.Namespace) -> int:
    cv2.setNumThreads(1)  # one-core figures (the reader's onnxruntime uses one thread)
    for option, *_ in COUNT_OPTIONS:
        if getattr(args, option[2:].replace("-", "_")) < 0:
            print(f"companion bench vision: {option} must be 0 or more", file=sys.stderr)
            return 2
    # the figures hold for these versions; another OpenCV renders the scenes' text otherwise
    figures: dict[str, object] = {
        "versions": f"OpenCV {cv2.__version__}, onnxruntime {onnxruntime.__version__}"
    }
    if (note := text_engine_note()) is not None:
        figures["rendered scenes"] = note
    decks = ("playing-cards", "animals") if args.deck == "both" else (args.deck,)
    times: list[float] = []
    stage_times: list[Counter[str]] = []
    for deck in decks:
        try:
            pipeline_for(deck, args.finder)
        except (OSError, ValueError) as err:
            print(f"companion bench vision: deck {deck} not available: {err}", file=sys.stderr)
            return 2
    for deck in decks:
        tally = Tally()
        for image, truths, shake in rendered_tables(deck, args.scenes, HELD_OUT_SEED):
            readings, seated = timed_read(deck, image, times, args.finder, stage_times)
            tally.add_scene(readings, seated, truths, shake)
        figures[f"synthetic {deck}"] = tally.summary()
    if times:
        figures["median ms per frame"] = round(statistics.median(times), 2)
        figures["p90 ms per frame"] = round(float(np.percentile(times, 90)), 2)
        # a frame's stages and "the rest" add up to its CPU time (`timed_read`)
        cpu_times = [sum(frame.values()) for frame in stage_times]
        median_cpu = statistics.median(cpu_times)
        figures["median cpu ms per frame"] = round(median_cpu, 2)
        if args.finder == "both":
            figures.update(doubt_figures(stage_times))
        figures["mean cpu ms per frame by stage"] = stage_means(stage_times)
        # the frames that set the median: those at it or faster (tables the first look settles)
        fast = [
            frame for frame, cpu in zip(stage_times, cpu_times, strict=True) if cpu <= median_cpu
        ]
        figures["the same, frames at the median or faster"] = stage_means(fast)
    empty = Counter()
    for index, (image, _) in enumerate(empty_tables(args.empty)):
        deck = decks[index % len(decks)]
        readings, _ = timed_read(deck, image, [], args.finder)
        empty["images"] += 1
        empty["phantoms"] += len(readings)
    figures["empty tables"] = {
        "images": empty["images"],
        "phantoms": empty["phantoms"],
        "phantoms per image": round(empty["phantoms"] / max(1, empty["images"]), 4),
    }
    if args.heaps:
        heaps = HeapTally()
        for image, truths in heap_scenes(args.heaps, HEAP_SEED):
            readings, _ = timed_read("playing-cards", image, [], args.finder)
            heaps.add_scene(readings, truths)
        figures["close-up heaps"] = heaps.summary()
    if args.designed_backs:
        designed = Tally()
        for image, truths in designed_back_scenes(args.designed_backs, DESIGN_SEED):
            designed.add_scene(*timed_read("playing-cards", image, [], args.finder), truths)
        figures["tables of backs never seen"] = designed.summary()
    if args.own_backs:
        figures["the same, each deck's back enrolled"] = own_back_figures(
            args.own_backs, args.finder
        )
    if args.enrolled_backs:
        figures["an enrolled deck, backs never seen"] = enrolled_back_figures(
            args.enrolled_backs, args.finder
        )
    if args.faint_backs:
        figures["an enrolled deck, faint backs never seen"] = faint_back_figures(
            args.faint_backs, args.finder
        )
    if args.enroll_photos:
        figures["enrolling from a photo"] = enroll_photo_figures(args.enroll_photos, args.finder)
    if args.jokers:
        figures["tables with jokers"] = joker_figures(args.jokers, args.finder)
    if args.rows:
        for deck in decks:
            rows, row_times = Tally(), []
            for image, truths, shake in rendered_tables(deck, args.rows, ROW_SEED, rows=True):
                readings, seated = timed_read(deck, image, row_times, args.finder)
                rows.add_scene(readings, seated, truths, shake)
            # such tables cost more than the card scenes (the first look leaves most in doubt)
            figures[f"rows touching or overlapping, {deck}"] = {
                **rows.summary(),
                "median ms per frame": round(statistics.median(row_times), 2),
            }
    if args.real_photos:
        try:
            for turn in args.real_turn:
                key = "real photos" if len(args.real_turn) == 1 else f"real photos, turned {turn}"
                if args.real_card_length:
                    key += f", cards {args.real_card_length:g} px in a webcam frame"
                if args.real_blur:
                    key += f", shaken {args.real_blur:g} px"
                figures[key] = real_photo_figures(
                    Path(args.real_photos),
                    args.real_split,
                    args.finder,
                    turn,
                    args.real_blur,
                    args.real_card_length,
                )
        except (OSError, ValueError, KeyError) as err:
            print(f"companion bench vision: cannot use {args.real_photos}: {err}", file=sys.stderr)
            return 2
    print(json.dumps(figures, indent=2) if args.json else format_figures(figures))
    return 0


def format_figures(figures: dict[str, object]) -> str:
    lines = []
    for key, value in figures.items():
        if isinstance(value, dict):
            lines.append(f"{key}:")
            lines.extend(f"  {k}: {v}" for k, v in value.items())
        else:
            lines.append(f"{key}: {value}")
    return "\n".join(lines)
