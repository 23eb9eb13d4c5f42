"""Moments of a scripted table turned into camera frames (rendered by `vision.synth`).

Each moment lasts `round(seconds * fps)` frames (at least one). A hand reaching over a
seat is drawn over every frame of its moment; a turning card gets motion blur on its
first frame; `vision.synth.film.TableFilm` keeps one table, camera and light for the
whole film and adds the light's flicker and the sensor noise. Every frame has its own
seed, so a film is the same on every run.

`truth_table` gives the table state a perfect camera would report for a moment, which
tests the referee and the script on whole games without rendering a pixel.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace

from companion.demo.layout import TableLayout
from companion.demo.script import Moment
from companion.referee.operator import EnterPrey
from companion.vision.synth import CardSpec, CardTruth, HandSpec, SceneSpec
from companion.vision.synth.film import FilmFrame, TableFilm, game_table
from companion.vision.types import Face, FaceUpCard, Frame, SeatView, TableState

MAX_TILT = 12.0  # degrees: the demo's camera looks nearly straight down
DEMO_EDITION = "classic"  # the animal art the shipped `demo-animals` profile was enrolled from
# The playing-card variant's suits, one per player in seat order, as RULES.md lists them
# (its fifth player's suit is in no ordinary deck, so a film of playing cards seats four).
PLAYER_SUITS = ("clubs", "spades", "hearts", "diamonds")


@dataclass(frozen=True, slots=True)
class CardLook:
    """How the film draws a seat's cards: the animal art the demo deck was enrolled from,
    or, for the playing-card variant, Aces to 5s of the seat's own suit (`suits`)."""

    deck: str = "animals"
    edition: str | int = DEMO_EDITION
    suits: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def playing_cards(cls, players: Sequence[str]) -> CardLook:
        """Playing cards, a suit per player; ValueError past four players."""
        if len(players) > len(PLAYER_SUITS):
            raise ValueError(
                f"a film of playing cards seats 2 to {len(PLAYER_SUITS)} players, one suit "
                f"each; this game has {len(players)}"
            )
        return cls("playing-cards", 0, dict(zip(players, PLAYER_SUITS, strict=False)))


@dataclass(frozen=True, slots=True)
class Instant:
    """One frame's place in the film: time, moment, the operator's keys.

    `camera` False: no picture exists for it (the camera is lost).
    """

    index: int
    t: float
    moment: int
    first: bool  # the first frame of its moment
    camera: bool = True
    operator: tuple[EnterPrey, ...] = ()


def frame_counts(moments: list[Moment], fps: float) -> list[int]:
    """How many frames each moment lasts."""
    return [max(1, round(m.seconds * fps)) for m in moments]


def film_timeline(moments: list[Moment], fps: float) -> Iterator[Instant]:
    """The film's instants without pictures (operator keys come on a moment's last frame)."""
    index = 0
    counts = frame_counts(moments, fps)
    for number, (moment, count) in enumerate(zip(moments, counts, strict=True)):
        for k in range(count):
            operator = moment.operator if k == count - 1 else ()
            yield Instant(index, index / fps, number, k == 0, moment.camera, operator)
            index += 1


def table_of(
    moment: Moment, layout: TableLayout, first: bool, look: CardLook = CardLook()
) -> FilmFrame:
    """What lies on the table (and passes over it) in one frame of `moment`, its cards
    drawn as `look` says."""
    cards: list[CardSpec] = []
    for name, seat in moment.seats.items():
        place = layout.seats[name]
        jitter = random.Random(name)  # each seat lays its cards a little askew, always alike
        suit = look.suits.get(name)
        for (rank, face), center in zip(seat.played, place.played, strict=False):
            cards.append(_card(rank, face, center, place.card_angle, layout, jitter, look, suit))
        for center in place.laid[: seat.laid]:
            cards.append(_card(1, "down", center, place.card_angle, layout, jitter, look, suit))
    hand = None
    if moment.hand_at is not None:
        name, slot = moment.hand_at
        place = layout.seats[name]
        tip = place.laid[1] if slot < 0 else place.played[min(slot, len(place.played) - 1)]
        hand = HandSpec(tip=tip, angle=place.reach_angle, width=0.8 * layout.card_length)
    return FilmFrame(cards=tuple(cards), hand=hand, motion_blur=moment.blur if first else 0.0)


def _card(
    rank: int,
    face: Face,
    center: tuple[float, float],
    angle: float,
    layout: TableLayout,
    jitter: random.Random,
    look: CardLook,
    suit: str | None,
) -> CardSpec:
    """A card of a seat whose cards are of `suit` (None for animals)."""
    dx, dy = jitter.uniform(-2, 2), jitter.uniform(-2, 2)
    return CardSpec(
        deck=look.deck,
        rank=rank,
        suit=suit,
        face=face,
        center=(center[0] + dx, center[1] + dy),
        angle=(angle + jitter.uniform(-4, 4)) % 360,
        length=layout.card_length,
        edition=look.edition,
    )


def film_table(seed: int, size: tuple[int, int]) -> SceneSpec:
    """The table, camera and light of a film: a calm but varied table drawn from `seed`."""
    base = game_table(seed, size)
    return game_table(seed, size, tilt=min(MAX_TILT, base.tilt))


def render_film(
    moments: list[Moment],
    layout: TableLayout,
    fps: float,
    seed: int = 7,
    look: CardLook = CardLook(),
) -> Iterator[tuple[Instant, Frame | None]]:
    """Every frame of the film in order, with its picture (None while the camera is lost),
    its cards drawn as `look` says."""
    for instant, frame, _ in render_shots(moments, layout, fps, seed, look):
        yield instant, frame


def render_shots(
    moments: list[Moment],
    layout: TableLayout,
    fps: float,
    seed: int = 7,
    look: CardLook = CardLook(),
) -> Iterator[tuple[Instant, Frame | None, list[CardTruth]]]:
    """`render_film` with the renderer's truth of every card in each picture."""
    base = film_table(seed, layout.size)
    films: dict[float, TableFilm] = {}
    for instant in film_timeline(moments, fps):
        moment = moments[instant.moment]
        if not instant.camera:
            yield instant, None, []
            continue
        if moment.light not in films:
            light = replace(base.light, brightness=base.light.brightness * moment.light)
            films[moment.light] = TableFilm(replace(base, light=light))
        table = table_of(moment, layout, instant.first, look)
        image, truths = films[moment.light].render(instant.index, table)
        yield instant, Frame(instant.index, instant.t, image), truths


def truth_table(moment: Moment, frame_id: int, t: float) -> TableState:
    """What a perfect camera and tracker would report during `moment`."""
    seats = {}
    for name, seat in moment.seats.items():
        faces = tuple(FaceUpCard(rank, None, 1.0) for rank, face in seat.played if face == "up")
        down = sum(1 for _, face in seat.played if face == "down") + seat.laid
        seats[name] = SeatView(face_down=down, face_up=faces)
    return TableState(frame_id, t, seats, settled=moment.hand_at is None)
