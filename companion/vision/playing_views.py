"""A playing card's reading from what its views say: the corner reader's probabilities for
its two corner indices and the whole-face reader's for its face (`playing_reading`), or
those of one corner index alone at a few scales (`index_reading`).

The three views are three experts whose rank probabilities are multiplied; what each rule
below adds, and why, is in its docstring and its constant's comment, with the figures
measured for it. `read.CardReader` runs the nets and hands their outputs here. Every
doubt ends as rank None, label "other" or "not a card", never as a guess among 1..5.
"""

from __future__ import annotations

import numpy as np

from .confidence import DOUBT, confidence_of
from .types import NOT_A_CARD, OTHER, SUITS, CardReading

# The nets' rank classes: 0..12 Ace..King (RANK_TEXT), then a back and not a card.
RANK_TEXT: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
BACK_CLASS = 13
NONE_CLASS = 14
GAME_RANKS = range(1, 6)
NON_GAME_FACES = [k for k in range(BACK_CLASS) if k + 1 not in GAME_RANKS]  # 6..King classes
# A game rank is reported only when both its rank and its suit are this likely, all views
# combined (else rank None, "other"). Training used label smoothing, so a sure rank scores
# about SURE_RANK. Measured on 80 rendered tuning scenes (seeds 950,000+) with a first model of
# the whole face: 0.7 read 258 of 281 game cards right from their true outlines, and no
# card, nor any quad of the finders, as a wrong game rank; 0.65 made one such misread.
MIN_RANK_PROBABILITY = 0.7
MIN_SUIT_PROBABILITY = 0.6
SURE_RANK = 0.95  # where a reading's confidence reaches 1 (`confidence_of`)
# A back is reported from this probability up; below it, the quad reads as no card at all.
# Measured on rendered tuning scenes (60 per deck from seed 950,000; 300 empty tables from
# 6,100,000): 1 of 346 playing-card backs read below 0.8, none below 0.65, while phones
# and dark notes on empty tables read as backs at 0.47-0.63. 0.75 since the readers learned
# backs of any design (2026-12-01, models/README.md): on 2,000 tuning tables (seeds
# 4,200,000+) 0.65 and 0.75 read 28,858 and 28,849 of 29,112 cards right with 32 and 28
# phantoms, the same wrong game ranks (6), and nothing on 1,000 empty tables either way.
MIN_BACK_PROBABILITY = 0.75
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
# The whole face's rank, another face from this probability, vetoes the corners' game rank:
# the pips are big, an index small, and a shake smears an "A" into a "2". Found with
# `companion bench vision --real-blur 6` on the real train split: the Ace of hearts of
# IMG_2587, both corners read as a 2 (0.97, 0.95), the whole face an Ace (0.97), was read
# as the 2 of hearts. Measured on the train split (tuning data): shaken by 6 px, 157 ->
# 158 of 195 cards right, Aces 78 -> 79 of 92, game cards read as another 4 -> 3 (at 90
# degrees unchanged); unshaken at every turn and shaken by 3 px unchanged; 600 playing
# tuning tables (4,200,000+, 4,200,300+), 120 heaps (3,100,000+), 100 tables of designed
# backs (4,100,000+) and 100 with jokers (4,900,000+) unchanged. The same from 0.7.
RANK_DISSENT = 0.9
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
# Tried and not kept (2026-12-01): a corner leaning to a 6..King at UNSURE_VIEW stopping
# it too (a 7 of diamonds, its right half under a 9, read as the 4 its four pips in sight
# make, its corner reading 7 at 0.72): on 2,000 tuning tables (seed 4,200,000+) a wrong
# game rank fewer (7 -> 6) for 11 cards fewer read right, and 4 fewer on 600 more.
WHOLE_SURE = 0.95
# Nor may it where one corner reads a 6..King from this probability and the other some
# face too (`_indices_name_another_card`): both indices speak against the pips in sight.
# Found on a playing tuning row table (4,400,025): a 6 of diamonds, its top under a 10,
# its three pips in sight read as a 3 at 0.96, its corners a 6 at 0.80 and an Ace at
# 0.72, was read as the 3 of diamonds at 0.99. Measured through the default finder
# (models/README.md, "Fifty-first stop"): on 2,000 playing tuning tables (4,200,000+)
# wrong game ranks 5 -> 4 and game cards on no card 6 -> 5, on 250 tuning row tables
# (4,400,000+) wrong game ranks 3 -> 2; cards right 28,923 -> 28,922 of 29,112 and on
# the rows 3,014 -> 3,015 of 3,150; heaps, jokers, designed backs and the real train
# split at every turn, as photographed and at 100 px, read exactly as before.
# A corner's 6..King at 0.75 alone (the other corner blank too) read the tuning sets the
# same but for one row card fewer, and loses a blurred 5 whose index reads as an 8 (the
# tests' case); at 0.6, 7 cards fewer right for one error fewer.
SIX_TO_KING_INDEX = 0.75
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
# Two corners read as different faces: the sure one wins only against an unsure one.
SURE_VIEW = 0.9
UNSURE_VIEW = 0.6
# A card seen steeply, read turned, whose two corners read two ranks, is the game card its
# whole face names for sure only where a corner leans to that rank at this probability or
# more (`whole_face_confirms`). Measured on the retries of 300 tuning card scenes
# (4,200,000+) and 100 row tables (4,450,000+): 139 quads whose corners disagreed read
# right by the whole face alone, none wrong, 82 of them with a corner at this floor, and
# every card those tables gained keeps a corner at it. But on 2,000 tuning card scenes,
# without the corner's say, 14 cards more were read right and 5 game cards wrong (a quad
# on part of a 2 read as an Ace, a 6..King's pips as a 4, a 4 of spades as clubs), each
# with no corner reading the whole face's rank, or one reading it at 0.20 to 0.21; with
# it, 11 more and none wrong.
TURNED_CORNER = 0.4
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
    (`SUIT_DISSENT`): spades and clubs are hard to tell on a small index, not on the pips;
    nor, sure of it, another face (`RANK_DISSENT`): a shaken "A" reads as a "2".
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
    if k + 1 in GAME_RANKS and _rank_dissents(whole_rank, k):
        return k, 0.5 * p, suits  # the pips' count speaks against the corners'
    if k == BACK_CLASS or _names_game_card(k, p, suits):
        return k, p, suits
    return _whole_face_lead(rank_p, whole_rank, whole_suit, suits, p) or (k, p, suits)


def covered_back(rank_p: np.ndarray, whole_rank: np.ndarray) -> tuple[float, int] | None:
    """How surely a card's views show a back one corner of which lies under something,
    and which corner that is (0, 1: `rank_p`'s rows): the whole face and one corner read
    a back at SURE_VIEW or more, the other corner neither a back nor a face at UNSURE_VIEW
    (a neighbour's print, or its plain paper). The confidence is the geometric mean of
    the two sure views'; None where the views show no such back.

    Why: the three views' geometric mean (`_combine_views`) takes the covered corner's
    near-nothing for a back as a veto, so such a back reads as no card at all, or as an
    unsure face: tuning card scene 4,200,877, a back 150 px long, a corner under an 8 of
    diamonds, read a back at 0.96 and 0.93 and an unsure 2 at 0.30 (`fusion.covered_backs`
    says where it stands)."""
    if int(whole_rank.argmax()) != BACK_CLASS or whole_rank[BACK_CLASS] < SURE_VIEW:
        return None
    top = rank_p.argmax(axis=1)
    backs = [v for v in (0, 1) if top[v] == BACK_CLASS and rank_p[v, BACK_CLASS] >= SURE_VIEW]
    if len(backs) != 1:
        return None
    other = 1 - backs[0]
    if top[other] == BACK_CLASS or (top[other] < BACK_CLASS and rank_p[other].max() >= UNSURE_VIEW):
        return None
    return float(np.sqrt(rank_p[backs[0], BACK_CLASS] * whole_rank[BACK_CLASS])), other


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


def _indices_name_another_card(rank_p: np.ndarray) -> bool:
    """Whether one corner reads a 6..King at SIX_TO_KING_INDEX and the other shows some
    face too: a card whose pips are partly under a neighbour (a 6 showing three), whose
    indices both say it is not what the pips in sight count."""
    top = rank_p.argmax(axis=1)
    return any(
        top[v] in NON_GAME_FACES
        and rank_p[v, top[v]] >= SIX_TO_KING_INDEX
        and top[1 - v] < BACK_CLASS
        for v in (0, 1)
    )


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


def _rank_dissents(whole_rank: np.ndarray, k: int) -> bool:
    """Whether the whole face reads, at RANK_DISSENT or more, a face other than class `k`."""
    seen = int(whole_rank.argmax())
    return seen != k and seen < BACK_CLASS and whole_rank[seen] >= RANK_DISSENT


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


def playing_reading(
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
    confidence = confidence_of(
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
    sure (`SURE_VIEW`) of another face, the indices do not both name another card
    (`_indices_name_another_card`), and no corner leans (`UNSURE_VIEW`) to another suit: a
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
    if _corner_reads_another_face(rank_p, k, SURE_VIEW) or _indices_name_another_card(rank_p):
        return False
    suit = int(whole_suit.argmax())
    return not any(suit_p[v].argmax() != suit and suit_p[v].max() >= UNSURE_VIEW for v in (0, 1))


def whole_face_confirms(
    reading: CardReading, rank_p: np.ndarray, whole_rank: np.ndarray, whole_suit: np.ndarray
) -> bool:
    """Whether the whole face names `reading`'s game card too, sure of its rank
    (`WHOLE_LEADS`) and of its suit (`WHOLE_SURE`), while a corner leans to that rank
    (`TURNED_CORNER`).

    Why: a card seen steeply is read turned by 90° (`read.CardReader._retry_sideways`),
    and such a card is small, so its two corner indices often read two ranks; a quad over
    two cards, which that retry must not read as one, shows no one card's whole face. The
    corner's say keeps out a quad on part of a card, whose one pip in sight is an Ace's
    face, or whose pips in sight count another rank: measured in `TURNED_CORNER`'s comment.
    """
    if reading.rank is None or reading.suit is None:
        return False
    k, s = reading.rank - 1, SUITS.index(reading.suit)
    if int(whole_rank.argmax()) != k or whole_rank[k] < WHOLE_LEADS:
        return False
    if int(whole_suit.argmax()) != s or whole_suit[s] < WHOLE_SURE:
        return False
    return any(int(rank_p[v].argmax()) == k and rank_p[v, k] >= TURNED_CORNER for v in (0, 1))


def index_reading(rank_p: np.ndarray, suit_p: np.ndarray, corners: np.ndarray) -> CardReading:
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
    confidence = confidence_of((p, INDEX_RANK, SURE_RANK), (q, INDEX_SUIT, 1.0))
    return _game_card(corners, k, s, confidence)


def _game_card(corners: np.ndarray, k: int, s: int, confidence: float) -> CardReading:
    """The reading of the game card of rank class `k` and suit `s`."""
    return CardReading(corners, "up", k + 1, SUITS[s], f"{RANK_TEXT[k]} of {SUITS[s]}", confidence)
