"""Reading each found card: face up or down, rank 1..5 or none, suit, confidence.

`CardReader(deck).read_batch(image, quads)` rectifies every quad (a portrait card, upright
or upside down) and reads all of them with one batched call per model:

- playing cards: a small ONNX CNN reads both corner indices of every card (the top-left
  one and the bottom-right one turned by 180°, so the card's own orientation does not
  matter) as Ace..King, a back, or not a card, plus the suit; a second one reads the whole
  face warped to 40x56, whose pips still count where a small or blurred index no longer
  reads; `playing_views.py` weighs the three views into one reading. A card seen by one
  corner index alone (`read_index`) is read by a third, the corner reader fine-tuned on
  the patches the index finder's hits cut (`index_reader.onnx`). A playing deck whose
  back was enrolled (`decks.enroll_back`) also reads the quads those readers see no card
  in as that back, by its picture (`_read_own_back`).
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
from dataclasses import replace

import cv2
import numpy as np

from .back_colour import back_coloured, tint_and_gain
from .confidence import DOUBT, confidence_of
from .decks import ANIMAL_NAMES, CARD_KEYS, PLAYING_CARDS, SHIPPED_DIR, DeckProfile
from .detect import plain_card_shaped
from .features import (
    EMBED_VIEW_SIZE,
    READ_SIZE,
    corner_views,
    corner_views_of,
    embed_input,
    index_print,
    print_spread,
    rectify_cards,
    to_model_input,
    top_left_views_of,
    turned,
    whole_views,
    whole_views_of,
)
from .geometry import order_clockwise, scaled_from_corner
from .onnx_models import model_session
from .playing_views import (
    BACK_CLASS,
    INDEX_RANK,
    covered_back,
    index_reading,
    playing_reading,
    whole_face_confirms,
)
from .stages import timed
from .types import NOT_A_CARD, OTHER, CardReading

PLAYING_MODEL = SHIPPED_DIR / "playing_cards.onnx"
WHOLE_MODEL = SHIPPED_DIR / "playing_whole.onnx"
EMBED_MODEL = SHIPPED_DIR / "card_embed.onnx"
# The corner reader fine-tuned on the patches the index finder's hits cut (models/README.md):
# it reads a card seen by one index alone (`read_index`); the corner reader reads the rest.
INDEX_MODEL = SHIPPED_DIR / "index_reader.onnx"

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
# A deck's back may itself carry less print than that: a faint grey pattern, a few dots
# (26 of 120 tuning designs from 4,100,000 spread by under 0.1, as little as 0.013). So
# a quad read as the back must carry this share of the enrolled back's own print, where
# that is less than MIN_PRINT (`_print_floor`): on the table such backs spread by about
# half to twice their enrolled picture. But never less than BARE_PRINT, bare cloth's: a
# back with no print at all stays unread, as a blank note would read as it.
# Measured (models/README.md, card finder, "A faint back"): on the 26 faint tuning
# designs, 3 tables each, backs read 180 -> 232 of 462, readings on 20 empty tables each
# the same (2 in 520); the 3 more "phantoms" are backs read from part of their own card.
# Share 0.35 read 4 more backs on the first 12 of them (87 against 83); 0.7 read 6
# fewer on the 12 designs of `back_colour.BACK_BRIGHTNESS` (248 against 254). Held out, on 53 faint
# designs: 358 -> 434 of 935, no reading on 530 empty tables either way. The demo deck's
# back spreads by 0.23: its floor stays MIN_PRINT.
BACK_PRINT_SHARE = 0.5
BARE_PRINT = 0.02
# An enrolled deck seen by the finder net for backs of any design (`DeckProfile.any_backs`),
# or whose back is plain inside its margin (`DeckProfile.plain_back`: the edge finder then
# keeps blank quads of its colour), reads a quad as its back only where the quad's mean
# colour is the enrolled back's under the table's light (`back_colour.back_coloured`):
# that net and that finder outline phones and notes, and the embedding, which takes out
# each card's own colour and contrast, likens some to the back. For the decks of plain
# backs (the 19 tuning designs printing 0.1 or more that are plain inside), without the
# rule, readings on their 190 empty tables 7 -> 10.
# An enrolled deck's face read with little certainty (under FACE_COLOUR_SURE) whose mean
# colour lies nearer the enrolled back's than its own face's is a doubt: nearer in tint
# (by BACK_TINT_NEARER, the departure of `back_colour.tint_and_gain`, which the light's brightness
# does not move) and in brightness (the gain nearer 1). Two faint backs side by side,
# outlined as one card, read as a mouse at 0.5 (tuning design 4,100,007 with the first
# two passes of the enrolled decks' net for backs of any design). On the 26 faint tuning
# designs' tables 13 of the 16 faces read wrong before fusion are so, and 4 of 1,207 read
# right; none of 1,166 on 100 demo tables. Tint alone took right faces under a tinted
# light on a grey back, as bright as the faces and not as the back (models/README.md,
# card finder, "Two backs read as a face").
FACE_COLOUR_SURE = 0.7
BACK_TINT_NEARER = 0.75
# A faint enrolled back (its picture printing under FAINT_BACK, `features.print_spread`)
# is also enrolled as the camera sees it small (`_small_views`): shrunk to each of
# SMALL_BACK_LENGTHS pixels long, blurred by each of SMALL_BACK_BLURS (Gaussian sigma at
# that size), with sensor noise of SMALL_BACK_NOISE grey levels, and enlarged back. Why:
# the embedding takes out each card's own spread, so on a back whose print is a few dots
# or a faint marbling, the blur and noise of a 60-130 pixel card on the table are what
# it sees; outlined well (IoU 0.7 or more) on the 26 faint tuning designs' tables, such
# backs read at a similarity of 0.56 to their flat picture (median; 0.7 is the floor) and
# went unread. Measured (models/README.md, card_embed.onnx, "Faint backs seen small"):
# backs read on those tables 293 -> 314 of 462, on the 12 designs of `back_colour.BACK_BRIGHTNESS`
# 283 -> 290 of 367 and 117 -> 120 of 158, no reading from 0.5 on their empty tables
# either way, a back read on part of its own card more on each set; held out, on 53
# faint designs, 567 -> 617 of 935, none on 530 empty tables either way. Views at 50
# pixels and a blur of 1.5 read more backs still (328) but read a phone's dark screen as
# a dark back at 0.96. The demo deck's back prints 0.23: it gets no views.
FAINT_BACK = 0.1
SMALL_BACK_LENGTHS = (64, 90, 128)
SMALL_BACK_BLURS = (0.5, 1.0)
SMALL_BACK_NOISE = 3.0
# A playing deck's own enrolled back is looked for in the quads the readers read as no
# card, or as a face or back under this confidence (`CardReader._read_own_back`): a
# 6..King or a back they read from 0.5 stands as read.
OWN_BACK_OPEN = 0.5
# The scales about its corner at which an index patch is read (`read_index`; why:
# playing_views.INDEX_RANK).
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
        # A playing deck's own back, enrolled (`_read_own_back`): its pictures' embeddings.
        self._own_back: np.ndarray | None = None
        if "back" in deck.templates:  # an enrolled deck, or a playing deck's own back
            self._embedder = model_session(EMBED_MODEL)
            # the print a quad read as the back must carry (`_print_floor`)
            self._back_floor = _print_floor(deck.templates["back"])
            # mean BGR of every enrolled card: a doubtful face's colour is checked against
            # its own and the back's (FACE_COLOUR_SURE), and a back read on a deck seen by
            # the net for backs of any design, of a plain back, or a playing deck's own
            # back must match the back's (`_back_coloured`)
            self._colours = {key: _mean_colour(deck.templates[key]) for key in deck.templates}
        if deck.kind == PLAYING_CARDS:
            self._session = model_session(PLAYING_MODEL)
            self._whole = model_session(WHOLE_MODEL)
            self._index = model_session(INDEX_MODEL)
            if "back" in deck.templates:
                backs = _as_seen(np.asarray(deck.templates["back"]))
                self._own_back = self._embed(np.concatenate([backs, turned(backs)]))
        else:
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
            readings = self._retry_sideways(image, ordered, readings)
            return self._read_own_back(image, ordered, readings)
        readings = self._read_enrolled(rectify_cards(image, ordered, EMBED_VIEW_SIZE), ordered)
        return self._retry_enrolled_sideways(image, ordered, readings)

    def _retry_sideways(
        self, image: np.ndarray, quads: list[np.ndarray], readings: list[CardReading]
    ) -> list[CardReading]:
        """Read again, turned by 90°, the near-square quads that showed no face.

        Under a steep camera tilt a card's long side can look the shorter one, so
        `order_clockwise` rectifies it sideways and neither corner patch holds an index.
        Only a quad read as "not a card" is retried (a face read as 6..King stays), and the
        retry counts only when both corners read the same face, or when its whole face
        names the same game card for sure (`whole_face_confirms`: such a card is small, and
        its indices often read two ranks); and only for a game card, or a 6..King read at
        `SIDEWAYS_FACE`.
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
            reading = playing_reading(ranks, suits, whole_rank[j], whole_suit[j], turned_quads[j])
            # both corners must show the same face, or the whole face the same game card:
            # a quad spanning two cards (a finder's merge) turned sideways can show one
            # corner of each
            same_face = (
                ranks[0].argmax() == ranks[1].argmax() and suits[0].argmax() == suits[1].argmax()
            )
            if not same_face and not whole_face_confirms(
                reading, ranks, whole_rank[j], whole_suit[j]
            ):
                continue
            if reading.rank is not None or (
                reading.label == OTHER and reading.confidence >= SIDEWAYS_FACE
            ):
                out[i] = reading
        return out

    def _read_own_back(
        self, image: np.ndarray, quads: list[np.ndarray], readings: list[CardReading]
    ) -> list[CardReading]:
        """A playing deck's quads that read no card the readers stand by (no face, nor a
        back from OWN_BACK_OPEN), read as the deck's own enrolled back where like it.

        Why: the corner and whole readers learned the usual backs and many drawn designs,
        and read a plain or unusual back as no card at all. Like the enrolled decks' back,
        a quad is that back where its embedding lies within MIN_SIMILARITY of one of the
        back's pictures (confidence 1 from SURE_SIMILARITY), it carries the back's print
        (`_print_floor`) and it is the back's colour under the table's light
        (`back_colour.back_coloured`: a phone or a note can be likened to a plain back).
        A back plain inside its margin (`DeckProfile.plain_back`) is read only on a quad
        of the shape and size the edge finder asks of its plain quads
        (`detect.plain_card_shaped`): the parts of a phone's dark screen that a glare cuts
        are as plain."""
        if self._own_back is None:
            return readings
        shaped = (
            plain_card_shaped(np.stack(quads), max(image.shape[:2]))
            if self.deck.plain_back is not None
            else np.ones(len(quads), bool)
        )
        open_ = [
            i
            for i, r in enumerate(readings)
            if r.rank is None
            and (r.label == NOT_A_CARD or r.confidence < OWN_BACK_OPEN)
            and shaped[i]
        ]
        if not open_:
            return readings
        cards = rectify_cards(image, [quads[i] for i in open_], EMBED_VIEW_SIZE)
        batch = embed_input(cards)
        spread = print_spread(batch)
        similarity = (self._embed_input(batch) @ self._own_back.T).max(axis=1)
        coloured = _back_coloured(cards, self._colours["back"])
        out = list(readings)
        for j, i in enumerate(open_):
            if similarity[j] < MIN_SIMILARITY or spread[j] < self._back_floor or not coloured[j]:
                continue
            confidence = confidence_of((float(similarity[j]), MIN_SIMILARITY, SURE_SIMILARITY))
            out[i] = CardReading(quads[i], "down", None, None, "back", confidence)
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
        again = self._read_enrolled(
            rectify_cards(image, turned_quads, EMBED_VIEW_SIZE), turned_quads
        )
        out = list(readings)
        for i, reading in zip(retry, again, strict=True):
            if reading.label not in (NOT_A_CARD, OTHER) and reading.confidence >= SIDEWAYS_SURE:
                out[i] = reading
        return out

    def covered_backs(
        self, image: np.ndarray, quads: Sequence[np.ndarray]
    ) -> list[tuple[float, int] | None]:
        """For each playing card quad (clockwise, short side first), how surely its views
        show a back one corner of which lies under something, and which corner
        (`playing_views.covered_back`: 0 the quad's first corner, 1 its third); None where
        they do not."""
        if self.deck.kind != PLAYING_CARDS or not quads:
            return [None] * len(quads)
        rank_p, _, whole_rank, _ = self._probabilities(
            corner_views_of(image, quads), whole_views_of(image, quads)
        )
        return [covered_back(rank_p[2 * i : 2 * i + 2], whole_rank[i]) for i in range(len(quads))]

    def read_index(self, image: np.ndarray, quads: Sequence[np.ndarray]) -> list[CardReading]:
        """Playing cards read from one corner index each: the top-left patch of each quad
        (clockwise from the index's corner, short side first, as `corner_index` gives
        them), the rest of the card being out of sight. A patch that reads a face at
        INDEX_RANK is read again at the other INDEX_SCALES (`index_reading` decides).

        A patch with too little print to hold an index (`INDEX_PRINT`) reads as no card
        whatever the net would say, so the net reads only the others: a quarter of the
        patches of a frame in doubt hold no print (20 playing tuning row tables: 3,415 of
        13,613), and those frames read hundreds of patches each."""
        if self.deck.kind != PLAYING_CARDS:
            raise ValueError(f"deck {self.deck.name!r} prints no corner index to read")
        if not quads:
            return []
        readings = [CardReading(q, "up", None, None, NOT_A_CARD, 0.0) for q in quads]
        views = self._index_views(image, quads, INDEX_SCALES[:1])
        printed = np.flatnonzero(index_print(views) >= INDEX_PRINT)
        if not len(printed):
            return readings
        first_rank, first_suit = self._index_net(views[printed])
        faces = [
            j
            for j, ranks in enumerate(first_rank)
            if ranks.argmax() < BACK_CLASS and ranks.max() >= INDEX_RANK
        ]
        if not faces:
            return readings
        face_quads = [quads[printed[j]] for j in faces]
        again = self._index_views(image, face_quads, INDEX_SCALES[1:])
        rank_p, suit_p = self._index_net(again)
        shape = (len(INDEX_SCALES) - 1, len(faces), -1)
        rank_p, suit_p = rank_p.reshape(shape), suit_p.reshape(shape)
        for f, j in enumerate(faces):
            i = printed[j]
            readings[i] = index_reading(
                np.concatenate([first_rank[None, j], rank_p[:, f]]),
                np.concatenate([first_suit[None, j], suit_p[:, f]]),
                quads[i],
            )
        return readings

    @staticmethod
    def _index_views(
        image: np.ndarray, quads: Sequence[np.ndarray], scales: Sequence[float]
    ) -> np.ndarray:
        """The top-left patch of each quad scaled by each of `scales` about its top-left
        corner: scale by scale, quad by quad."""
        return top_left_views_of(image, [scaled_from_corner(q, s) for s in scales for q in quads])

    @timed("reader nets")
    def _index_net(self, views: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Rank and suit probabilities (N, classes) of index patches, in one batch."""
        rank_p, suit_p = self._index.run(None, {"corners": to_model_input(views)})
        return rank_p, suit_p

    def read_cards(self, cards: np.ndarray, corners: Sequence[np.ndarray]) -> list[CardReading]:
        """Read already rectified READ_SIZE cards; `corners` are passed through."""
        if self.deck.kind == PLAYING_CARDS:
            return self._read_playing(corner_views(cards), whole_views(cards), corners)
        return self._read_enrolled(cards, corners)

    # --- playing cards -----------------------------------------------------------------

    @timed("reader nets")
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
            playing_reading(
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

    @timed("reader nets")
    def _embed_input(self, batch: np.ndarray) -> np.ndarray:
        """Unit embeddings of cards already in `features.embed_input` form: (N, D)."""
        return self._embedder.run(None, {"cards": batch})[0]

    def _template_matrix(self, deck: DeckProfile) -> tuple[np.ndarray, np.ndarray]:
        """Embeddings of every enrolled picture both ways up (a faint back's small views too:
        FAINT_BACK), with each row's card key."""
        pictures = [np.asarray(deck.templates[key]) for key in CARD_KEYS]
        pictures[CARD_KEYS.index("back")] = _as_seen(pictures[CARD_KEYS.index("back")])
        keys = np.array([key for key, p in zip(CARD_KEYS, pictures, strict=True) for _ in p])
        every = np.concatenate(pictures)
        both = np.concatenate([every, turned(every)])
        return self._embed(both), np.concatenate([keys, keys])

    def _read_enrolled(self, cards: np.ndarray, corners: Sequence[np.ndarray]) -> list[CardReading]:
        """Nearest enrolled card by embedding, kept only with a clear margin; a quad with no
        print in it (`MIN_PRINT`, or the back's own floor where it is nearest the back) is
        no card."""
        batch = embed_input(cards)
        spread = print_spread(batch)
        similarity = self._embed_input(batch) @ self._templates.T
        per_key = np.stack(
            [similarity[:, self._template_keys == key].max(axis=1) for key in CARD_KEYS], axis=1
        )
        order = np.argsort(-per_key, axis=1)
        readings = []
        for i in range(len(cards)):
            best, runner_up = per_key[i, order[i, 0]], per_key[i, order[i, 1]]
            key = CARD_KEYS[order[i, 0]]
            if spread[i] < (self._back_floor if key == "back" else MIN_PRINT):
                best = 0.0  # featureless: like nothing of the deck
            readings.append(
                _enrolled_reading(key, float(best), float(best - runner_up), corners[i])
            )
        readings = self._doubt_back_coloured_faces(cards, readings)
        if self.deck.any_backs or self.deck.plain_back is not None:
            unlike = ~_back_coloured(cards, self._colours["back"])
            readings = [
                replace(r, face="up", label=NOT_A_CARD, confidence=DOUBT * r.confidence)
                if r.label == "back" and unlike[i]
                else r
                for i, r in enumerate(readings)
            ]
        return readings

    def _doubt_back_coloured_faces(
        self, cards: np.ndarray, readings: list[CardReading]
    ) -> list[CardReading]:
        """Faces read under FACE_COLOUR_SURE whose colour is nearer the back's than their own
        face's, in tint (BACK_TINT_NEARER) and brightness, become doubts ("other")."""
        out = list(readings)
        for i, reading in enumerate(readings):
            if reading.rank is None or reading.confidence >= FACE_COLOUR_SURE:
                continue
            colour = cards[i].reshape(-1, 3).mean(axis=0)
            to_face, face_gain = tint_and_gain(colour, self._colours[str(reading.rank)])
            to_back, back_gain = tint_and_gain(colour, self._colours["back"])
            if to_back < BACK_TINT_NEARER * to_face and abs(np.log(back_gain)) < abs(
                np.log(face_gain)
            ):
                out[i] = CardReading(
                    reading.corners, "up", None, None, OTHER, DOUBT * reading.confidence
                )
        return out


def _as_seen(backs: np.ndarray) -> np.ndarray:
    """An enrolled back's pictures (N, H, W, 3), with those of a faint one (FAINT_BACK) as
    the camera sees it small too (`_small_views`)."""
    faint = print_spread(embed_input(backs)) < FAINT_BACK
    if not faint.any():
        return backs
    return np.concatenate([backs, _small_views(backs[faint])])


def _small_views(pictures: np.ndarray) -> np.ndarray:
    """Each READ_SIZE picture as a small card on the table shows it (FAINT_BACK): shrunk to
    each of SMALL_BACK_LENGTHS, blurred by each of SMALL_BACK_BLURS, with sensor noise, and
    enlarged back to READ_SIZE; the noise drawn from a fixed seed, so a deck reads alike
    on every run."""
    rng = np.random.default_rng(0)
    width, height = READ_SIZE
    views = []
    for picture in pictures:
        for length in SMALL_BACK_LENGTHS:
            size = (round(length * width / height), length)
            small = cv2.resize(picture, size, interpolation=cv2.INTER_AREA).astype(np.float32)
            for blur in SMALL_BACK_BLURS:
                seen = cv2.GaussianBlur(small, (0, 0), blur)
                seen += rng.normal(0.0, SMALL_BACK_NOISE, seen.shape).astype(np.float32)
                seen = np.clip(seen, 0, 255).astype(np.uint8)
                views.append(cv2.resize(seen, READ_SIZE, interpolation=cv2.INTER_LINEAR))
    return np.stack(views)


def _mean_colour(pictures: np.ndarray) -> np.ndarray:
    """Mean BGR of one card's enrolled pictures (N, H, W, 3)."""
    return np.asarray(pictures, np.float32).reshape(-1, 3).mean(axis=0)


def _print_floor(backs: np.ndarray) -> float:
    """BACK_PRINT_SHARE of the print of the faintest enrolled back, within BARE_PRINT and
    MIN_PRINT."""
    spread = print_spread(embed_input(np.asarray(backs)))
    return min(max(BACK_PRINT_SHARE * float(spread.min()), BARE_PRINT), MIN_PRINT)


def _back_coloured(cards: np.ndarray, back: np.ndarray) -> np.ndarray:
    """For each rectified card (N, H, W, 3), whether its mean colour is the enrolled back's
    (`back`, mean BGR) under the table's light (`back_colour.back_coloured`)."""
    return back_coloured(cards.reshape(len(cards), -1, 3).mean(axis=1), back)


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
    confidence = confidence_of(
        (similarity, MIN_SIMILARITY, SURE_SIMILARITY), (margin, MIN_MARGIN, SURE_MARGIN)
    )
    if key == "back":
        return CardReading(corners, "down", None, None, "back", confidence)
    rank = int(key)
    return CardReading(corners, "up", rank, None, ANIMAL_NAMES[rank], confidence)
