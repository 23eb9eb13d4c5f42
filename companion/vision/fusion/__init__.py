"""The default card finder: both finders, and the better reading of each card.

Why both: each finder loses cards the other finds. The edge finder (detect.py) places
corners to a pixel but loses white cards on white cloth, cards on gingham and carpet, and
some of those a hand or a neighbour touches; the learned segmenter (segment.py) finds those
but its corners are looser and it makes stray blobs on unseen clutter. Run together, and
with the reader choosing, they read more cards right than either alone, on rendered tables
and on the real photos, with fewer phantoms than the edge finder (models/README.md).

How they are joined:
- the learned finder looks first. Where every card it found is settled (a game rank, a
  back, a 6..King read at `SETTLED` or more), no face is read unsure on a quad far
  larger than the card beside it (`oversized.py`: two cards outlined as one), the net
  sees no card that those readings do not explain, and sees none faintly away from them
  (`in_doubt`, `doubt.faint_card`: small cards under its card level), that is the table, and
  the edge finder (a third of the frame's time) does not run: on 45% of 200 rendered
  playing tuning tables and 75% of 200 animal ones (the real train split read as before)
  it reads 2,804 of 2,936 playing cards right (2,805 before), and one animal card of
  2,916 fewer (since the reader reads small 6..Kings for sure, on 56% of those playing
  tables). Otherwise both finders' quads are read as below, and a quad the first look
  read is not read again;
- where the net sees no card under an edge quad (`NET_AGREES`), only a face read for sure
  counts, or a back read surer still (`BACK_WITHOUT_NET`): a tile of the table, a phone or
  a note that made a clean outline is not card to the net, and reads at best as an unsure
  face or a back; the net, though, misses some big cards of close-up photos that the
  reader reads for sure, and some backs whose pattern it takes for the table;
- where the first look leaves card unexplained, or card seen faintly away from the cards
  read, the learned finder's net also looks again at that part of the frame, enlarged
  (`zoomed`, `ZOOM`, `doubt.left_to_look`): cards it saw too small to
  outline, and cards of a row it outlined as one (`ZOOM_TWIN`); a card only this second
  look found must read for sure, or a game card at `ZOOM_GAME`;
- every quad of both finders is read; a card found by both is read twice, and the reading
  the reader stands by more wins (a face or a back before "other", then confidence). Where
  both finders placed the same sides (`TWIN`) and the edge quad reads sure, the learned
  twin is not read again: it would read the same (about a quarter of the reading time);
  nor is an edge quad whose learned twin the first look read for sure;
- a learned quad is placed on the card's edges from a rough rectangle, and placing can
  lock on a neighbour's edge or a printed frame: where it reads no card for sure (a face,
  6..Kings too, or a back), the rough rectangle is read too, and the better of the two
  stands for that card; so does, where the net's blob is slanted (a turned card seen
  steeply: a parallelogram), the quad fitted to its four sides and placed, where it
  reads a card for sure (`_with_slanted`);
- where neither reads sure and the quad does not lie half on a card read sure
  (`INSIDE_SURE`), both (and a slanted blob's fitted sides) are read again with each
  side moved in or out a little (`SIDE_SHIFTS`, `side_search`): a side locked on a
  neighbour's edge or out on the table moves back onto the card. Only the finders' last
  look searches so (on rendered tables about 11 ms more per frame on average, all of it
  in frames in doubt), and a moved quad stands only for a face read for sure, and for a
  game card only where the card's readings agree on it (`MOVED_AGREEING`) and the quad
  is not much shorter than the nearest card read for sure (`SMALL_GAME_CARD`: part of a
  card);
- a learned quad nearer square than a card (`FRAGMENT_ASPECT`) is also read grown past
  each side to a card's shape (`geometry.card_shaped`): the net saw part of the card;
- a learned quad still unsure after that is cut in two across its long sides, and where
  both halves read a card for sure they stand for it (`split_pairs`): two cards lying
  side by side, touching, outlined as one; else its two ends as wide as a card, where
  both read a face for sure: two such cards overlapping;
- a quad still unsure after that, of the learned finder or an edge quad the net agrees
  with, wider than the nearest card read for sure, is cut to a card's shape from each
  side: a card outlined with part of its neighbour, as cards laid in a row are. Where
  the parts that read a game card or a back for sure all lie on one card, it stands
  (`cut_out_cards`);
- on a frame no shaken camera smeared, a quad still unsure after that (of those the
  cut-out searches), turned as the nearest card read for sure, is read at each of its
  ends as a card of that card's size and turn, as it is and placed: the middle card of
  three laid in a row, its band in sight outlined alone or one end of it with a
  neighbour. A game card read there for sure, the only one those quads name (a playing
  card, only where it is read nowhere else in the frame), stands (`reached_cards`);
- on such a frame too, midway between two cards read for sure that lie as the two ends
  of a row with a card's room between them (`between.py`), a quad of a card's size and
  their turn is read, as it is and placed: the middle card of three, which no quad
  outlines at all. A game card read there for sure stands on the same terms
  (`cards_between`);
- a reading of the learned finder alone that says neither a game card nor a sure face or
  back (`LEARNED_ALONE_FLOOR`) is dropped: that is what its stray blobs read as;
- a whole outline the edge finder found nested in a quad of its own four times its size
  or more (`detect.EdgeQuads.nested`), lying mostly on no card read for sure and not
  much shorter than the nearest, stands where it reads a card for sure (`nested_cards`):
  a card in a shadow or on a mat, which the edge finder outlined with the card as one
  quad.
The edge finder's own overlapping quads, and the learned finder's, are each finder's own
decisions (two overlapping cards); only a reading of one finder and a reading of the other
can be the same card.

Playing cards are also looked for by their corner index alone (corner_index.py): a card
fanned under another or cut by the picture's edge has no outline either finder closes.
The index search runs only where the net sees card that no card read for sure explains
(`unexplained`; on a table where every card was read, never). An index read for sure
(`read.CardReader.read_index`: a game card, or a 6..King as "other") adds its card where
no card read for sure (`SURE_ENOUGH`) holds that index (`index_cards`); a reading that
holds it but reads an unsure face (a quad spanning two cards), or a game rank less surely
than the index reads another, gives way to it, as does the same rank read less surely on
the same card (`_gives_way`). An index whose implied card reads nothing is read again at the
size of the nearest face read for sure, and of one index read from several hits the card
sized so comes first (`_face_sizes`): one deck's cards lie at one size. One that reads
nothing either way is read with its middle moved by half a patch (`INDEX_SHIFTS`): the
net can mark the suit under the rank as the middle. An index in the middle of a card read
for sure, away from its corners (`INDEX_CORNER`), is another card's, as is one at a corner
of a 6..King read for sure implying a card that is not that one (`OTHER_CARD_IOU`): a game
card read from it for sure stands beside that card (`_hits_to_read`). On the real photos'
train split this reads 171 of 195 labelled cards right instead of 137 (Aces 89 of 92
instead of 69), with no 9..King read as a game card and no game card read as another.
The index finder also looks at the frame turned by each quarter (`TURNED_LOOKS`: cards
face every side of a table, and the net reads an index differently at each turn); a
turned look's hit counts only where the frame's own hits of that index read nothing, and
a game card from turned looks only where two of their hits agree (`TURNED_AGREEING`);
three hits or more size their card by their median (`MEDIAN_HITS`). Where the card
finder sees the frame much smaller than it is (a webcam's frame), the index finder also
looks at the frame itself, closer (`corner_index.close_indices`): a small card's index.
A hit of the frame's own looks whose index read nothing, lying on card the net sees that
no card read for sure explains, is last read implying a card a fifth smaller and a
quarter larger (`indices.RESCALED`): at a webcam's scale the net implies a card's size
from an index a few pixels tall, and misses by a third (the real train split at 100 px,
turned 0 to 270 degrees: 687 -> 695 of 780 cards, Aces 353 -> 355 of 368).

After that, on a frame no shaken camera smeared, a quad still unsure, wider than the
nearest card read for sure and with no game card read on it, whose card-shaped parts
read a 6..King for sure (and none a game card or a back elsewhere) has that 6..King in its
place (`cut_out_plain_cards`): a face card laid over the card before it in a row,
outlined with that card's strip in sight. Only now, when every search for a game card
under it has looked.

Last, in a frame in doubt, the card pixels of the net that no reading covers are read as
rectangles (`outlined_parts`): a card the net sees but finds no core in (small, blurred,
on a busy cloth), which no finder outlines, stands where its rectangle, as it is or grown
to a card's shape, reads a face for sure. And a reading the reader does not stand by,
lying mostly on a card read for sure, is part of that card and is dropped, as is one not
read for sure lying mostly on a card read so and much larger (`without_parts`). Then a
back one corner of which lies under a face read for sure, a card's size and shape, stands
where one corner and the whole face read it for sure and the covered corner shows neither
a back nor a face (`covered_backs`: the three views' mean took that corner for a veto).

On every frame, last, a back stands only where its quad shows a card's outline on two
sides (`outlines.outlined_backs`): a patch of carpet or cloth, which the readers can take
for a back of some design, shows the same texture on both sides of its quad's sides. A
back read on a quad round two backs, one over the other as a row is laid, stands as the
two where card-sized parts at its corners read as backs (`merged_backs.parted_backs`);
two backs read on the two halves of one card, touching end to end, each half a card
long, the print running on across where they meet, are that one card
(`back_halves.joined_backs`); a game card read twice, on two quads over the same card,
stands once (`twice.once_each`: each player holds one card of each rank); and a 6..King
read on a quad a fifth shorter than the cards beside it, on the printed frame inside it,
is read again grown to their length (`framed_faces.grown_faces`).

After all that, a frame in doubt that a shaken camera smeared (`shake.shake_of`) is read
again, steadied, by all of the above (`steadied.steadied_cards`), and a back or a 6..King
read there stands where the frame itself read none (never a game card: `steadied.py`
says why).

Where each part lives: `finders.py` (the looks: the learned finder, its second look, the
edge finder), `candidates.py` (what they found; twins), `reading.py` (each quad read once
a frame; `FrameReads`, a frame's readings as the searches after them share them),
`picking.py` (one reading per card), `doubt.py` (what leaves doubt, and where),
`oversized.py` (a face read on a quad of two cards), `sides.py` (the side search),
`pairs.py` (two cards outlined as one), `cut_out.py` (a card outlined with part of its
neighbour), `reaching.py` (a card outlined by no quad of its own), `between.py` (a card
outlined by no quad at all, between two of its row), `indices.py` (cards read from a
corner index), `parts.py` (uncovered card pixels; pieces of cards), `steadied.py` (a
shaken frame read again steadied), `covered_backs.py` (a back under a neighbour's
corner), `outlines.py` (backs that show no outline),
`nested.py` (a card the edge finder outlined inside a larger quad),
`merged_backs.py` (two backs read as one), `back_halves.py` (one back read as two),
`twice.py` (a game card read twice), `framed_faces.py` (a 6..King read on its printed
frame), `levels.py` (the confidence levels they all share).
Each rule's constant, with the figures measured for it, lies in the module of that rule.

`read_cards(image, reader)` does it all (`CardPipeline` calls it); `find_candidates` (both
finders at once, as training uses them) and `pick_readings` are its two halves.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..corner_index import close_indices, find_indices
from ..decks import PLAYING_CARDS
from ..detect import as_bgr
from ..read import CardReader
from ..segment import CardMaps, frame_model
from ..shake import shake_of
from ..types import CardReading
from .back_halves import joined_backs
from .between import cards_between
from .candidates import Candidates
from .covered_backs import covered_backs
from .cut_out import cut_out_cards, cut_out_plain_cards
from .doubt import in_doubt, unexplained
from .finders import find_candidates, learned_candidates, with_edges, zoomed
from .framed_faces import grown_faces
from .indices import index_cards
from .levels import preference, reads_sure
from .merged_backs import parted_backs
from .nested import nested_cards
from .outlines import outlined_backs
from .pairs import split_pairs
from .parts import outlined_parts, without_parts
from .picking import pick_readings
from .plain_backs import plain_backs
from .reaching import reached_cards
from .reading import FrameReads, read_at, read_quads
from .sides import side_search
from .steadied import steadied_cards
from .twice import once_each

__all__ = ["Candidates", "find_candidates", "pick_readings", "read_cards"]


def read_cards(image: np.ndarray, reader: CardReader, steady: bool = False) -> list[CardReading]:
    """Every card in `image` (BGR uint8), read by `reader`: found by the learned finder
    (its net chosen by the deck: `segment.frame_model`), where it leaves doubt by the edge
    finder too (`in_doubt`), and for a playing deck by its corner index; where a frame in
    doubt is shaken, by reading it steadied too (`steadied_cards`), unless it is
    `steady` (a frame steadied already); where it is not, by reaching for game cards at
    the ends of unsure quads and between two cards of a row too (`reached_cards`,
    `cards_between`)."""
    colour = as_bgr(image)
    found = learned_candidates(colour, frame_model(reader.deck))
    known: dict[bytes, CardReading] = {}
    kept = pick_readings(found, *_read_found(image, reader, found, known))
    if not in_doubt(found, kept):
        return _finished(colour, reader, plain_backs(colour, reader, kept), found.maps)
    found = with_edges(colour, zoomed(colour, found, kept), reader.deck.plain_back)
    # A steadied frame is read again only for its backs and 6..Kings (`steadied_cards`):
    # no shake to tell, and no game card to reach for (`reached_cards`).
    shake = None if steady else shake_of(colour)
    reach = not steady and shake is None
    kept, frame = _searched(image, reader, found, known, reach)
    kept = nested_cards(frame, kept)
    region = unexplained(found, kept) if reader.deck.kind == PLAYING_CARDS else None
    if region is not None and found.maps is not None and found.net_image is not None:
        sx, sy = found.maps.sx, found.maps.sy
        hits = find_indices(found.net_image, sx, sy, region)
        seen = unexplained(found, kept, context=0)
        if seen is not None:
            hits += close_indices(colour, sx, sy, seen)
        kept = index_cards(image, reader, hits, kept, found.maps)
    if reach:
        kept = cut_out_plain_cards(frame, kept)
    kept = covered_backs(frame, without_parts(outlined_parts(image, reader, found, kept)))
    kept = _finished(colour, reader, kept, found.maps)
    if shake is None:
        return kept
    return kept + steadied_cards(
        colour, kept, shake, lambda frame: read_cards(frame, reader, steady=True)
    )


def _finished(
    colour: np.ndarray, reader: CardReader, kept: list[CardReading], maps: CardMaps | None
) -> list[CardReading]:
    """What every frame's readings pass last: backs that show no card's outline dropped
    (`outlined_backs`), two backs read as one parted (`parted_backs`, read by `reader`),
    one back read as two joined (`joined_backs`), a game card read twice standing once
    (`once_each`), a 6..King read on its printed frame grown to its edges (`grown_faces`,
    where the net's `maps` see card round it)."""
    backs = parted_backs(colour, reader, outlined_backs(colour, kept))
    return grown_faces(colour, reader, once_each(joined_backs(colour, backs)), maps)


def _with_slanted(
    image: np.ndarray,
    reader: CardReader,
    found: Candidates,
    rough: dict[int, CardReading],
    known: dict[bytes, CardReading],
) -> dict[int, CardReading]:
    """`rough` (the rough readings of learned quads read unsure, by learned index) with the
    reading of the quad fitted to a slanted blob (`found.slanted`) in place of the rough
    rectangle's where it reads a card for sure (`reads_sure`) and better (`preference`):
    a turned card seen steeply is a parallelogram, which its rectangle and the quad
    placed from it outline badly. Only for sure: a blob of two cards touching fitted so
    read as the one whose index it shows, at 0.69 (tuning scene 4,201,099), where the
    cut-out (`cut_out.py`) would part them."""
    indices = [index for index in rough if index in found.slanted]
    if not indices:
        return rough
    quads = [found.slanted[index] for index in indices]
    fitted = read_at(image, reader, quads, list(range(len(quads))), known)
    better = {
        index: fitted[k]
        for k, index in enumerate(indices)
        if reads_sure(fitted[k]) and preference(fitted[k]) > preference(rough[index])
    }
    return {**rough, **better}


def _read_found(
    image: np.ndarray, reader: CardReader, found: Candidates, known: dict[bytes, CardReading]
) -> tuple[list[CardReading], dict[int, CardReading]]:
    """A reading of each of the finders' quads (`found.quads`), and by learned index the
    reading of the rough rectangle of each learned quad whose placed quad reads no card
    for sure; a quad already read this frame (`known`) is not read again."""
    if not found.quads:
        return [], {}
    readings = read_quads(image, reader, found, known)
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
        if not reads_sure(reading)
    ]
    rough = read_at(image, reader, found.rough, doubtful, known)
    return readings, _with_slanted(image, reader, found, rough, known)


def _searched(
    image: np.ndarray,
    reader: CardReader,
    found: Candidates,
    known: dict[bytes, CardReading],
    reach: bool,
) -> tuple[list[CardReading], FrameReads]:
    """One reading per card from the finders' quads (`_read_found`), the learned quads
    still unsure read with their sides moved too (`side_search`) and cut (`split_pairs`,
    `cut_out_cards`); with `reach` (a steady frame), searched for a game card at their ends
    (`reached_cards`) and between two cards of a row read for sure (`cards_between`).
    And the frame's readings, as the searches after these take them."""
    readings, rough = _read_found(image, reader, found, known)
    frame = FrameReads(image, reader, found, readings, rough, known)
    if not found.quads:
        return [], frame
    frame = replace(frame, rough={**rough, **side_search(frame)})
    kept = cut_out_cards(frame, split_pairs(frame, pick_readings(found, readings, frame.rough)))
    return (cards_between(frame, reached_cards(frame, kept)) if reach else kept), frame
