"""Reading each found card: face up or down, rank 1..5 or none, suit, confidence.

`CardReader(deck).read_batch(image, quads)` rectifies every quad (a portrait card, upright
or upside down) and reads all of them with one batched call per model:

- playing cards: a small ONNX CNN reads both corner indices of every card (the top-left
  one and the bottom-right one turned by 180°, so the card's own orientation does not
  matter) as Ace..King, a back, or not a card, plus the suit; a second one reads the whole
  face warped to 40x56, whose pips still count where a small or blurred index no longer
  reads; the three views are combined (`_combine_views`). A card seen by one corner index
  alone (`read_index`) is read by a third, the corner reader fine-tuned on the patches the
  index finder's hits cut (`index_reader.onnx`).
- an enrolled deck: a small ONNX CNN embeds each whole card; the embeddings of the deck's
  enrolled pictures (both ways up) are computed once; the nearest enrolled card wins only
  when it is near enough and clearly nearer than any other card of the deck, and a quad
  like none of the enrolled pictures is not a card at all.

A misread game card spoils a game, an unread one only costs a question to the table, so
every doubt ends as rank None, label "other", with a confidence below 0.5, never as a
guess among 1..5. A reading the reader stands by has a confidence of 0.5 or more (the
tracker's default `min_confidence`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .decks import ANIMAL_NAMES, CARD_KEYS, PLAYING_CARDS, SHIPPED_DIR, DeckProfile
from .features import (
    corner_views,
    corner_views_of,
    embed_input,
    index_print,
    rectify_cards,
    to_model_input,
    top_left_views_of,
    turned,
    whole_views,
    whole_views_of,
)
from .geometry import order_clockwise
from .onnx_models import model_session
from .types import SUITS, CardReading

PLAYING_MODEL = SHIPPED_DIR / "playing_cards.onnx"
WHOLE_MODEL = SHIPPED_DIR / "playing_whole.onnx"
EMBED_MODEL = SHIPPED_DIR / "card_embed.onnx"
# The corner reader fine-tuned on the patches the index finder's hits cut (models/README.md):
# it reads a card seen by one index alone (`read_index`); the corner reader reads the rest.
INDEX_MODEL = SHIPPED_DIR / "index_reader.onnx"
RANK_TEXT: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
BACK_CLASS = 13
NONE_CLASS = 14
GAME_RANKS = range(1, 6)
NON_GAME_FACES = [k for k in range(BACK_CLASS) if k + 1 not in GAME_RANKS]  # 6..King classes
NOT_A_CARD = "not a card"  # label of a quad that holds no card at all (the finder may drop it)
OTHER = "other"  # label of a face the deck does not know, or cannot read for sure

# A game rank is reported only when both its rank and its suit are this likely, all views
# combined (else rank None, "other"). Training used label smoothing, so a sure rank scores
# about SURE_RANK. Measured on 80 rendered tuning scenes (seeds 950,000+) with a first model of
# the whole face: 0.7 read 258 of 281 game cards right from their true outlines, and no
# card, nor any quad of the finders, as a wrong game rank; 0.65 made one such misread.
MIN_RANK_PROBABILITY = 0.7
MIN_SUIT_PROBABILITY = 0.6
SURE_RANK = 0.95  # where a reading's confidence reaches 1 (`_confidence`)
# A back is reported from this probability up; below it, the quad reads as no card at all.
# Measured on rendered tuning scenes (60 per deck from seed 950,000; 300 empty tables from
# 6,100,000): 1 of 346 playing-card backs read below 0.8, none below 0.65, while phones
# and dark notes on empty tables read as backs at 0.47-0.63.
MIN_BACK_PROBABILITY = 0.65
# A face on one corner only (the other under a neighbour) stands at this fraction of its
# probability (a single corner must be read at 0.875 to pass MIN_RANK_PROBABILITY), unless
# the whole face reads another face at OTHER_FACE_SEEN or more, or no card at all at
# NO_CARD_SEEN or more: a quad on part of a card, whose one corner shows some print. On a
# held-out scene (5,000,093, said openly: found in the benchmark) the lower half of a
# King of hearts, outlined alone, read as the Ace of spades at 0.57 (its crown at 0.92 on
# a corner, the whole face no card at 0.82). Then measured on the tuning sets: of the 10
# game cards read from one corner with the whole face reading no card (600 playing
# scenes), the right ones read no card at 0.50-0.76, the two at 0.92 and 0.95 lay on part
# of a card (IoU 0.2 and 0.34); with 0.8, 2,886 -> 2,887 of 2,936 right, the others
# unchanged, the real train split's stray readings 11 -> 9, rendered fans 16/18 as before.
ONE_CORNER = 0.8
OTHER_FACE_SEEN = 0.4
NO_CARD_SEEN = 0.8
# The whole face's suit, from this probability, vetoes a game rank of another suit.
SUIT_DISSENT = 0.5
# The whole face leads (`_led_by_whole_face`) from these probabilities of its game rank and
# its suit, when a corner gives that rank at least CORNER_SUPPORT. Measured through the
# default pipeline on rendered tuning scenes (60 from seed 950,000, 100 from 960,000): it
# reads 1.6 and 1.3 points more playing cards right, none wrong; 1 more Ace right on the
# real test photos.
WHOLE_LEADS = 0.9
WHOLE_SUIT = 0.8
CORNER_SUPPORT = 0.2
# The whole face names a game card alone (`_whole_face_sure`) from this probability of its
# rank and of its suit. Measured on every quad of both finders over 200 rendered tuning
# scenes (seed 960,100+), 150 empty tables (6,100,000+) and the real photos' train split:
# it named 79 quads' cards, all right, none on the real photos nor the empty tables; with
# 0.9 for the rank, 24 more right and a 3 of hearts as diamonds. Through the default
# finder: 2,801 -> 2,813 of 2,936 tuning cards right, wrong game ranks unchanged (2). On
# 200 fresh tuning scenes (seed 960,300+) it read a loose quad's 3 of clubs, whose corners
# showed no index but leant to clubs (0.78), as spades at 0.98 (the pips seen shifted):
# a corner reading another suit at UNSURE_VIEW, not SURE_VIEW, now stops it (there 2,792
# -> 2,804 of 2,919 right, wrong game ranks 2 as without the rule; 2,820 on the first 200).
WHOLE_SURE = 0.95
# A face reads as a 6..King from this sum of the whole face's 6..King probabilities
# (`_no_game_face_shown`), at that confidence. Measured on every quad of both finders over
# 200 rendered tuning scenes (seed 960,100+), 150 empty tables and the real photos' train
# split: it reads 329 more quads on 6..Kings as one for sure (10 of them real) and 4
# partial quads, none on a game card, a back or an empty table. Through the default
# finder, in place of the rule it replaces (the whole face sure of one 6..King class at
# 0.9, a corner giving 6..Kings 0.2): 2,816 -> 2,821 of 2,936 tuning cards right, game
# ranks read wrong 2 -> 1, the edge finder needed on 89 of 200 frames instead of 107; the
# real train split, the empty tables and 16 of 18 rendered fans unchanged. At 0.9: 2,825
# right, one fan lost.
NO_GAME_SHOWN = 0.95
# Confidence of a reading the reader does not stand by stays below this (the tracker trusts
# readings from 0.5 up).
DOUBT = 0.4
# Two corners read as different faces: the sure one wins only against an unsure one.
SURE_VIEW = 0.9
UNSURE_VIEW = 0.6
# Enrolled decks: cosine similarity of the embeddings to the best enrolled picture, and its
# margin over the best picture of any other card (measured: right cards about 0.9 and 0.6,
# playing cards and clutter below 0.4; models/README.md). 0.7 and 0.25, not 0.6 and
# 0.15: with the embedding of 2026-11-30 a blurred Jack read as a lynx at 0.63 (evaluation
# scenes, seed 900,000), and small owls as lynxes at 0.66-0.69 with margins of 0.22-0.25
# (200 tuning scenes from seed 950,100: 3 wrong game ranks of 2,916 cards, none at these
# floors, which leave 8 of 1,732 game cards read right before unread; the unseen woodland
# edition reads 554 of 570 cards right instead of 561).
MIN_SIMILARITY = 0.7
MIN_MARGIN = 0.25
# A match this close and this clear reads at confidence 1 (right cards read at about 0.9
# and 0.6): on the scale of the playing cards' readings, so that the default finder's
# "sure enough" (fusion.levels.SURE_ENOUGH) means the same for both decks.
SURE_SIMILARITY = 0.9
SURE_MARGIN = 0.45
# Below this similarity to every enrolled picture a quad is nothing of the deck at all (a
# note, a seat marker, a phone the finder took for a card): "not a card", dropped by the
# pipeline. Measured on every quad of both finders (edge, placed and rough) on rendered
# tables (40 animal scenes from seed 950,000, 150 empty tables from 6,100,000): 27 of
# 1,618 quads on cards fall below 0.5, and 140 of 181 quads on things; the phantoms on
# those empty tables fell from 7 to 3 (0.4 before).
MIN_CARD_SIMILARITY = 0.5
# A card, face or back, carries print: the spread of its pixels (0..1, the embedding's
# input) is at least this. On the same tuning tables the finders' quads on cards spread
# by 0.076 or more (1 in 100 below 0.094), while bare cloth, blank notes and dark phone
# screens spread by as little as 0.02; the embedding, which takes out each card's own
# spread, may liken such a featureless quad to a small blurred back.
MIN_PRINT = 0.05
# A card read from one corner index alone (`read_index`: the rest of it hidden) is a game
# card only from these probabilities of its rank and suit (mean of INDEX_SCALES), and only
# if the patch reads the same face at every one of INDEX_SCALES (the quad scaled about its
# index corner): the index finder's quads are off by up to 10% in size (median 3%), and a
# patch that shows a pip or a neighbour's print instead of an index reads one face at one
# scale and another at the next. On the real photos' train split, the hits inside the
# labelled Aces' boxes read 78 of 92 Aces right, with 2 game readings elsewhere; at (1.0,
# 0.85, 1.2) 65 and 0, at one scale 82 and 12.
INDEX_RANK = 0.9
INDEX_SUIT = 0.8
INDEX_SCALES = (1.0, 0.9, 1.1)
# A corner patch with less print than this (`features.index_print`) holds no index: blank
# paper, which the corner reader, scaling each patch's contrast up, may read as anything
# (the real photos' train split: an index finder's hit on an Ace's blank corner read as an
# Ace of clubs at 0.98, print 0.006; the indices read right there: 0.137 and more).
INDEX_PRINT = 0.05
# A quad whose sides differ by less than this (a 5:7 card is 1.4) may be a card seen
# steeply from its long side, ordered sideways; the playing-card reader tries it turned.
SIDEWAYS_RATIO = 1.25
# An enrolled deck's quad read again turned (a second guess) counts from this confidence.
# On 200 tuning scenes (seed 950,100+) 36 of 37 retries read from 0.5 up were right; the
# wrong one, a loose quad over two cards, at 0.57 (a lynx read as a wolf).
SIDEWAYS_SURE = 0.6
# A playing card's quad read again turned counts where it reads a game card, or a 6..King
# from this confidence: small court cards and 7s seen steeply read as no card at all. On
# tuning scenes (seeds 960,100+ and 960,300+, 200 each, fourth-stage finder) 2,859 ->
# 2,864 and 2,840 -> 2,845 cards right, the same at 0.5, 0.75 and 0.9; no wrong game
# rank or phantom more; the real train split, 150 empty tables and the fans unchanged.
SIDEWAYS_FACE = 0.9


class CardReader:
    """Reads the cards of one deck; build it once, call `read_batch` for every frame."""

    def __init__(self, deck: DeckProfile) -> None:
        self.deck = deck
        if deck.kind == PLAYING_CARDS:
            self._session = model_session(PLAYING_MODEL)
            self._whole = model_session(WHOLE_MODEL)
            self._index = model_session(INDEX_MODEL)
        else:
            self._session = model_session(EMBED_MODEL)
            self._templates, self._template_keys = self._template_matrix(deck)

    def read_batch(self, image: np.ndarray, quads: Sequence[np.ndarray]) -> list[CardReading]:
        """One reading per quad, in the same order (corners ordered clockwise)."""
        if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
            raise ValueError(
                f"expected a BGR uint8 image of shape (H, W, 3), got {image.dtype} {image.shape}"
            )
        if not quads:
            return []
        ordered = [order_clockwise(q) for q in quads]
        if self.deck.kind == PLAYING_CARDS:
            readings = self._read_playing(
                corner_views_of(image, ordered), whole_views_of(image, ordered), ordered
            )
            return self._retry_sideways(image, ordered, readings)
        readings = self._read_enrolled(rectify_cards(image, ordered), ordered)
        return self._retry_enrolled_sideways(image, ordered, readings)

    def _retry_sideways(
        self, image: np.ndarray, quads: list[np.ndarray], readings: list[CardReading]
    ) -> list[CardReading]:
        """Read again, turned by 90°, the near-square quads that showed no face.

        Under a steep camera tilt a card's long side can look the shorter one, so
        `order_clockwise` rectifies it sideways and neither corner patch holds an index.
        Only a quad read as "not a card" is retried (a face read as 6..King stays), and the
        retry counts only when both corners read the same face: a game card, or a 6..King
        read at `SIDEWAYS_FACE`.
        """
        retry, turned_quads = _sideways(quads, readings, (NOT_A_CARD,))
        if not retry:
            return readings
        rank_p, suit_p, whole_rank, whole_suit = self._probabilities(
            corner_views_of(image, turned_quads), whole_views_of(image, turned_quads)
        )
        out = list(readings)
        for j, i in enumerate(retry):
            ranks, suits = rank_p[2 * j : 2 * j + 2], suit_p[2 * j : 2 * j + 2]
            # both corners must show the same face: a quad spanning two cards (a finder's
            # merge) turned sideways can show one corner of each
            if ranks[0].argmax() != ranks[1].argmax() or suits[0].argmax() != suits[1].argmax():
                continue
            reading = _playing_reading(ranks, suits, whole_rank[j], whole_suit[j], turned_quads[j])
            if reading.rank is not None or (
                reading.label == OTHER and reading.confidence >= SIDEWAYS_FACE
            ):
                out[i] = reading
        return out

    def _retry_enrolled_sideways(
        self, image: np.ndarray, quads: list[np.ndarray], readings: list[CardReading]
    ) -> list[CardReading]:
        """Read again, turned by 90°, the near-square quads of an enrolled deck that read
        no card for sure (`_retry_sideways` says why); the retry counts only where it
        reads a card or a back at `SIDEWAYS_SURE`.

        Measured on 200 tuning scenes (seed 950,100+): 2,838 -> 2,850 of 2,916 animal
        cards read right (in the issue's size range 98.7% -> 99.1%), no wrong game rank,
        the same phantoms on 150 empty tables (2)."""
        retry, turned_quads = _sideways(quads, readings, (NOT_A_CARD, OTHER))
        if not retry:
            return readings
        again = self._read_enrolled(rectify_cards(image, turned_quads), turned_quads)
        out = list(readings)
        for i, reading in zip(retry, again, strict=True):
            if reading.label not in (NOT_A_CARD, OTHER) and reading.confidence >= SIDEWAYS_SURE:
                out[i] = reading
        return out

    def read_index(self, image: np.ndarray, quads: Sequence[np.ndarray]) -> list[CardReading]:
        """Playing cards read from one corner index each: the top-left patch of each quad
        (clockwise from the index's corner, short side first, as `corner_index` gives
        them), the rest of the card being out of sight. A patch that reads a face at
        INDEX_RANK is read again at the other INDEX_SCALES (`_index_reading` decides)."""
        if self.deck.kind != PLAYING_CARDS:
            raise ValueError(f"deck {self.deck.name!r} prints no corner index to read")
        if not quads:
            return []
        first_rank, first_suit, views = self._index_probabilities(image, quads, INDEX_SCALES[:1])
        printed = index_print(views) >= INDEX_PRINT
        faces = [
            i
            for i, ranks in enumerate(first_rank[0])
            if ranks.argmax() < BACK_CLASS and ranks.max() >= INDEX_RANK and printed[i]
        ]
        readings = [CardReading(q, "up", None, None, NOT_A_CARD, 0.0) for q in quads]
        if not faces:
            return readings
        face_quads = [quads[i] for i in faces]
        rank_p, suit_p, _ = self._index_probabilities(image, face_quads, INDEX_SCALES[1:])
        for j, i in enumerate(faces):
            readings[i] = _index_reading(
                np.concatenate([first_rank[:, i], rank_p[:, j]]),
                np.concatenate([first_suit[:, i], suit_p[:, j]]),
                quads[i],
            )
        return readings

    def _index_probabilities(
        self, image: np.ndarray, quads: Sequence[np.ndarray], scales: Sequence[float]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rank and suit probabilities (scales, N, classes) of the top-left patch of each
        quad scaled by each of `scales` about its top-left corner, in one batch; and the
        patches."""
        scaled = [q[0] + (q - q[0]) * scale for scale in scales for q in quads]
        views = top_left_views_of(image, scaled)
        rank_p, suit_p = self._index.run(None, {"corners": to_model_input(views)})
        shape = (len(scales), len(quads))
        return rank_p.reshape(*shape, -1), suit_p.reshape(*shape, -1), views

    def read_cards(self, cards: np.ndarray, corners: Sequence[np.ndarray]) -> list[CardReading]:
        """Read already rectified READ_SIZE cards; `corners` are passed through."""
        if self.deck.kind == PLAYING_CARDS:
            return self._read_playing(corner_views(cards), whole_views(cards), corners)
        return self._read_enrolled(cards, corners)

    # --- playing cards -----------------------------------------------------------------

    def _probabilities(
        self, views: np.ndarray, wholes: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Rank and suit probabilities of cards from their corner views (card i at rows 2i
        and 2i + 1) and from their whole faces (card i at row i)."""
        rank_p, suit_p = self._session.run(None, {"corners": to_model_input(views)})
        whole_rank, whole_suit = self._whole.run(None, {"cards": to_model_input(wholes)})
        return rank_p, suit_p, whole_rank, whole_suit

    def _read_playing(
        self, views: np.ndarray, wholes: np.ndarray, corners: Sequence[np.ndarray]
    ) -> list[CardReading]:
        """Read cards from their corner views and their whole faces (`_probabilities`)."""
        rank_p, suit_p, whole_rank, whole_suit = self._probabilities(views, wholes)
        return [
            _playing_reading(
                rank_p[2 * i : 2 * i + 2],
                suit_p[2 * i : 2 * i + 2],
                whole_rank[i],
                whole_suit[i],
                corners[i],
            )
            for i in range(len(corners))
        ]

    # --- enrolled decks ----------------------------------------------------------------

    def _embed(self, cards: np.ndarray) -> np.ndarray:
        """Unit embeddings of READ_SIZE cards, one batched call: (N, D)."""
        return self._embed_input(embed_input(cards))

    def _embed_input(self, batch: np.ndarray) -> np.ndarray:
        """Unit embeddings of cards already in `features.embed_input` form: (N, D)."""
        return self._session.run(None, {"cards": batch})[0]

    def _template_matrix(self, deck: DeckProfile) -> tuple[np.ndarray, np.ndarray]:
        """Embeddings of every enrolled picture both ways up, with each row's card key."""
        pictures = [np.asarray(deck.templates[key]) for key in CARD_KEYS]
        keys = np.array([key for key, p in zip(CARD_KEYS, pictures, strict=True) for _ in p])
        every = np.concatenate(pictures)
        both = np.concatenate([every, turned(every)])
        return self._embed(both), np.concatenate([keys, keys])

    def _read_enrolled(self, cards: np.ndarray, corners: Sequence[np.ndarray]) -> list[CardReading]:
        """Nearest enrolled card by embedding, kept only with a clear margin; a quad with no
        print in it (`MIN_PRINT`) is no card."""
        batch = embed_input(cards)
        spread = batch.reshape(len(batch), -1).std(axis=1)
        similarity = self._embed_input(batch) @ self._templates.T
        per_key = np.stack(
            [similarity[:, self._template_keys == key].max(axis=1) for key in CARD_KEYS], axis=1
        )
        order = np.argsort(-per_key, axis=1)
        readings = []
        for i in range(len(cards)):
            best, runner_up = per_key[i, order[i, 0]], per_key[i, order[i, 1]]
            if spread[i] < MIN_PRINT:
                best = 0.0  # featureless: like nothing of the deck
            key = CARD_KEYS[order[i, 0]]
            readings.append(
                _enrolled_reading(key, float(best), float(best - runner_up), corners[i])
            )
        return readings


def _sideways(
    quads: list[np.ndarray], readings: list[CardReading], labels: tuple[str, ...]
) -> tuple[list[int], list[np.ndarray]]:
    """The near-square quads (`_squarish`) read as one of `labels`, by index, and each of
    them turned by 90°: what a card seen steeply from its long side may be."""
    retry = [
        i
        for i, (quad, reading) in enumerate(zip(quads, readings, strict=True))
        if reading.label in labels and _squarish(quad)
    ]
    return retry, [np.roll(quads[i], 1, axis=0) for i in retry]


def _squarish(quad: np.ndarray) -> bool:
    """Whether a quad's two pairs of opposite sides are within SIDEWAYS_RATIO of each other."""
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    across, along = sides[0] + sides[2], sides[1] + sides[3]
    return max(across, along) < SIDEWAYS_RATIO * min(across, along)


def _combine_views(
    rank_p: np.ndarray, suit_p: np.ndarray, whole_rank: np.ndarray, whole_suit: np.ndarray
) -> tuple[int, float, np.ndarray]:
    """One rank class, its probability and suit probabilities from a card's three views:
    its two corner indices (`rank_p`, `suit_p`: (2, 15) and (2, 4)) and its whole face.

    The three views are three experts, and their rank probabilities are multiplied (their
    geometric mean, normalised): a rank stands when no view speaks against it. The whole
    face counts the pips that a small or blurred index no longer shows; the indices tell a
    5 from a 6 whose pips a neighbour covers. Where that leaves no game rank, the whole
    face may still lead to a game rank (`_led_by_whole_face`).
    A face read on one corner while the other shows none is a card mostly under a
    neighbour (a fanned pair): the whole face then shows another card or the table and
    cannot confirm the index, which stands alone at a reduced probability (`ONE_CORNER`),
    unless the whole face reads another face (`OTHER_FACE_SEEN`) or surely no card at all
    (`NO_CARD_SEEN`: a quad on part of a card); where the whole face does not read that
    rank, a lone game rank must also be sure of its suit (`SURE_VIEW`):
    the red print of a Queen's robe read as an Ace at 0.99 and hearts at 0.82 (real train
    photo IMG_2648; with this rule 2 phantom Aces of the train split's 15 stray readings
    are gone, and nothing read right is lost there nor on 200 tuning scenes).
    Where the whole face shows a face, its suit must not speak against the chosen one
    (`SUIT_DISSENT`): spades and clubs are hard to tell on a small index, not on the pips.
    Two corners that read different faces (beyond a sure corner against an unsure game
    rank) are two cards under one quad (a finder's merge), or one blurred index read two
    ways: only a whole face that leads may then name a game rank. Two corners sure of two
    suits (`_suits_conflict`) name no game card at all: the pips cannot settle which
    player's it is (spades and clubs are what blurred indices confuse). A corner unsure of
    its rank has no say in the suit against a sure one (`_suit_voters`).
    """
    top = rank_p.argmax(axis=1)
    faces = [v for v in (0, 1) if top[v] < BACK_CLASS]
    seen = int(whole_rank.argmax())
    if len(faces) == 1:
        v = faces[0]
        k, sure, suits = int(top[v]), float(rank_p[v, top[v]]), suit_p[v]
        # the whole face shows another face, or surely no card: it cannot confirm the index
        other_face = seen != k and seen < BACK_CLASS and whole_rank[seen] >= OTHER_FACE_SEEN
        if other_face or (seen == NONE_CLASS and whole_rank[seen] >= NO_CARD_SEEN):
            return k, 0.5 * sure, suits
        if seen == k:
            suits = suits * whole_suit / float(suits @ whole_suit)
        elif k + 1 in GAME_RANKS and float(suits.max()) < SURE_VIEW:
            return k, 0.5 * sure, suits  # nothing confirms an unsure suit
        p = ONE_CORNER * sure
    else:
        experts = np.maximum(np.concatenate([rank_p, whole_rank[None]]), 1e-6)
        combined = np.exp(np.log(experts).mean(axis=0))
        combined /= combined.sum()
        voters = _suit_voters(rank_p) if len(faces) == 2 else [0, 1]
        suits = np.maximum(suit_p[voters].mean(axis=0) * whole_suit, 1e-9)
        suits /= suits.sum()
        k, p = int(combined.argmax()), float(combined.max())
        if len(voters) == 2 and k + 1 in GAME_RANKS and _suits_conflict(suit_p):
            return k, 0.5 * p, suits
        if len(faces) == 2 and _corners_conflict(rank_p):
            led = _whole_face_lead(rank_p, whole_rank, whole_suit, suits, p)
            return led or (k, 0.5 * p, suits)
    if k + 1 in GAME_RANKS and seen < BACK_CLASS and _suit_dissents(whole_suit, suits):
        return k, 0.5 * p, suits  # the pips' suit speaks against the corners'
    if k == BACK_CLASS or _names_game_card(k, p, suits):
        return k, p, suits
    return _whole_face_lead(rank_p, whole_rank, whole_suit, suits, p) or (k, p, suits)


def _whole_face_lead(
    rank_p: np.ndarray, whole_rank: np.ndarray, whole_suit: np.ndarray, suits: np.ndarray, p: float
) -> tuple[int, float, np.ndarray] | None:
    """The whole face's game rank at MIN_RANK_PROBABILITY or more (`p`, the views combined,
    if higher) where it may lead (`_led_by_whole_face`); None where it may not."""
    if _led_by_whole_face(rank_p, whole_rank, whole_suit, suits):
        return int(whole_rank.argmax()), max(p, MIN_RANK_PROBABILITY), suits
    return None


def _no_game_face_shown(rank_p: np.ndarray, whole_rank: np.ndarray) -> float | None:
    """How surely the whole face shows a 6..King (its 6..King classes together) where that
    is `NO_GAME_SHOWN` or more and no corner reads a game rank with some certainty
    (`UNSURE_VIEW`); None otherwise.

    Why: the whole face of a small or blurred 6..King often spreads over its neighbours
    (a Jack read 0.5 Jack, 0.3 Queen, 0.15 King; an 8 as a 7 or a 9) while its corner
    indices read nothing, so the card stayed an unsure face (dropped, or leaving the frame
    in doubt); that it is no game card is sure all the same. Measured: `NO_GAME_SHOWN`.
    """
    shown = float(whole_rank[NON_GAME_FACES].sum())
    if shown < NO_GAME_SHOWN:
        return None
    top = rank_p.argmax(axis=1)
    if any(top[v] + 1 in GAME_RANKS and rank_p[v, top[v]] >= UNSURE_VIEW for v in (0, 1)):
        return None
    return shown


def _corners_conflict(rank_p: np.ndarray) -> bool:
    """Whether two corners that both show a face show different ones, beyond a sure corner
    against an unsure game rank."""
    top, sure = rank_p.argmax(axis=1), rank_p.max(axis=1)
    if top[0] == top[1]:
        return False
    v = int(sure.argmax())
    other_is_game = top[1 - v] + 1 in GAME_RANKS
    return not (sure[v] >= SURE_VIEW and sure[1 - v] < UNSURE_VIEW and other_is_game)


def _suit_voters(rank_p: np.ndarray) -> list[int]:
    """Of two corners that both read a face, those whose suit counts: both, but one unsure
    of its rank (`UNSURE_VIEW`) has no say against one sure of its own (`SURE_VIEW`): it
    shows a neighbour's print more often than an index."""
    sure = rank_p.max(axis=1)
    v = int(sure.argmax())
    return [v] if sure[v] >= SURE_VIEW and sure[1 - v] < UNSURE_VIEW else [0, 1]


def _suits_conflict(suit_p: np.ndarray) -> bool:
    """Whether two corners name different suits, each for sure (`SURE_VIEW`)."""
    top, sure = suit_p.argmax(axis=1), suit_p.max(axis=1)
    return bool(top[0] != top[1] and sure.min() >= SURE_VIEW)


def _suit_dissents(whole_suit: np.ndarray, suits: np.ndarray) -> bool:
    """Whether the whole face reads, at SUIT_DISSENT or more, another suit than `suits`."""
    return whole_suit.max() >= SUIT_DISSENT and whole_suit.argmax() != suits.argmax()


def _led_by_whole_face(
    rank_p: np.ndarray, whole_rank: np.ndarray, whole_suit: np.ndarray, suits: np.ndarray
) -> bool:
    """Whether the whole face alone may name the game rank that the corners leave unsure.

    Why: a quad that sits a few percent off a card (a loose outline on a pale table) moves
    the small index out of its corner patch, while the pips of the whole face still read
    (measured on rendered tuning scenes: `models/README.md`). The whole face leads only
    when it is sure of a game rank and of its suit, at least one corner gives that rank
    some weight, and no corner reads another face with some certainty.
    """
    k = int(whole_rank.argmax())
    if k + 1 not in GAME_RANKS or whole_rank[k] < WHOLE_LEADS or whole_suit.max() < WHOLE_SUIT:
        return False
    if rank_p[:, k].max() < CORNER_SUPPORT or suits.max() < MIN_SUIT_PROBABILITY:
        return False
    if _suit_dissents(whole_suit, suits):
        return False
    return not _corner_reads_another_face(rank_p, k, UNSURE_VIEW)


def _corner_reads_another_face(rank_p: np.ndarray, k: int, level: float) -> bool:
    """Whether a corner reads a face other than rank class `k` at `level` or more."""
    top = rank_p.argmax(axis=1)
    return any(top[v] != k and top[v] < BACK_CLASS and rank_p[v, top[v]] >= level for v in (0, 1))


def _playing_reading(
    rank_p: np.ndarray,
    suit_p: np.ndarray,
    whole_rank: np.ndarray,
    whole_suit: np.ndarray,
    corners: np.ndarray,
) -> CardReading:
    """The reading of one playing card from its corner views' and whole face's
    probabilities (`_combine_views`); where those name no game card, a whole face sure of
    one may still name it (`_whole_face_sure`), and a whole face sure to show none makes
    it a 6..King read for sure (`_no_game_face_shown`)."""
    k, p, suits = _combine_views(rank_p, suit_p, whole_rank, whole_suit)
    if k == BACK_CLASS and p >= MIN_BACK_PROBABILITY:
        return CardReading(corners, "down", None, None, "back", p)
    if not _names_game_card(k, p, suits) and _whole_face_sure(
        rank_p, suit_p, whole_rank, whole_suit
    ):
        k, p, suits = int(whole_rank.argmax()), float(whole_rank.max()), whole_suit
    if not _names_game_card(k, p, suits):
        shown = _no_game_face_shown(rank_p, whole_rank)
        if shown is not None and not (k in NON_GAME_FACES and p >= shown):
            return CardReading(corners, "up", None, None, OTHER, shown)
    if k == BACK_CLASS:  # a phone or a dark note: a back's pattern read unsure
        return CardReading(corners, "up", None, None, NOT_A_CARD, 1.0 - p)
    if k == NONE_CLASS:
        return CardReading(corners, "up", None, None, NOT_A_CARD, p)
    s = int(suits.argmax())
    rank = k + 1
    if rank not in GAME_RANKS:  # 6..King: a face, but no game card
        return CardReading(corners, "up", None, None, OTHER, p)
    if not _names_game_card(k, p, suits):
        return CardReading(corners, "up", None, None, OTHER, DOUBT * p * float(suits[s]))
    # 0.5 at the acceptance thresholds, 1 for a sure rank (about 0.95) and a sure suit
    confidence = _confidence(
        (p, MIN_RANK_PROBABILITY, SURE_RANK), (suits[s], MIN_SUIT_PROBABILITY, 1.0)
    )
    return _game_card(corners, k, s, confidence)


def _names_game_card(k: int, p: float, suits: np.ndarray) -> bool:
    """Whether rank class `k` at probability `p`, with `suits`, names a game card."""
    return k + 1 in GAME_RANKS and p >= MIN_RANK_PROBABILITY and suits.max() >= MIN_SUIT_PROBABILITY


def _whole_face_sure(
    rank_p: np.ndarray, suit_p: np.ndarray, whole_rank: np.ndarray, whole_suit: np.ndarray
) -> bool:
    """Whether the whole face alone names a game card that the corners left unread: sure
    of its rank and suit (`WHOLE_SURE`), where some corner reads a face, no corner is
    sure (`SURE_VIEW`) of another face nor leans (`UNSURE_VIEW`) to another suit: a
    smudged index still shows its colour and its suit's shape better than its rank,
    while the pips of a loosely outlined club can look like a spade's.

    Why: on a small or blurred card the index is a smudge that the corner reader takes
    for another rank (a 3 for a 2, a 5 for an 8) while the pips still count: rendered
    cards 60 to 80 pixels long went unread so. Measured: `WHOLE_SURE`'s comment. A quad
    on part of a card shows no index at all, and one pip in its middle is an Ace's face:
    a rough rectangle on a third of a 3 of spades (tuning scene 960,213), both corners
    reading no card, was read as the Ace of clubs at 1.0. Asking a corner to read some
    face changed nothing else on 400 playing tuning scenes nor the real train split.
    """
    k = int(whole_rank.argmax())
    if k + 1 not in GAME_RANKS or whole_rank[k] < WHOLE_SURE or whole_suit.max() < WHOLE_SURE:
        return False
    if not (rank_p.argmax(axis=1) < BACK_CLASS).any():  # no corner shows an index
        return False
    if _corner_reads_another_face(rank_p, k, SURE_VIEW):
        return False
    suit = int(whole_suit.argmax())
    return not any(suit_p[v].argmax() != suit and suit_p[v].max() >= UNSURE_VIEW for v in (0, 1))


def _index_reading(rank_p: np.ndarray, suit_p: np.ndarray, corners: np.ndarray) -> CardReading:
    """The reading of a playing card from its one visible corner index, read at each of
    INDEX_SCALES (`rank_p` (scales, 15), `suit_p` (scales, 4)): a face only where every
    scale reads the same rank and suit, at mean probabilities of INDEX_RANK and INDEX_SUIT;
    a game card then, or "other" for a 6..King."""
    k, s = int(rank_p[0].argmax()), int(suit_p[0].argmax())
    p, q = float(rank_p[:, k].mean()), float(suit_p[:, s].mean())
    alike = (rank_p.argmax(axis=1) == k).all() and (suit_p.argmax(axis=1) == s).all()
    if k >= BACK_CLASS or not alike or p < INDEX_RANK:
        return CardReading(corners, "up", None, None, NOT_A_CARD, p)
    if k in NON_GAME_FACES:
        return CardReading(corners, "up", None, None, OTHER, p)
    if q < INDEX_SUIT:
        return CardReading(corners, "up", None, None, NOT_A_CARD, p)
    # 0.5 at the floors, 1 for a sure rank (about 0.95) and suit
    confidence = _confidence((p, INDEX_RANK, SURE_RANK), (q, INDEX_SUIT, 1.0))
    return _game_card(corners, k, s, confidence)


def _game_card(corners: np.ndarray, k: int, s: int, confidence: float) -> CardReading:
    """The reading of the game card of rank class `k` and suit `s`."""
    return CardReading(corners, "up", k + 1, SUITS[s], f"{RANK_TEXT[k]} of {SUITS[s]}", confidence)


def _confidence(*measures: tuple[float, float, float]) -> float:
    """A reading's confidence from its measures, each (value, floor, sure): 0.5 where one
    is at its floor, 1 where every one is sure."""
    sureness = min((value - floor) / (sure - floor) for value, floor, sure in measures)
    return 0.5 + 0.5 * min(1.0, float(sureness))


def _enrolled_reading(
    key: str, similarity: float, margin: float, corners: np.ndarray
) -> CardReading:
    """The reading of one enrolled-deck card from its best match and margin."""
    if similarity < MIN_CARD_SIMILARITY:
        return CardReading(corners, "up", None, None, NOT_A_CARD, 1.0 - similarity)
    if similarity < MIN_SIMILARITY or margin < MIN_MARGIN:
        near = max(0.0, similarity) * min(1.0, max(0.0, margin) / MIN_MARGIN)
        return CardReading(corners, "up", None, None, OTHER, DOUBT * near)
    # 0.5 at the thresholds, 1 for a sure match (SURE_SIMILARITY and SURE_MARGIN)
    confidence = _confidence(
        (similarity, MIN_SIMILARITY, SURE_SIMILARITY), (margin, MIN_MARGIN, SURE_MARGIN)
    )
    if key == "back":
        return CardReading(corners, "down", None, None, "back", confidence)
    rank = int(key)
    return CardReading(corners, "up", rank, None, ANIMAL_NAMES[rank], confidence)
