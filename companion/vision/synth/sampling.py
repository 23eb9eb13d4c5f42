"""Draw varied but plausible scenes: the training, test and benchmark distribution.

The ranges follow issue 3: light and dark tables, warm and cold light, tilt up to 35°,
cards 60 to 400 pixels long at any rotation, neighbours that touch or slightly overlap,
coins, chips, phones and hands. Everything comes from the `rng` passed in, so a seed fully
fixes a scene (held-out sets use seeds never used in training).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import Literal, get_args

import numpy as np

from ..types import SUITS
from .art import NAMED_EDITIONS, PLAYING_BACK_STYLES, random_design_style
from .camera import distort_points, tilt_homography
from .film import card_place, seat_places
from .render import card_corners
from .spec import DISTRACTOR_KINDS, CardSpec, DistractorSpec, HandSpec, Light, SceneSpec
from .textures import TABLE_STYLES

DeckChoice = Literal["animals", "playing-cards", "mixed"]
Layout = Literal["scatter", "seats", "pile", "rows"]
# Centre-to-centre distance of neighbours in a seat's row, in card lengths (a card is
# 1 / 1.4 = 0.714 of its length wide): "seats" lays them apart or just touching, "rows"
# touching or overlapping by up to 30% of a card's width, as players lay them.
SEAT_SPACING = (0.7, 0.95)
ROW_SPACING = (0.5, 0.72)
Projector = Callable[[CardSpec], np.ndarray]  # a card's corners in the final picture
LENSES = (0.03, 0.06, 0.09, 0.12)  # few values: the lens maps are cached per value
SKINS = ((120, 160, 210), (90, 130, 190), (60, 90, 140), (40, 60, 95), (150, 185, 225))


def random_light(rng: np.random.Generator, size: tuple[int, int]) -> Light:
    """Warm or cold, bright or dim, often a gradient, sometimes glare spots."""
    w, h = size
    glare = tuple(
        (
            float(rng.uniform(0, w)),
            float(rng.uniform(0, h)),
            float(rng.uniform(15, 90)),
            float(rng.uniform(0.15, 0.6)),
        )
        for _ in range(int(rng.choice([0, 0, 1, 2])))
    )
    return Light(
        warmth=float(rng.uniform(-1, 1)),
        brightness=float(rng.uniform(0.65, 1.15)),
        gradient=float(rng.uniform(0, 0.5)) if rng.random() < 0.7 else 0.0,
        gradient_angle=float(rng.uniform(0, 360)),
        glare=glare,
        vignette=float(rng.uniform(0, 0.35)),
    )


def random_card(
    rng: np.random.Generator,
    deck: str,
    *,
    edition: str | int | None,
    back: str | int | None,
    face_up_rate: float,
    game_ranks_only: bool,
) -> CardSpec:
    """A card identity: rank/suit/face (placement is filled in by `random_scene`)."""
    face = "up" if rng.random() < face_up_rate else "down"
    if deck == "animals":
        return CardSpec(deck, int(rng.integers(1, 6)), None, face, edition=edition, back=back)
    top = 5 if game_ranks_only else 13
    return CardSpec(
        deck,
        int(rng.integers(1, top + 1)),
        str(rng.choice(SUITS)),
        face,
        edition=edition,
        back=back,
    )


def _draw_cards(
    rng: np.random.Generator,
    count: int,
    deck: str,
    *,
    one_deck: bool,
    edition: str | int | None,
    back: str | int | None,
    face_up_rate: float,
    game_ranks_only: bool,
) -> list[CardSpec]:
    """`count` cards of `deck` (`random_card`); with `one_deck`, no playing card twice.

    A repeat is drawn anew, face included, so the draws up to the first repeat are the
    ones `one_deck=False` makes."""
    no_repeats = one_deck and deck == "playing-cards"  # animals: every player has a set
    in_deck = len(SUITS) * (5 if game_ranks_only else 13)
    if no_repeats and count > in_deck:
        raise ValueError(f"one deck holds {in_deck} such cards; {count} were asked for")
    cards: list[CardSpec] = []
    while len(cards) < count:
        card = random_card(
            rng,
            deck,
            edition=edition,
            back=back,
            face_up_rate=face_up_rate,
            game_ranks_only=game_ranks_only,
        )
        if no_repeats and any((c.rank, c.suit) == (card.rank, card.suit) for c in cards):
            continue
        cards.append(card)
    return cards


def _place(
    rng: np.random.Generator,
    specs: list[CardSpec],
    size: tuple[int, int],
    length: float,
    project: Projector,
) -> list[CardSpec]:
    """Scatter cards inside the picture (after perspective) without heavy overlap.

    Centres lie at least about 0.78 card lengths apart, so neighbours may touch or
    overlap slightly, as on a crowded table; a card that finds no room is left out.
    """
    w, h = size
    placed: list[CardSpec] = []
    centres: list[tuple[float, float]] = []
    for spec in specs:
        card_len = length * float(rng.uniform(0.93, 1.07))
        for _ in range(60):
            c = (float(rng.uniform(0, w)), float(rng.uniform(0, h)))
            gap = float(rng.uniform(0.78, 1.15)) * card_len
            if any(math.dist(c, o) < gap for o in centres):
                continue
            card = replace(spec, center=c, angle=float(rng.uniform(0, 360)), length=card_len)
            if _inside(project(card), size):
                centres.append(c)
                placed.append(card)
                break
    return placed


def _place_in_piles(
    rng: np.random.Generator,
    specs: list[CardSpec],
    size: tuple[int, int],
    length: float,
    project: Projector,
) -> list[CardSpec]:
    """Drop cards in one or two heaps: each card's centre lies 0.2 to 0.65 card lengths
    from its heap's centre, turned like the heap give or take 30°, so later cards cover
    a third to most of earlier ones. A card that does not fit the picture is left out."""
    w, h = size
    heaps = [
        ((float(rng.uniform(0.3, 0.7) * w), float(rng.uniform(0.3, 0.7) * h)), rng.uniform(0, 360))
        for _ in range(1 if len(specs) < 3 or rng.random() < 0.6 else 2)
    ]
    placed: list[CardSpec] = []
    for index, spec in enumerate(specs):
        (cx, cy), base = heaps[index % len(heaps)]
        card_len = length * float(rng.uniform(0.97, 1.03))
        for _ in range(20):
            reach = float(rng.uniform(0.2, 0.65)) * card_len
            direction = float(rng.uniform(0, 2 * math.pi))
            centre = (cx + reach * math.cos(direction), cy + reach * math.sin(direction))
            angle = (float(base) + float(rng.normal(0.0, 30.0))) % 360
            card = replace(spec, center=centre, angle=angle, length=card_len)
            if _inside(project(card), size):
                placed.append(card)
                break
    return placed


def _inside(quad: np.ndarray, size: tuple[int, int]) -> bool:
    w, h = size
    return bool(quad.min() >= 2 and (quad[:, 0] <= w - 3).all() and (quad[:, 1] <= h - 3).all())


def _place_in_seats(
    rng: np.random.Generator,
    specs: list[CardSpec],
    size: tuple[int, int],
    length: float,
    project: Projector,
    spacing_range: tuple[float, float] = SEAT_SPACING,
) -> list[CardSpec]:
    """Lay cards as at a game: rows of up to 3 in front of 2..5 players, each turned to
    face its player (so some are upside down), neighbours `spacing_range` card lengths
    apart, centre to centre (`SEAT_SPACING`, `ROW_SPACING`). Shrinks the cards until every
    one lies inside the picture."""
    players = max(2, min(5, math.ceil(len(specs) / 3)))
    players = int(rng.integers(players, 6)) if players < 5 else 5
    seats = seat_places(players, size)
    slots = [(seat, k) for k in range(3) for seat in seats][: len(specs)]
    spacing = float(rng.uniform(*spacing_range))
    for _ in range(12):
        placed = []
        for spec, (seat, k) in zip(specs, slots, strict=False):
            card_len = length * float(rng.uniform(0.97, 1.03))
            (x, y), angle = card_place(seat, k, card_len, spacing)
            jitter = rng.normal(0.0, 0.04 * card_len, 2)
            card = replace(
                spec,
                center=(x + float(jitter[0]), y + float(jitter[1])),
                angle=(angle + float(rng.normal(0.0, 6.0))) % 360,
                length=card_len,
            )
            placed.append(card)
        if all(_inside(project(c), size) for c in placed):
            return placed
        length *= 0.85
    return [c for c in placed if _inside(project(c), size)]


def random_scene(
    rng: np.random.Generator,
    n_cards: int = 15,
    deck: DeckChoice = "mixed",
    *,
    size: tuple[int, int] = (1280, 720),
    edition: str | int | None = None,
    face_up_rate: float = 0.6,
    game_ranks_only: bool = False,
    length_range: tuple[float, float] = (60.0, 400.0),
    max_tilt: float = 35.0,
    distractors: int | None = None,
    hand_rate: float = 0.15,
    table: str | None = None,
    layout: Layout | None = None,
    designed_backs: float = 0.0,
    one_deck: bool = False,
) -> SceneSpec:
    """A varied `SceneSpec` drawn from `rng` (render it with `render_scene`).

    `deck` "mixed" picks animals or playing cards per scene (one deck per scene, as at a
    real table). `edition` None picks "classic" animals / edition 0 playing cards most of
    the time, with other editions now and then. `layout` "scatter" throws the cards
    anywhere at any angle; "seats" lays them in rows facing 2..5 players (at most 15
    cards), as in a game; None picks either. "rows" (only when asked for) lays them as
    "seats" does, each row's cards touching or overlapping a little (`ROW_SPACING`), as
    players lay them. "pile" (only when asked for) drops them in
    one or two heaps where each card covers much of another, as in close-up photos of a
    hand of cards. Cards that do not fit the picture are left out, so a scene may hold
    fewer than `n_cards`. `designed_backs`: the share of scenes whose deck has a
    procedural back design (``"design-N"``, `art.designed_back`) instead of its usual
    back; at 0 the stream of draws is as it always was. `one_deck`: playing cards are drawn
    from one deck, no card twice, as at a real table (the benchmark's tables: the readers'
    rules may count on one card of each); a card drawn again is drawn anew, so a table that
    drew no repeat is the same either way. False (the models' training scenes) lets a
    card repeat.
    """
    if n_cards < 0:
        raise ValueError(f"n_cards must be 0 or more, got {n_cards}")
    if deck not in ("animals", "playing-cards", "mixed"):
        raise ValueError(f"deck must be 'animals', 'playing-cards' or 'mixed', got {deck!r}")
    w, h = size
    chosen = deck if deck != "mixed" else str(rng.choice(["animals", "playing-cards"]))
    if edition is None:
        if chosen == "animals":
            edition = "classic" if rng.random() < 0.7 else str(rng.choice(NAMED_EDITIONS))
        else:
            edition = 0 if rng.random() < 0.6 else int(rng.integers(1, 6))
    back = None if chosen == "animals" else str(rng.choice(PLAYING_BACK_STYLES))
    if designed_backs and rng.random() < designed_backs:
        back = random_design_style(rng)
    if layout is None:
        layout = "seats" if rng.random() < 0.5 else "scatter"
    if layout not in get_args(Layout):
        *first, last = (repr(name) for name in get_args(Layout))
        raise ValueError(f"layout must be {', '.join(first)} or {last}, got {layout!r}")
    if layout in ("seats", "rows"):
        n_cards = min(n_cards, 15)
    lo, hi = length_range
    # Largest length at which the cards still fit comfortably in the picture.
    fit = {
        "scatter": math.sqrt(w * h / max(1, n_cards) / 1.6),
        "seats": 0.24 * min(w, h),
        "rows": 0.24 * min(w, h),
        "pile": 0.8 * min(w, h),
    }[layout]
    length = math.exp(rng.uniform(math.log(lo), math.log(max(lo, min(hi, fit)))))
    cards = _draw_cards(
        rng,
        n_cards,
        chosen,
        one_deck=one_deck,
        edition=edition,
        back=back,
        face_up_rate=face_up_rate,
        game_ranks_only=game_ranks_only,
    )
    tilt, tilt_direction = float(rng.uniform(0, max_tilt)), float(rng.uniform(0, 360))
    lens = float(rng.choice(LENSES)) if rng.random() < 0.4 else 0.0
    hom = tilt_homography(size, tilt, tilt_direction)
    hom_inv = np.linalg.inv(hom)

    def project(card: CardSpec) -> np.ndarray:
        quad = card_corners(card, hom, hom_inv)
        return distort_points(quad, size, lens) if lens else quad

    if layout in ("seats", "rows"):
        spacing = ROW_SPACING if layout == "rows" else SEAT_SPACING
        cards = _place_in_seats(rng, cards, size, length, project, spacing)
    elif layout == "pile":
        cards = _place_in_piles(rng, cards, size, length, project)
    else:
        cards = _place(rng, cards, size, length, project)

    n_things = int(rng.choice([0, 0, 1, 2, 3])) if distractors is None else distractors
    things = tuple(
        DistractorSpec(
            kind=str(rng.choice(DISTRACTOR_KINDS)),  # type: ignore[arg-type]
            center=(float(rng.uniform(0, w)), float(rng.uniform(0, h))),
            size=float(rng.uniform(0.25, 0.5) * length) * float(rng.uniform(1, 3)),
            angle=float(rng.uniform(0, 360)),
            color=tuple(int(v) for v in rng.integers(20, 230, 3)) if rng.random() < 0.5 else None,  # type: ignore[arg-type]
            marker_id=int(rng.integers(0, 5)),
        )
        for _ in range(n_things)
    )
    hand = None
    if rng.random() < hand_rate:
        hand = HandSpec(
            tip=(float(rng.uniform(0.1, 0.9) * w), float(rng.uniform(0.1, 0.9) * h)),
            angle=float(rng.uniform(0, 360)),
            width=float(rng.uniform(0.5, 0.9) * max(length, 120)),
            skin=SKINS[int(rng.integers(len(SKINS)))],
            sleeve=tuple(int(v) for v in rng.integers(10, 220, 3)),  # type: ignore[arg-type]
            height=float(rng.uniform(0.5, 2.0)),
        )
    blur = float(rng.uniform(2, 9)) if rng.random() < 0.15 else 0.0
    return SceneSpec(
        size=size,
        table=table or str(rng.choice(TABLE_STYLES)),
        seed=int(rng.integers(0, 2**31 - 1)),
        tilt=tilt,
        tilt_direction=tilt_direction,
        light=random_light(rng, size),
        shadow=float(rng.uniform(0.15, 0.55)),
        shadow_offset=(float(rng.uniform(-6, 6)), float(rng.uniform(-6, 6))),
        motion_blur=blur,
        motion_angle=float(rng.uniform(0, 180)),
        focus_blur=float(rng.uniform(0, 1.2)) if rng.random() < 0.3 else 0.0,
        lens=lens,
        noise=float(rng.uniform(0.5, 5)),
        jpeg_quality=int(rng.integers(55, 96)) if rng.random() < 0.5 else None,
        cards=tuple(cards),
        distractors=things,
        hand=hand,
    )
