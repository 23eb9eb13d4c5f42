"""The default card finder: both finders, and the better reading of each card.

Why both: each finder loses cards the other finds. The edge finder (detect.py) places
corners to a pixel but loses white cards on white cloth, cards on gingham and carpet, and
some of those a hand or a neighbour touches; the learned segmenter (segment.py) finds those
but its corners are looser and it makes stray blobs on unseen clutter. Run together, and
with the reader choosing, they read more cards right than either alone, on rendered tables
and on the real photos, with fewer phantoms than the edge finder (models/README.md).

How they are joined:
- the learned finder looks first. Where every card it found is settled (a game rank, a
  back, a 6..King read at `SETTLED` or more) and the net sees no card that those readings
  do not explain (`_in_doubt`), that is the table, and the edge finder (a third of the
  frame's time) does not run: on 45% of 200 rendered playing tuning tables and 75% of
  200 animal ones (the real train split read as before) it reads 2,804 of 2,936 playing
  cards right (2,805 before), and one animal card of 2,916 fewer (since the reader reads
  small 6..Kings for sure, on 56% of those playing tables). Otherwise both
  finders' quads are read as below, and a quad the first look read is not read again;
- where the net sees no card under an edge quad (`NET_AGREES`), only a face read for sure
  counts, or a back read surer still (`BACK_WITHOUT_NET`): a tile of the table, a phone or
  a note that made a clean outline is not card to the net, and reads at best as an unsure
  face or a back; the net, though, misses some big cards of close-up photos that the
  reader reads for sure, and some backs whose pattern it takes for the table;
- where the first look leaves card unexplained, the learned finder's net also looks again
  at that part of the frame, enlarged (`_zoomed`, `ZOOM`): cards it saw too small to
  outline; a card only this second look found must read for sure, or a game card at
  `ZOOM_GAME`;
- every quad of both finders is read; a card found by both is read twice, and the reading
  the reader stands by more wins (a face or a back before "other", then confidence). Where
  both finders placed the same sides (`TWIN`) and the edge quad reads sure, the learned
  twin is not read again: it would read the same (about a quarter of the reading time);
  nor is an edge quad whose learned twin the first look read for sure;
- a learned quad is placed on the card's edges from a rough rectangle, and placing can
  lock on a neighbour's edge or a printed frame: where it reads no card for sure (a face,
  6..Kings too, or a back), the rough rectangle is read too, and the better of the two
  stands for that card;
- where neither reads sure and the quad does not lie half on a card read sure
  (`INSIDE_SURE`), both are read again with each side moved in or out a little
  (`SIDE_SHIFTS`, `_side_search`): a side locked on a neighbour's edge or out on the
  table moves back onto the card. Only the finders' last look searches so (on rendered
  tables about 11 ms more per frame on average, all of it in frames in doubt), and a
  moved quad stands only for a face read for sure, and for a game card only where the
  card's readings agree on it (`MOVED_AGREEING`);
- a learned quad nearer square than a card (`FRAGMENT_ASPECT`) is also read grown past
  each side to a card's shape (`geometry.card_shaped`): the net saw part of the card;
- a learned quad still unsure after that is cut in two across its long sides, and where
  both halves read a card for sure they stand for it (`_split_pairs`): two cards lying
  side by side, touching, outlined as one; else its two ends as wide as a card, where
  both read a face for sure: two such cards overlapping;
- a reading of the learned finder alone that says neither a game card nor a sure face or
  back (`LEARNED_ALONE_FLOOR`) is dropped: that is what its stray blobs read as.
The edge finder's own overlapping quads, and the learned finder's, are each finder's own
decisions (two overlapping cards); only a reading of one finder and a reading of the other
can be the same card.

Playing cards are also looked for by their corner index alone (corner_index.py): a card
fanned under another or cut by the picture's edge has no outline either finder closes.
The index search runs only where the net sees card that no card read for sure explains
(`_unexplained`; on a table where every card was read, never). An index read for sure
(`read.CardReader.read_index`: a game card, or a 6..King as "other") adds its card where
no card read for sure (`SURE_ENOUGH`) holds that index (`_index_cards`); a reading that
holds it but reads an unsure face (a quad spanning two cards), or a game rank less surely
than the index reads another, gives way to it, as does the same rank read less surely on
the same card (`_gives_way`). An index whose implied card reads nothing is read again at the
size of the nearest face read for sure, and of one index read from several hits the card
sized so comes first (`_face_sizes`): one deck's cards lie at one size. One that reads
nothing either way is read with its middle moved by half a patch (`INDEX_SHIFTS`): the
net can mark the suit under the rank as the middle. An index in the
middle of a card read for sure, away from its corners (`INDEX_CORNER`), is another card's:
a game card read from it for sure stands beside that card (`_hits_to_read`). On the real
photos' train split this reads 171 of 195 labelled cards right instead of 137 (Aces 89 of
92 instead of 69), with no 9..King read as a game card and no game card read as another.

Last, in a frame in doubt, the card pixels of the net that no reading covers are read as
rectangles (`_outlined_parts`): a card the net sees but finds no core in (small, blurred,
on a busy cloth), which no finder outlines, stands where its rectangle, as it is or grown
to a card's shape, reads a face for sure. And a reading the reader does not stand by,
lying mostly on a card read for sure, is part of that card and is dropped, as is one not
read for sure lying mostly on a card read so and much larger (`_without_parts`).

`read_cards(image, reader)` does it all (`CardPipeline` calls it); `find_candidates` (both
finders at once, as training uses them) and `pick_readings` are its two halves.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from .corner_index import IndexHit, find_indices
from .decks import PLAYING_CARDS
from .detect import as_bgr, find_cards
from .geometry import (
    card_shaped,
    fanned_ends,
    halves,
    near_corners,
    order_clockwise,
    points_in_any,
    points_in_quad,
    quad_area,
    quad_aspect,
    quad_cover,
    quad_extent,
    quad_iou,
    quad_sides,
    side_moved,
)
from .read import NOT_A_CARD, CardReader
from .segment import (
    CARD_LEVEL,
    STRIDE,
    CardMaps,
    card_maps,
    net_input,
    part_rectangles,
    place_quads,
    rough_quads,
)
from .types import CardReading

# The net agrees with an edge quad when its mean card probability inside reaches this.
# Measured on tuning data (100 empty tables from seed 6,100,000, 60 scenes per deck from
# 960,000, the real train split): edge quads below it read as a back (0.26-0.87) or an
# unsure face (at most 0.24) on empty tables and scenes, never as a game rank; on the real
# photos 6 of them were Aces read at 0.96-1.0.
NET_AGREES = 0.3
# An edge quad the net does not agree with may stand for a back read this surely. On 300
# empty tuning tables (seed 6,100,150+) such quads read as a back at 0.72 at most (animal
# deck; none with the playing deck), while rendered backs the net took for the table read
# at 0.91-0.95: on 200 playing tuning scenes 2,813 -> 2,816 cards right, no phantom more;
# the animal scenes and the real train split unchanged.
BACK_WITHOUT_NET = 0.9
# Two readings, one of each finder, whose quads overlap this much (IoU) are one card.
SAME_CARD = 0.3
# A learned-only reading without a game rank is kept from this confidence up. On the real
# photos its stray blobs read as "other" or "back" at 0.02-0.38 (44 of 52 strays).
LEARNED_ALONE_FLOOR = 0.35
# Card the net sees that no card read explains, at least this fraction of the frame, puts
# the frame in doubt (`_in_doubt`), and the corner indices are looked for only where
# there is such card. 0.001 (a third of a 60-pixel card's area in a 1280x720 frame) left
# small cards the net sees faintly (a 55-pixel bear, half its pixels card to the net)
# unexplained, the frame not in doubt and the card unread. With 0.0004, on the tuning
# sets: playing 2,871 -> 2,875 and 2,860 -> 2,861 (2,856 -> 2,857 on 200 more scenes from
# seed 960,500), animals 2,873 -> 2,876 (2,851 -> 2,855 on 200 more from 950,300); no
# wrong game rank nor phantom more; the empty tables, the real train split and the fans
# unchanged; the median frame about the same, frames 2-4 ms slower on average. 0.0002:
# 2 playing cards more for 8 ms more per frame on average.
UNEXPLAINED = 0.0004
# A corner index whose card reads nothing is read again implying a card at the size of the
# nearest face read for sure, where that differs from the size it implied by this fraction
# or more (`_index_cards`, `_face_sizes`). Measured (2026-11-30, nineteenth stop): the real train
# split 176 -> 177 of 195 (the Ace of clubs fanned under a King, IMG_2635, whose index
# implied a card a tenth too small: read at 1.0; Aces 91 of 92), stray readings 6; playing
# tuning scenes 2,896 -> 2,897 (960,100+), the others unchanged; 120 close-up heaps
# unchanged. Sized after the nearest face rather than all of them (their median): the
# faces of a heap are often quads of the part of a card that shows, and a card seen
# under a tilted camera is smaller at the far edge (with their median, and every hit
# resized, not only those that read nothing: 1 card fewer on two playing sets).
RESIZED = 0.05
# A card's corner indices lie within this fraction of its width from a long side and of
# its length from a short side (generous: a loose quad). An index a card read for sure
# holds elsewhere is another card's (`_hits_to_read`), and a game card read from it at
# SURE_ENOUGH stands beside that card. Measured (2026-11-30, nineteenth stop): the
# tuning heaps 101 -> 103 of 121 game cards (a 5 of spades whose index a loose quad over
# a Jack held; an Ace of diamonds), faces 245 -> 247; the playing tuning sets, 150 empty
# tables and the real train split unchanged. Standing for any face read from it, and the
# card holding it giving way as an unsure one does: heaps +3 game cards, but a 9 read
# twice (a phantom) on the tuning sets and a stray reading more on the real train split.
INDEX_CORNER = (0.3, 0.35)
# Of one index read from several hits (the same card), the card sized most like the nearest
# face read for sure stands, misfits within MISFIT_STEP of each other alike (a face's own
# quad can be that far off), then the surest. With the index reader (read.INDEX_MODEL),
# which reads hits' patches however they are sized, the surest alone reported an Ace
# fanned under a 9 (tests/vision/test_corner_index.py) 1.3 times its size; the misfit
# alone, without steps, placed the Ace of hearts of the real train photo IMG_2617 a tenth
# off its label (the real train split: 179 of 195 right with the surest alone, 178 with
# the misfit alone, 179 with steps; the tuning sets the same with all three).
MISFIT_STEP = 0.1
# An index that reads nothing where its hit lies, nor at its neighbour's size, is read
# again with its middle moved by half a patch in each of 8 directions (across the card's
# short side, along its long side: `IndexHit.moved`): the net can mark a middle as far
# off as the suit under the rank. A moved hit's card comes after every other reading of
# that index (`_index_cards`' order): on the real train split, an Ace of diamonds read
# from a moved hit first stood 20 px off its label. Measured (2026-11-30, twentieth stop):
# tuning heaps 247 -> 254 of 328 faces, 103 -> 105 of 121 game cards (a 5 of clubs and a
# 3 of spades whose index's middle was marked on the suit); playing tuning sets 2,897 ->
# 2,898, 2,891 -> 2,892, 2,885 -> 2,886 (three 5s of clubs, wrong game ranks and
# phantoms unchanged); the real train split 179 -> 180 (a Queen), Aces 91/92 and strays
# unchanged; 150 empty tables none. Only hits on no card the reader stands by (SURE) are
# moved: those a card read at 0.5 to 0.9 holds are its own print. Moving those too read
# a 6..King more on the heaps for twice the patches (54 instead of 28 per frame on
# average over 40 tuning tables, 14 without moving); keeping only the surest hit of those
# within a quarter card of each other lost both game cards.
INDEX_SHIFTS = [(a, b) for a in (-0.5, 0.0, 0.5) for b in (-0.5, 0.0, 0.5) if a or b]
# The index finder looks at the unexplained card pixels' box widened by this many pixels
# of its input on every side (what the net needs to see around an index).
INDEX_CONTEXT = 64
# A 6..King read by the learned finder at this confidence or more needs no second finder
# (`_in_doubt`). A 9 fanned over an Ace, outlined as one quad, read as a face at 0.53
# (the Ace, read from its index, was lost at 0.5). On 200 tuning scenes (seed 960,100),
# 0.5, 0.75 and 0.9 left the edge finder out on 52%, 45% and 33% of the frames, with 2,805,
# 2,804 and 2,804 cards read right.
SETTLED = 0.75
# Where card is left unexplained, the learned finder's net looks again at that part of the
# frame scaled by ZOOM (a 1280x720 frame is first seen at 0.325: a 60-pixel card 20 net
# pixels long, 30 at 0.5, as in its training crops), where that enlarges it by ZOOM_GAIN
# or more. A card found so only is kept where read at SURE_ENOUGH, game cards too: the
# second look makes stray blobs on unseen textures, which read as backs at 0.66-0.75
# (with the first look's floor, 3 more phantoms on 200 animal tuning scenes, 3 more stray
# readings on the real train split), and a quad half on an Ace half on the table read as
# a second Ace at 0.5 (a real train photo). Measured on tuning data: playing cards 2,820
# -> 2,836 of 2,936 right (seed 960,100+) and 2,804 -> 2,822 of 2,919 (960,300+), animals
# 2,849 -> 2,870 of 2,916, mostly cards under 60 pixels; wrong game ranks, phantoms on
# those scenes and on 150 empty tables, the real train split and 16 of 18 rendered fans
# unchanged. With game cards kept from 0.5 like the first look's (and 64 pixels of
# context): 2,836, 2,824 and 2,868 right.
ZOOM = 0.5
ZOOM_GAIN = 1.3
# The second look sees the unexplained card's box this many net input pixels wider on
# every side (the index finder needs `INDEX_CONTEXT`, 64): on the same tuning data, with
# 64, 1 playing card and 4 animal cards fewer, and 2 ms more per frame in doubt on average.
ZOOM_CONTEXT = 32
# A reading the reader stands by (read.py: every game rank, a 6..King read clearly).
SURE = 0.5
# A learned card read as a face (6..Kings too) or a back at this confidence is not read a
# second time from its rough rectangle; an edge quad read so sure is not read again from
# its twin.
SURE_ENOUGH = 0.9
# A learned quad overlapping an edge quad the net agrees with this much (IoU) is its twin:
# both finders placed the same card's sides on the same edges. On tuning scenes (40 per
# deck) 350 of about 560 learned quads were twins, and a twin read otherwise than its
# edge quad only where the edge quad's reading was not sure (12 of 350).
TWIN = 0.9
# A placed quad read unsure, and the rough rectangle it was placed from, are read again
# with each of their sides moved by these fractions of the distance to the opposite side
# (inwards where positive: `geometry.side_moved`). Placing snaps a side to the strongest
# edge near the rough rectangle's, which can be a neighbour's edge or the table's pattern;
# the true quad of 32 of the 37 cards 60 px and longer still not read right on 200 playing
# tuning scenes (seed 960,100) reads right. Measured on tuning data, the placed quad's
# sides alone (that set, 200 more from 960,300): 2,864 -> 2,871 and 2,844 -> 2,860 cards
# right, wrong game ranks and phantoms unchanged; the animals' 200 scenes, 150 empty
# tables and 18 rendered fans unchanged; the real train split 172 -> 175 (Aces and strays
# unchanged). Also tried: (0.05, 0.1, 0.15, -0.05), 1 right card more and 2 phantoms more;
# moved quads read as backs too, a strip of a back read as a back (a phantom); a game card
# from one moved quad alone, 1 wrong game rank more (a blurred 4 of clubs read as spades
# at 0.98 by one moved quad, as clubs by others: hence the agreement asked of a game
# card); searching quads already read as a sure 6..King too, 1 card more per set for 6 ms
# more per frame on average; the first look searching too, frames three times slower. The
# rough rectangles' sides moved too (24 quads a card, not 12): 2,875 -> 2,878, 2,861 ->
# 2,864 and 2,857 -> 2,861 (200 more from 960,500), animals +1 and +1, wrong game ranks,
# phantoms, empty tables, the real train split and the fans unchanged, 5 ms more per frame
# on average.
SIDE_SHIFTS = (0.06, 0.12, -0.06)
# Two cards lying side by side, touching along a long side, can be outlined as one quad
# of about 10:7, which reads as no card for sure: a learned quad still unsure after the side
# search (and not mostly on a card read for sure) is cut in two across its long sides
# (`geometry.halves`), and where both halves read a card, a face or a back, at
# SURE_ENOUGH, they stand for it (`_split_pairs`). Three cards in a column before each
# seat is how this game is played. Measured on the playing tuning sets (200 scenes each
# from seeds 960,100, 960,300 and 960,500): 2,887 -> 2,892, 2,880 -> 2,887 and 2,877 ->
# 2,883 cards right, with 3, 8 and 3 quads split; wrong game ranks and phantoms as before;
# the animal sets (no quad split there), 150 empty tables, the real train split and 18
# rendered fans unchanged. Where the halves do not both read, the quad's two fanned ends
# (`geometry.fanned_ends`: two cards lying across it, overlapping) stand where both read a
# face at SURE_ENOUGH (2026-11-30, eighteenth stop): playing 2,894 -> 2,896 (an Ace of
# diamonds under a 3 of spades, seed 960,210), 2,888 -> 2,890, 2,885 -> 2,885, animals
# unchanged, nothing else changed. Backs too: a back half under a sleeve read as two
# backs (animals 2,881 -> 2,880).
# An enrolled deck's game card read by the side search, or by a split pair's halves or
# ends, stands from this confidence (any other face from SURE_ENOUGH): its reader names a
# card from the whole card, and a partly covered or small animal card read from a moved
# quad reads at 0.54-0.74 from its true outline too. Measured (2026-11-30, eighteenth
# stop), the side search: animals 2,890 -> 2,893 and 2,881 -> 2,883, no wrong game rank
# nor game card on no card, the empty tables unchanged (at 0.65, a game card on no card
# more); then the split pairs: 2,893 -> 2,893 and 2,883 -> 2,885, the same. For playing
# cards, in the side search at 0.75: 1, 5 and 0 tuning cards more, but on the real train
# split an Ace read at 0.76 from a moved quad took the place of the King it lay under
# (176 -> 175): playing cards keep SURE_ENOUGH.
MOVED_GAME = 0.75
# A game card read from a moved quad where other readings of that card name another game
# card (at SURE) stands only where this many of its readings name it for sure
# (SURE_ENOUGH) and more name it than any other: a blurred 4 of clubs read as spades at
# 0.98 by one moved quad, as clubs by others, stays unread, but a 5 of clubs read at 0.999
# and 1.0 by two moved quads against a 5 of spades at 0.5 by a third is read. Measured
# (2026-11-30, twentieth stop; before, any other game card named vetoed): playing tuning
# cards 2,898 -> 2,898, 2,892 -> 2,893, 2,886 -> 2,887, wrong game ranks 1, 2, 1 -> 1, 1,
# 1 (a 3 of spades read as clubs at 0.5 read right); animals, the real train split, the
# heaps and the empty tables unchanged. One sure reading against two at 0.5 is not enough:
# a 3 of hearts 55 px long, read as hearts at 0.5 twice and as diamonds at 0.95 once.
MOVED_AGREEING = 2
# A quad with this fraction of its area or more on a quad read for sure is part of that
# card, not searched: moved, the second look's small quad on a 4 of hearts (held-out
# scene 5,000,091) held one pip and read as an Ace of hearts at 1.0. On the tuning sets
# above nothing else changed (the same scenes, card for card, as an edge quad read for
# sure overlapping it at SAME_CARD). A reading below SURE with this fraction of its area on
# a card read for sure is dropped (`_without_parts`: a strip of a back read as a back, an
# unsure face on a corner of a card). Measured on the tuning sets listed below, with the
# searches below in place: phantoms 4 -> 3 and 3 -> 2 (animals), 0 -> 0, 1 -> 0 and 6 -> 5
# (playing), the real train split's stray readings 9 -> 7, nothing read right lost, the
# empty tables and the fans unchanged; at 0.3, the same.
INSIDE_SURE = 0.5
# A reading below SURE_ENOUGH lying mostly (INSIDE_SURE) on a card read for sure that is
# at least 1 / PART_SIZE times its size is a piece of that card (`_without_parts`): a
# quad on one pip of a 10 of clubs, of a 5 of spades, read as the Ace of clubs at
# 0.50-0.57 (the whole face of an Ace is one pip) in close-up heaps of cards. Cards of one
# deck lie at one size; a card's index read on a card over it (`_index_cards`) is
# reported whole, at that size, and stays. Measured (2026-11-30, nineteenth stop) on 120
# rendered close-up heaps (seeds 3,100,000+, `layout="pile"`, 328 faces with an index in
# sight, 121 of them game cards): game cards read on no card or as another 4 -> 1, game
# cards read right 92 -> 92, faces 232 -> 231 (a 6..King read at 0.74 on a loose quad of
# two cards); on the tuning sets phantoms 5 -> 4 (playing, 960,500), 3 -> 2 and 7 -> 4
# (animals), the real train split's stray readings 7 -> 6, nothing read right lost.
PART_SIZE = 0.6
# Three searches for cards the finders outline badly or not at all (2026-11-30, the
# eighteenth stop), measured together on the tuning sets (the default pipeline; playing
# 200 scenes each from seeds 960,100 / 960,300 / 960,500, animals 200 each from 950,100 /
# 950,300, 150 empty tables from 6,100,000, the real train split, 18 rendered fans):
# playing 2,892 -> 2,894, 2,887 -> 2,888, 2,883 -> 2,885 cards right, animals 2,886 ->
# 2,890 and 2,878 -> 2,881; wrong game ranks, game cards on no card, phantoms and the
# empty tables unchanged; the real train split 175 -> 176 (Aces 90/92, 9 stray readings,
# both); fans 16/18 both. Time, 100 tuning tables per deck read alternately in one
# process: median 43.1 -> 42.8 ms (playing), 26.1 -> 26.3 (animals); mean 80.3 -> 82.1 and
# 48.0 -> 49.7 (all of it in frames in doubt).
# - A learned quad nearer square than FRAGMENT_ASPECT is searched grown to a card's shape
#   too (`_moved_quads`): a lynx 161 px long half under a wolf (seed 950,205), outlined
#   over the part that shows, reads "other" without it. Alone: animals +1, +1, playing
#   +0, +0, +1.
FRAGMENT_ASPECT = 1.3
# - A game card found by the second look only stands from ZOOM_GAME (any other reading
#   from SURE_ENOUGH). Alone: animals +1, +2, playing +1, +0, +0. At 0.5, two game cards
#   on no card more (quads on part of a card) and a stray reading more on the real train
#   split; at 0.7, 2 animal cards fewer than at 0.6.
ZOOM_GAME = 0.6
# - Card pixels of the net that no reading covers, in parts of PART_AREA net pixels or
#   more (a card 45 px long is about 150 at 0.325), are read as rectangles
#   (`_outlined_parts`); one that reads a face for sure, lying on no card read (less
#   than PART_OVERLAP of either's area), is a card. Alone: animals +2, +0, playing +1,
#   +1; the real train split's one card more.
PART_AREA = 60
PART_OVERLAP = 0.3


@dataclass(frozen=True)
class Candidates:
    """Quads to read: the edge finder's, whether the net sees card under each, the learned
    finder's placed quads (its second look's last) and the rough rectangle each was
    placed from; the net's maps and the scaled frame they came from (for the corner-index
    search)."""

    edges: list[np.ndarray]
    net_agrees: list[bool]
    learned: list[np.ndarray]
    rough: list[np.ndarray]
    maps: CardMaps | None = None
    net_image: np.ndarray | None = None  # the frame as the nets see it (`segment.net_input`)
    zoomed: int = 0  # the last `zoomed` learned quads are the second look's (`_zoomed`)

    @property
    def quads(self) -> list[np.ndarray]:
        """The quads read first: the edge finder's and the learned finder's placed ones."""
        return self.edges + self.learned


def read_cards(image: np.ndarray, reader: CardReader) -> list[CardReading]:
    """Every card in `image` (BGR uint8), read by `reader`: found by the learned finder,
    where it leaves doubt by the edge finder too (`_in_doubt`), and for a playing deck by
    its corner index."""
    colour = as_bgr(image)
    found = _learned_candidates(colour)
    known: dict[bytes, CardReading] = {}
    kept = _read_found(image, reader, found, known) if found.quads else []
    if not _in_doubt(found, kept):
        return kept
    found = _with_edges(colour, _zoomed(colour, found, kept))
    kept = _read_found(image, reader, found, known, search_sides=True) if found.quads else []
    region = _unexplained(found, kept) if reader.deck.kind == PLAYING_CARDS else None
    if region is not None and found.maps is not None and found.net_image is not None:
        hits = find_indices(found.net_image, found.maps.sx, found.maps.sy, region)
        kept = _index_cards(image, reader, hits, kept)
    return _without_parts(_outlined_parts(image, reader, found, kept))


def _in_doubt(found: Candidates, kept: list[CardReading]) -> bool:
    """Whether the learned finder's readings leave doubt, so that the edge finder must look
    too: one that is not `_settled` at `SETTLED` (a game rank, a back, or a 6..King read
    at SETTLED or more), or card seen by the net that none of them explains."""
    if not all(_settled(reading, SETTLED) for reading in kept):
        return True
    return _unexplained(found, kept, SETTLED) is not None


def _read_found(
    image: np.ndarray,
    reader: CardReader,
    found: Candidates,
    known: dict[bytes, CardReading],
    search_sides: bool = False,
) -> list[CardReading]:
    """One reading per card from the finders' quads; a quad already read this frame
    (`known`) is not read again. With `search_sides`, learned quads still unsure are read
    with their sides moved too (`_side_search`)."""
    readings = _read_quads(image, reader, found, known)
    # A placed quad can lock on a neighbour's edge or a printed frame: where it reads no
    # card for sure, the rough rectangle it was placed from is read too. One read as a
    # 6..King for sure lies on a card's print, and is left as it is (until 2026-12-01 its
    # rough rectangle was read too, which could only name a game card or a back in its
    # place: 5.7 of a settled playing table's 21 quads read). Measured on the tuning sets
    # (playing 200 scenes each from 960,100 / 960,300 / 960,500, animals from 950,100 /
    # 950,300, 150 empty tables, the real train split, 120 heaps): playing 2,898 / 2,893 /
    # 2,887 -> 2,898 / 2,894 / 2,887 cards right (an Ace of diamonds half under a back,
    # scene 960,413), the rest the same but one heap's Ace of diamonds, 11% of it in
    # sight, that the index search left out once its neighbour's quad moved by a pixel.
    # Time, both ways read frame by frame in one process over 100 playing tuning tables:
    # median 29.7 -> 26.4 ms, each frame 7.5% less (median ratio); animal tables, with no
    # 6..Kings, the same.
    doubtful = [
        index
        for index, reading in enumerate(readings[len(found.edges) :])
        if not _reads_sure(reading)
    ]
    alternatives = _read_at(image, reader, found.rough, doubtful, known)
    if not search_sides:
        return pick_readings(found, readings, alternatives)
    alternatives.update(_side_search(image, reader, found, readings, alternatives, known))
    kept = pick_readings(found, readings, alternatives)
    return _split_pairs(image, reader, found, readings, alternatives, kept, known)


def _split_pairs(
    image: np.ndarray,
    reader: CardReader,
    found: Candidates,
    readings: Sequence[CardReading],
    rough: Mapping[int, CardReading],
    kept: list[CardReading],
    known: dict[bytes, CardReading],
) -> list[CardReading]:
    """`kept`, where a learned quad with a rough reading (`rough`, by learned index, after
    the side search) reads no card for sure, placed or rough, and does not lie mostly on a
    card read so (`INSIDE_SURE`), with its two halves (`geometry.halves`) instead where
    both read a card at `SURE_ENOUGH` or an enrolled deck's game card at `MOVED_GAME`, or
    else its fanned ends both a face so (the placed quad first, then the rough rectangle;
    `_sure_halves`), and neither is a card already read for sure. The unsure readings of
    that quad, and of any quad on the same pair (`SAME_CARD`: the edge finder's outline of
    it), give way to the two cards."""
    sure = [r.corners for r in kept if _reads_sure(r)]
    out = list(kept)
    for index in _unsure_learned(found, readings, rough, sure):
        whole = (found.learned[index], found.rough[index])
        pair = _sure_halves(image, reader, whole, known)
        if pair is None or any(
            quad_iou(half.corners, r.corners) >= SAME_CARD
            for half in pair
            for r in out
            if _reads_sure(r)
        ):
            continue
        # the pair's quad, and the edge finder's outline of it, read unsure: not a card
        out = [
            r
            for r in out
            if _reads_sure(r) or not any(quad_iou(r.corners, q) >= SAME_CARD for q in whole)
        ]
        out += pair
    return out


def _unsure_learned(
    found: Candidates,
    readings: Sequence[CardReading],
    rough: Mapping[int, CardReading],
    sure: Sequence[np.ndarray],
) -> list[int]:
    """The learned quads with a rough reading (`rough`, by learned index) that read no card
    for sure, placed (in `readings`, after the edge quads') or rough, and do not lie mostly
    (`INSIDE_SURE`) on one of the `sure` quads: cards whose outline may be off."""
    edge_count = len(found.edges)
    return [
        index
        for index in rough
        if not (_reads_sure(readings[edge_count + index]) or _reads_sure(rough[index]))
        and not _mostly_on(found.learned[index], sure)
    ]


def _sure_halves(
    image: np.ndarray,
    reader: CardReader,
    quads: Sequence[np.ndarray],
    known: dict[bytes, CardReading],
) -> list[CardReading] | None:
    """The readings of the two cards of the first of `quads` whose halves both read a card
    (a face or a back: `_moved_stands`), or else whose fanned ends (`geometry.fanned_ends`)
    both read a face so (a back's pattern fills any part of it: two parts of one back read
    as two backs); None where none does."""
    enrolled = reader.deck.kind != PLAYING_CARDS
    for quad in quads:
        pair = _read_at(image, reader, halves(quad), [0, 1], known)
        if all(_moved_stands(r, enrolled) for r in pair.values()):
            return [pair[0], pair[1]]
        ends = fanned_ends(quad)
        if ends is None:
            continue
        pair = _read_at(image, reader, ends, [0, 1], known)
        if all(r.face == "up" and _moved_stands(r, enrolled) for r in pair.values()):
            return [pair[0], pair[1]]
    return None


def _moved_stands(reading: CardReading, enrolled: bool) -> bool:
    """Whether a reading of a quad the finders did not give (moved, cut) may stand for a
    card: a card read for sure (`_reads_sure`), or for an `enrolled` deck a game card read
    at `MOVED_GAME`."""
    if _reads_sure(reading):
        return True
    return enrolled and reading.rank is not None and reading.confidence >= MOVED_GAME


def _side_search(
    image: np.ndarray,
    reader: CardReader,
    found: Candidates,
    readings: Sequence[CardReading],
    rough: Mapping[int, CardReading],
    known: dict[bytes, CardReading],
) -> dict[int, CardReading]:
    """For each learned quad with a rough reading (`rough`, by learned index) where neither
    that nor its placed reading (in `readings`, after the edge quads') reads a card at
    `SURE_ENOUGH`, and that does not lie mostly on a card read so (`INSIDE_SURE`): the best
    reading of its placed quad or its rough rectangle with one side moved (`SIDE_SHIFTS`),
    or grown to a card's shape where it is a fragment (`_moved_quads`), where one stands.
    It stands where it reads a face at `SURE_ENOUGH` (an enrolled deck's game card at
    `MOVED_GAME`), better than both; a game card only where the readings of that card
    agree on it (`_agreed_game_cards`)."""
    edge_count = len(found.edges)
    enrolled = reader.deck.kind != PLAYING_CARDS
    sure = [r.corners for r in (*readings, *rough.values()) if _reads_sure(r)]
    searched = _unsure_learned(found, readings, rough, sure)
    groups = [_moved_quads((found.learned[index], found.rough[index])) for index in searched]
    moved = [quad for group in groups for quad in group]
    read = _read_at(image, reader, moved, list(range(len(moved))), known)
    better: dict[int, CardReading] = {}
    start = 0
    for index, group in zip(searched, groups, strict=True):
        before = (readings[edge_count + index], rough[index])
        tries = [read[k] for k in range(start, start + len(group))]
        start += len(group)
        agreed = _agreed_game_cards((*before, *tries))
        standing = [
            r
            for r in tries
            if r.face == "up"
            and _moved_stands(r, enrolled)
            and _preference(r) > max(map(_preference, before))
            and (r.rank is None or r.label in agreed)
        ]
        if standing:
            better[index] = max(standing, key=_preference)
    return better


def _agreed_game_cards(readings: Sequence[CardReading]) -> set[str]:
    """The game card that `readings` of one card name (at `SURE`) where none names
    another; or else the one that `MOVED_AGREEING` or more name at `SURE_ENOUGH` and more
    name than any other (none where that is not so)."""
    named = Counter(r.label for r in readings if r.rank is not None and r.confidence >= SURE)
    if len(named) <= 1:
        return set(named)
    (first, votes), (_, runner_up) = named.most_common(2)
    sure = sum(r.label == first and r.confidence >= SURE_ENOUGH for r in readings)
    return {first} if votes > runner_up and sure >= MOVED_AGREEING else set()


def _moved_quads(quads: Sequence[np.ndarray]) -> list[np.ndarray]:
    """What the side search reads for a card outlined by `quads` (placed, rough): each of
    them with one side moved by each of `SIDE_SHIFTS`, then those nearer square than
    `FRAGMENT_ASPECT` grown to a card's shape (`geometry.card_shaped`)."""
    moved = [
        side_moved(quad, side, shift)
        for quad in quads
        for side in range(4)
        for shift in SIDE_SHIFTS
    ]
    return moved + [
        shaped
        for quad in quads
        if quad_aspect(quad) < FRAGMENT_ASPECT
        for shaped in card_shaped(quad)
    ]


def _outlined_parts(
    image: np.ndarray, reader: CardReader, found: Candidates, kept: list[CardReading]
) -> list[CardReading]:
    """`kept`, with a card for each part of the net's card pixels that no reading of
    `kept` covers (`PART_AREA` net pixels or more) whose rectangle, as it is or grown to a
    card's shape (`geometry.card_shaped`), reads a face at `SURE_ENOUGH` lying on no
    card of `kept`: a card the net saw with no core, which no finder outlined."""
    if found.maps is None:
        return kept
    rectangles = part_rectangles(found.maps, _uncovered(found.maps, kept), PART_AREA)
    if not rectangles:
        return kept
    groups = [[rectangle, *card_shaped(rectangle)] for rectangle in rectangles]
    read = reader.read_batch(image, [quad for group in groups for quad in group])
    out, start = list(kept), 0
    for group in groups:
        tries, start = read[start : start + len(group)], start + len(group)
        standing = [
            reading
            for reading in tries
            if _face_read_for_sure(reading)
            and not any(_overlaps(reading.corners, r.corners) for r in kept)
        ]
        if standing:
            out.append(max(standing, key=_preference))
    return out


def _without_parts(readings: list[CardReading]) -> list[CardReading]:
    """`readings` less the pieces of a card read for sure: those the reader does not
    stand by (below `SURE`) lying mostly (`INSIDE_SURE`) on it (a strip of a back, a
    corner of a face), and those below `SURE_ENOUGH` lying mostly on one much larger
    (`PART_SIZE`: one pip of it read as an Ace)."""
    sure = [r for r in readings if _reads_sure(r)]
    quads = [r.corners for r in sure]
    return [
        r
        for r in readings
        if not (r.confidence < SURE and _mostly_on(r.corners, quads))
        and not (r.confidence < SURE_ENOUGH and _piece_of(r, sure))
    ]


def _piece_of(reading: CardReading, sure: Sequence[CardReading]) -> bool:
    """Whether `reading` lies mostly (`INSIDE_SURE`) on another of the `sure` readings at
    least 1 / `PART_SIZE` times its size."""
    size = quad_area(reading.corners)
    larger = [
        other.corners
        for other in sure
        if other is not reading and size < PART_SIZE * quad_area(other.corners)
    ]
    return _mostly_on(reading.corners, larger)


def _mostly_on(quad: np.ndarray, cards: Sequence[np.ndarray]) -> bool:
    """Whether `INSIDE_SURE` of `quad`'s area or more lies on one of `cards`."""
    return any(quad_cover(quad, card) >= INSIDE_SURE for card in cards)


def _overlaps(quad: np.ndarray, card: np.ndarray) -> bool:
    """Whether `quad` and `card` overlap by `PART_OVERLAP` of the area of either."""
    return max(quad_cover(quad, card), quad_cover(card, quad)) >= PART_OVERLAP


def _uncovered(maps: CardMaps, readings: Sequence[CardReading]) -> np.ndarray:
    """The net's card pixels (uint8 mask) that none of `readings` covers, eroded by a pixel:
    a found card's outline leaves a sliver of card pixels around it."""
    card = (maps.card > CARD_LEVEL).astype(np.uint8)
    for reading in readings:
        maps.fill(card, reading.corners, 0)
    return cv2.erode(card, np.ones((3, 3), np.uint8))


def _reads_sure(reading: CardReading) -> bool:
    """Whether `reading` says a card (a face or a back) at `SURE_ENOUGH` or more."""
    return reading.label != NOT_A_CARD and reading.confidence >= SURE_ENOUGH


def _unexplained(
    found: Candidates,
    kept: list[CardReading],
    floor: float = SURE_ENOUGH,
    context: int = INDEX_CONTEXT,
) -> tuple[int, int, int, int] | None:
    """Where the net sees card (`UNEXPLAINED` of the frame at least) that no card read for
    sure covers (`_settled` at `floor`): only there can a card lie whose outline no finder
    closed. The box (x0, y0, x1, y1) of the net's input around it, `context` pixels wider
    on every side and on the net's grid (`STRIDE`); None where every card seen was read."""
    if found.maps is None or found.net_image is None:
        return None
    card = _uncovered(found.maps, [reading for reading in kept if _settled(reading, floor)])
    if int(card.sum()) < UNEXPLAINED * card.size:
        return None
    x, y, w, h = cv2.boundingRect(card)
    height, width = found.net_image.shape[:2]
    x0, y0 = (max(0, v - context) // STRIDE * STRIDE for v in (x, y))
    x1 = min(width, -(-(x + w + context) // STRIDE) * STRIDE)
    y1 = min(height, -(-(y + h + context) // STRIDE) * STRIDE)
    return x0, y0, x1, y1


def _read_quads(
    image: np.ndarray, reader: CardReader, found: Candidates, known: dict[bytes, CardReading]
) -> list[CardReading]:
    """One reading per quad of `found.quads`. A learned quad that is an edge quad's twin
    (`_edge_twins`) is read only where that edge quad's reading is not sure; otherwise it
    shares it (both would read the same). The other way round, an edge quad whose learned
    twin was read for sure earlier this frame (`known`: the first look's) shares that
    reading: 2.5-3% less time per frame on average on the tuning tables (both ways frame
    by frame in one process), the same cards read right, and a 6..King two-thirds in
    sight read besides."""
    edge_count = len(found.edges)
    twins = {edge_count + j: e for j, e in _edge_twins(found).items()}
    read_before = _twins_read_before(found, twins, known)
    first = [i for i in range(len(found.quads)) if i not in twins and i not in read_before]
    read = _read_at(image, reader, found.quads, first, known)
    read.update(read_before)
    unsure = [index for index, e in twins.items() if _preference(read[e]) < (True, SURE_ENOUGH)]
    read.update(_read_at(image, reader, found.quads, unsure, known))
    for index, e in twins.items():
        read.setdefault(index, read[e])
    return [read[index] for index in range(len(found.quads))]


def _twins_read_before(
    found: Candidates, twins: Mapping[int, int], known: Mapping[bytes, CardReading]
) -> dict[int, CardReading]:
    """For each edge quad (by index in `found.quads`) whose learned twin (`twins`: learned
    index -> edge index) reads a card for sure in `known`, that reading."""
    out: dict[int, CardReading] = {}
    for index, e in twins.items():
        earlier = known.get(found.quads[index].tobytes())
        if e not in out and earlier is not None and _reads_sure(earlier):
            out[e] = earlier
    return out


def _read_at(
    image: np.ndarray,
    reader: CardReader,
    quads: Sequence[np.ndarray],
    indices: list[int],
    known: dict[bytes, CardReading],
) -> dict[int, CardReading]:
    """The readings of `quads[i]` for each i of `indices`, those not in `known` (by their
    corners: read earlier this frame) in one batch, then known too."""
    new = [index for index in indices if quads[index].tobytes() not in known]
    batch = reader.read_batch(image, [quads[index] for index in new])
    for index, reading in zip(new, batch, strict=True):
        known[quads[index].tobytes()] = reading
    return {index: known[quads[index].tobytes()] for index in indices}


def find_candidates(image: np.ndarray) -> Candidates:
    """Both finders' quads for `image` (BGR or grey uint8), in `detect.find_cards`' form."""
    colour = as_bgr(image)
    return _with_edges(colour, _learned_candidates(colour))


def _learned_candidates(colour: np.ndarray) -> Candidates:
    """The learned finder's quads for a BGR frame, with the net's maps: no edge quads yet."""
    scaled = net_input(colour)
    maps = card_maps(colour, scaled)
    rough = rough_quads(maps)
    placed = place_quads(colour, rough)
    return Candidates([], [], placed, [order_clockwise(q) for q in rough], maps, scaled[0])


def _zoomed(colour: np.ndarray, found: Candidates, kept: list[CardReading]) -> Candidates:
    """`found` with the quads of the learned finder's second look (`ZOOM`) at the part of
    the frame where its net sees card that `kept` leaves unexplained: small cards it saw
    too small to outline. A quad on a card the first look outlined (`SAME_CARD`) is left
    out."""
    region = _unexplained(found, kept, SETTLED, ZOOM_CONTEXT)
    if region is None or found.maps is None or ZOOM_GAIN * found.maps.sx > ZOOM:
        return found
    # the region's box, net input pixels -> frame pixels
    x0, y0, x1, y1 = region
    sx, sy = found.maps.sx, found.maps.sy
    fx0, fy0 = int(x0 / sx), int(y0 / sy)
    fx1 = min(colour.shape[1], int(np.ceil(x1 / sx)))
    fy1 = min(colour.shape[0], int(np.ceil(y1 / sy)))
    part = np.ascontiguousarray(colour[fy0:fy1, fx0:fx1])
    rough = rough_quads(card_maps(part, net_input(part, round(ZOOM * max(part.shape[:2])))))
    if not len(rough):
        return found
    offset = np.float32([fx0, fy0])
    pairs = [
        (placed + offset, order_clockwise(quad + offset))
        for placed, quad in zip(place_quads(part, rough), rough, strict=True)
    ]
    new = [
        pair
        for pair in pairs
        if not any(quad_iou(pair[0], quad) >= SAME_CARD for quad in found.learned)
    ]
    if not new:
        return found
    return replace(
        found,
        learned=found.learned + [placed for placed, _ in new],
        rough=found.rough + [quad for _, quad in new],
        zoomed=len(new),
    )


def _with_edges(colour: np.ndarray, learned: Candidates) -> Candidates:
    """`learned` with the edge finder's quads of the same frame, and whether the net sees
    card under each."""
    edges = find_cards(colour)
    maps = learned.maps
    agrees = (maps.card_cover(edges) >= NET_AGREES).tolist() if edges and maps is not None else []
    return replace(learned, edges=edges, net_agrees=agrees)


def pick_readings(
    found: Candidates,
    readings: Sequence[CardReading],
    rough_readings: Mapping[int, CardReading],
) -> list[CardReading]:
    """One reading per card from the readings of `found.quads` (in that order) and those
    of some rough rectangles (by learned index); the kept readings stay in quad order."""
    edge_count = len(found.edges)
    readings = list(readings)
    for index, rough in rough_readings.items():
        placed = readings[edge_count + index]
        if rough.label != NOT_A_CARD and (
            placed.label == NOT_A_CARD or _preference(rough) > _preference(placed)
        ):
            readings[edge_count + index] = rough
    options = [
        index
        for index, reading in enumerate(readings)
        if reading.label != NOT_A_CARD and _worth_reporting(found, index, reading)
    ]
    same = _same_cards(
        readings, [i for i in options if i < edge_count], [i for i in options if i >= edge_count]
    )
    options.sort(key=lambda index: _preference(readings[index]), reverse=True)
    kept: set[int] = set()
    for index in options:
        if not same[index] & kept:
            kept.add(index)
    return [readings[index] for index in sorted(kept)]


def _index_cards(
    image: np.ndarray, reader: CardReader, hits: Sequence[IndexHit], kept: list[CardReading]
) -> list[CardReading]:
    """`kept` with the cards read from a corner index alone added (see the module's
    docstring). An index card's quad is the whole card as if nothing covered it, so it
    holds no other index; one that is another index's card (its other corner: same rank
    and suit, `SAME_CARD`) is added once."""
    open_hits, inner_hits = _hits_to_read(hits, kept)
    if not open_hits and not inner_hits:
        return kept
    read = reader.read_index(image, [hit.quad for hit in open_hits + inner_hits])
    inner = read[len(open_hits) :]
    read = read[: len(open_hits)]
    sizes = _face_sizes(kept)
    unread = [hit for hit, r in zip(open_hits, read, strict=True) if r.label == NOT_A_CARD]
    resized = [
        hit.sized(*size)
        for hit in unread
        if (size := _nearest_size(hit.centre, sizes)) is not None
        and _misfit(hit.quad, size) >= RESIZED
    ]
    if resized:
        open_hits += resized
        read += reader.read_index(image, [hit.quad for hit in resized])
    moved = _moved_hits(open_hits, read, kept)
    if moved:
        open_hits += moved
        read += reader.read_index(image, [hit.quad for hit in moved])
    first_moved = len(open_hits) - len(moved)
    cards = [
        (r, hit.centre, k >= first_moved)
        for k, (r, hit) in enumerate(zip(read, open_hits, strict=True))
        if r.label != NOT_A_CARD
    ]

    def order(card: tuple[CardReading, np.ndarray, bool]) -> tuple[bool, int, float]:
        # one index read from several hits: a moved hit's card last, then the card sized
        # most like its neighbour first, sizes within MISFIT_STEP alike (a face's own quad
        # can be that far off)
        size = _nearest_size(card[1], sizes)
        misfit = 0.0 if size is None else _misfit(card[0].corners, size)
        return card[2], round(misfit / MISFIT_STEP), -card[0].confidence

    out, added = list(kept), []
    for reading, centre, _ in sorted(cards, key=order):
        if _read_already(reading, out + added):
            continue  # this card's other corner, or the same index read from another hit
        giving_way = {id(r) for r in out if _gives_way(r, reading, centre)}
        out = [r for r in out if id(r) not in giving_way]
        added.append(reading)
    out += added
    # an index in the middle of a card read for sure: a game card under it, or over it,
    # stands beside it where read for sure
    for reading in sorted(inner, key=lambda r: r.confidence, reverse=True):
        sure_game_card = reading.rank is not None and _face_read_for_sure(reading)
        if sure_game_card and not _read_already(reading, out):
            out.append(reading)
    return out


def _moved_hits(
    hits: Sequence[IndexHit], read: Sequence[CardReading], kept: Sequence[CardReading]
) -> list[IndexHit]:
    """Each index of `hits` that reads nothing (`read`), on no card of `kept` the reader
    stands by (`SURE`: those hold their own print), moved by each of `INDEX_SHIFTS`."""
    stood_by = [r.corners for r in kept if r.confidence >= SURE]
    return [
        hit.moved(*shift)
        for hit in _unread_hits(hits, read)
        if not points_in_any(hit.centre, stood_by)[0]
        for shift in INDEX_SHIFTS
    ]


def _unread_hits(hits: Sequence[IndexHit], read: Sequence[CardReading]) -> list[IndexHit]:
    """Of `hits` and their `read`ings, the indices that read nothing, each once: the last
    hit of its middle (the resized one where it was resized, `IndexHit.sized`)."""
    last: dict[bytes, IndexHit | None] = {}
    for hit, reading in zip(hits, read, strict=True):
        key = hit.centre.tobytes()
        if reading.label != NOT_A_CARD:
            last[key] = None  # this index was read
        elif key not in last or last[key] is not None:
            last[key] = hit
    return [hit for hit in last.values() if hit is not None]


def _read_already(card: CardReading, readings: Sequence[CardReading]) -> bool:
    """Whether one of `readings` reads the same as `card` on the same card (`SAME_CARD`)."""
    return any(
        r.label == card.label and quad_iou(r.corners, card.corners) >= SAME_CARD for r in readings
    )


def _face_read_for_sure(reading: CardReading) -> bool:
    """Whether `reading` is a face up read for sure (`_reads_sure`: "not a card", also
    face up, is no face)."""
    return reading.face == "up" and _reads_sure(reading)


def _hits_to_read(
    hits: Sequence[IndexHit], kept: list[CardReading]
) -> tuple[list[IndexHit], list[IndexHit]]:
    """The hits that no face read for sure (`SURE_ENOUGH`) holds, and those that one holds
    away from its corners (`INDEX_CORNER`). An index at the corner of a card read for sure
    was read with that card (most indices are); one in its middle is another card's, which
    a loose quad spanning both took in or which lies over it. A game rank read below
    SURE_ENOUGH may be a loose quad's misread suit: its indices are read too."""
    centres = np.array([hit.centre for hit in hits], np.float32).reshape(-1, 2)
    held = np.zeros(len(hits), bool)
    at_corners = np.zeros(len(hits), bool)
    for reading in filter(_face_read_for_sure, kept):
        inside = points_in_quad(centres, reading.corners)
        held |= inside
        at_corners |= inside & near_corners(centres, reading.corners, *INDEX_CORNER)
    open_hits = [hit for hit, done in zip(hits, held, strict=True) if not done]
    inner = [hit for hit, h, c in zip(hits, held, at_corners, strict=True) if h and not c]
    return open_hits, inner


def _face_sizes(readings: list[CardReading]) -> list[tuple[np.ndarray, float, float]]:
    """(centre, width, length) of each face read for sure (`SURE_ENOUGH`): one deck's cards
    lie at one size, which the index finder's implied cards miss by up to a tenth."""
    return [
        (reading.corners.mean(axis=0), *sorted(quad_extent(reading.corners)))
        for reading in filter(_face_read_for_sure, readings)
    ]


def _nearest_size(
    point: np.ndarray, sizes: list[tuple[np.ndarray, float, float]]
) -> tuple[float, float] | None:
    """(width, length) of the face read for sure nearest to `point`; None without one."""
    if not sizes:
        return None
    _, width, length = min(sizes, key=lambda s: float(np.linalg.norm(s[0] - point)))
    return width, length


def _misfit(quad: np.ndarray, size: tuple[float, float]) -> float:
    """How far an index's card `quad` (clockwise from the index corner: short side first)
    is from `size` (width, length): the larger relative difference of the two."""
    sides = quad_sides(quad)
    return float(max(abs(sides[0] / size[0] - 1), abs(sides[1] / size[1] - 1)))


def _gives_way(holder: CardReading, index_card: CardReading, centre: np.ndarray) -> bool:
    """Whether `holder`, a reading kept from the finders, gives way to a card read from its
    index at `centre`: a face up that holds the index and reads no game rank (a quad
    spanning two cards); or a game rank below `SURE_ENOUGH` where the index reads a game
    card more surely and the holder holds the index or reads the same rank on the same
    card (`SAME_CARD`): a loose quad whose corner patch caught the suit wrong."""
    if holder.face != "up":
        return False
    holds = bool(points_in_quad(centre, holder.corners)[0])
    if holder.rank is None:
        return holds
    if index_card.rank is None or index_card.confidence <= holder.confidence:
        return False
    same_rank = index_card.rank == holder.rank
    return holds or (same_rank and quad_iou(holder.corners, index_card.corners) >= SAME_CARD)


def _settled(reading: CardReading, floor: float) -> bool:
    """A back, a game rank, or a 6..King read at `floor` or more: a card whose reading
    stands."""
    if reading.face == "down" or reading.rank is not None:
        return True
    return reading.label != NOT_A_CARD and reading.confidence >= floor


def _worth_reporting(found: Candidates, index: int, reading: CardReading) -> bool:
    """Whether a reading may stand for a card: any reading of an edge quad the net agrees
    with; where the net sees no card, a face read for sure or a back at `BACK_WITHOUT_NET`;
    from the learned finder, a game card or a reading at `LEARNED_ALONE_FLOOR`, from its
    second look (`_zoomed`) any reading at `SURE_ENOUGH`."""
    if index < len(found.edges):
        floor = SURE if reading.face == "up" else BACK_WITHOUT_NET
        return found.net_agrees[index] or reading.confidence >= floor
    if index >= len(found.quads) - found.zoomed:  # the second look's
        return reading.confidence >= (ZOOM_GAME if reading.rank is not None else SURE_ENOUGH)
    return reading.rank is not None or reading.confidence >= LEARNED_ALONE_FLOOR


def _edge_twins(found: Candidates) -> dict[int, int]:
    """For each learned quad that is the twin (`TWIN`) of an edge quad the net agrees with,
    that edge quad's index."""
    edges = [i for i, agrees in enumerate(found.net_agrees) if agrees]
    twins: dict[int, int] = {}
    for a, b in _meeting_pairs([found.edges[i] for i in edges], found.learned):
        if b not in twins and quad_iou(found.edges[edges[a]], found.learned[b]) >= TWIN:
            twins[b] = edges[a]
    return twins


def _meeting_pairs(
    first: Sequence[np.ndarray], second: Sequence[np.ndarray]
) -> list[tuple[int, int]]:
    """(i, j) for each quad of `first` and quad of `second` whose bounding boxes meet: only
    those can overlap, and most pairs of a frame do not."""
    if not first or not second:
        return []
    a = np.array([np.concatenate([q.min(axis=0), q.max(axis=0)]) for q in first])[:, None]
    b = np.array([np.concatenate([q.min(axis=0), q.max(axis=0)]) for q in second])[None]
    meet = (a[..., 0] < b[..., 2]) & (b[..., 0] < a[..., 2])
    meet &= (a[..., 1] < b[..., 3]) & (b[..., 1] < a[..., 3])
    return [(int(i), int(j)) for i, j in zip(*np.nonzero(meet), strict=True)]


def _same_cards(
    readings: Sequence[CardReading], edge: list[int], learned: list[int]
) -> dict[int, set[int]]:
    """For each reading, the readings of the other finder that lie on the same card."""
    same: dict[int, set[int]] = {index: set() for index in edge + learned}
    corners = [reading.corners for reading in readings]
    for a, b in _meeting_pairs([corners[i] for i in edge], [corners[j] for j in learned]):
        i, j = edge[a], learned[b]
        if quad_iou(corners[i], corners[j]) >= SAME_CARD:
            same[i].add(j)
            same[j].add(i)
    return same


def _preference(reading: CardReading) -> tuple[bool, float]:
    """A read face (a game rank) or a back before an unread face, then confidence."""
    return (reading.rank is not None or reading.face == "down", reading.confidence)
