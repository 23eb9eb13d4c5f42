"""Backs never trained on: a playing deck's own back enrolled (`--own-backs`), and an
enrolled animal deck whose back is a new design (`--enrolled-backs`) or a faint one
(`--faint-backs`), each deck's tables scored and empty tables read with it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import cv2
import numpy as np

from .scenes import (
    ANIMAL_DECK,
    ANIMAL_EDITION,
    DESIGN_SEED,
    EMPTY_SEED,
    FRAME_SIZE,
    SCENE_CARDS,
    designed_back_tables,
    empty_tables,
)
from .tallies import Tally

# Enrolled decks with backs never seen: design ENROLLED_BACK_SEED + k, its tables from
# ENROLLED_BACK_SEED + 10_000 + 100 * k, ENROLLED_TABLES of them (and as many empty ones).
ENROLLED_BACK_SEED = 5_950_000
ENROLLED_TABLES = 5
# Enrolled decks with faint backs never seen (`--faint-backs`): the designs from
# FAINT_BACK_SEED on whose enrolled picture prints under FAINT_PRINT (the embedding's
# input spread; about one design in four), FAINT_TABLES tables each from FAINT_TABLE_SEED
# + 10 * (design - ENROLLED_BACK_SEED), and the same FAINT_EMPTY empty tables read with
# every such deck.
FAINT_BACK_SEED = ENROLLED_BACK_SEED + 20  # after the designs of --enrolled-backs 100
FAINT_PRINT = 0.1
FAINT_TABLES = 3
FAINT_TABLE_SEED = 5_970_000
FAINT_EMPTY = 10
FAINT_EMPTY_SEED = EMPTY_SEED + 500
# A playing deck's own back enrolled (`--own-backs`): the tables of --designed-backs, and
# OWN_BACK_EMPTY empty tables per table from OWN_BACK_EMPTY_SEED.
OWN_BACK_EMPTY = 2
OWN_BACK_EMPTY_SEED = EMPTY_SEED + 1_000


def own_back_figures(count: int, finder: str = "both") -> dict[str, object]:
    """The first `count` tables of `designed_back_scenes`, each read by the playing deck
    with that table's back enrolled (`decks.enroll_back`, from its flat picture), scored
    as the card scenes are; and OWN_BACK_EMPTY empty tables per table read with that deck."""
    from companion.vision.decks import PLAYING_CARDS, DeckProfile
    from companion.vision.features import READ_SIZE
    from companion.vision.pipeline import CardPipeline
    from companion.vision.synth.art import card_back

    tally, counts = Tally(), Counter()
    for index, (image, truths, style) in enumerate(designed_back_tables(count, DESIGN_SEED)):
        art = np.asarray(card_back("playing-cards", style))
        back = cv2.resize(art, READ_SIZE, interpolation=cv2.INTER_AREA)  # as enrolled
        deck = DeckProfile(style, PLAYING_CARDS, {"back": back[None]}, "benchmark")
        pipeline = CardPipeline(deck, finder=finder)
        counts["plain backs"] += deck.plain_back is not None
        tally.add_scene(pipeline.read(image), [], truths)
        first_empty = OWN_BACK_EMPTY_SEED + OWN_BACK_EMPTY * index
        for empty, _ in empty_tables(OWN_BACK_EMPTY, first_empty):
            counts["empty tables"] += 1
            counts["readings on empty tables"] += len(pipeline.read(empty))
    empty, readings = counts["empty tables"], counts["readings on empty tables"]
    return {
        **tally.summary(),
        "decks whose back is plain inside": f"{counts['plain backs']} of {count}",
        "readings on empty tables": f"{readings} on {empty}",
    }


def enrolled_back_figures(count: int, finder: str = "both") -> dict[str, object]:
    """`count` tables of the demo deck's faces, the deck enrolled with a back never
    trained on (one design per ENROLLED_TABLES tables) and its finder net chosen by the
    back check; then as many empty tables read with those decks."""
    decks = []
    for design in range(-(-count // ENROLLED_TABLES)):
        tables = min(ENROLLED_TABLES, count - design * ENROLLED_TABLES)
        first = ENROLLED_BACK_SEED + 10_000 + 100 * design
        empties = EMPTY_SEED + design * ENROLLED_TABLES
        decks.append((ENROLLED_BACK_SEED + design, range(first, first + tables), empties, tables))
    return _enrolled_deck_figures(decks, finder)


def faint_back_figures(count: int, finder: str = "both") -> dict[str, object]:
    """`count` tables as `enrolled_back_figures`'s, each deck's back a faint design
    (`FAINT_PRINT`), FAINT_TABLES tables a design; the same FAINT_EMPTY empty tables read
    with every deck."""
    decks = []
    design = FAINT_BACK_SEED
    while count > 0:
        if design_print(design) < FAINT_PRINT:
            tables = min(FAINT_TABLES, count)
            first = FAINT_TABLE_SEED + 10 * (design - ENROLLED_BACK_SEED)
            decks.append((design, range(first, first + tables), FAINT_EMPTY_SEED, FAINT_EMPTY))
            count -= tables
        design += 1
    return _enrolled_deck_figures(decks, finder)


def design_print(design: int) -> float:
    """How much print back design `design` carries as enrolled (`features.print_spread`)."""
    from companion.vision.features import READ_SIZE, embed_input, print_spread
    from companion.vision.synth.art import designed_back

    back = cv2.resize(designed_back(design), READ_SIZE, interpolation=cv2.INTER_AREA)
    return float(print_spread(embed_input(back[None]))[0])


def _enrolled_deck_figures(
    decks: Sequence[tuple[int, range, int, int]], finder: str
) -> dict[str, object]:
    """For each (back design, table seeds, first empty table's seed, empty tables): the
    demo deck's faces enrolled with that back and its finder net chosen by the back
    check, its tables scored as the card scenes are and its empty tables read."""
    from dataclasses import replace

    from companion.vision.back_check import choose_finder
    from companion.vision.decks import load_deck
    from companion.vision.features import READ_SIZE
    from companion.vision.pipeline import CardPipeline
    from companion.vision.synth import random_scene, render_scene
    from companion.vision.synth.art import designed_back

    demo = load_deck(ANIMAL_DECK)
    tally, counts = Tally(), Counter()
    for design, table_seeds, empty_seed, empty_count in decks:
        art = designed_back(design)
        back = cv2.resize(art, READ_SIZE, interpolation=cv2.INTER_AREA)  # as enrolled
        deck = choose_finder(
            replace(demo, templates={**demo.templates, "back": back[None]}), back
        ).deck
        pipeline = CardPipeline(deck, finder=finder)
        counts["decks"] += 1
        counts["seen by the net for backs"] += deck.any_backs
        for seed in table_seeds:
            rng = np.random.default_rng(seed)
            spec = random_scene(
                rng, SCENE_CARDS, "animals", size=FRAME_SIZE, edition=ANIMAL_EDITION
            )
            image, truths = render_scene(spec, back_art=art)
            tally.add_scene(pipeline.read(image), [], truths)
        for image, _ in empty_tables(empty_count, empty_seed):
            counts["empty tables"] += 1
            counts["readings on empty tables"] += len(pipeline.read(image))
    any_backs, decks_read = counts["seen by the net for backs"], counts["decks"]
    empty, readings = counts["empty tables"], counts["readings on empty tables"]
    return {
        **tally.summary(),
        "decks seen by the net for backs of any design": f"{any_backs} of {decks_read}",
        "readings on empty tables": f"{readings} on {empty}",
    }
