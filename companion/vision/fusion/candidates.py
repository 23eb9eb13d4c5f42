"""What the finders found in one frame (`Candidates`), and which of the learned finder's
quads are twins of the edge finder's (both placed the same card's sides)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..geometry import quad_iou
from ..segment import CardMaps


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
    zoomed: int = 0  # the last `zoomed` learned quads are the second look's (`finders.zoomed`)
    # per edge quad, where the deck's enrolled back is plain inside its margin (else
    # empty): whether it has the shape and size of such a card (`finders.with_edges`)
    plain_shaped: list[bool] = field(default_factory=list)
    # by learned index, where the net's blob is slanted (a turned card seen steeply:
    # `segment.rough_and_slanted`), the four sides fitted to it, placed on the card's edges
    slanted: dict[int, np.ndarray] = field(default_factory=dict)
    # the edge finder's whole outlines nested in a quad of its own many times their size
    # (`detect.EdgeQuads.nested`): read apart, by `nested.nested_cards`
    nested: list[np.ndarray] = field(default_factory=list)

    @property
    def quads(self) -> list[np.ndarray]:
        """The quads read first: the edge finder's and the learned finder's placed ones."""
        return self.edges + self.learned

    def plain_back_shaped(self, edge: int) -> bool:
        """Whether edge quad `edge` may be a back of the deck's plain enrolled back."""
        return edge < len(self.plain_shaped) and self.plain_shaped[edge]


# A learned quad overlapping an edge quad the net agrees with this much (IoU) is its twin:
# both finders placed the same card's sides on the same edges. On tuning scenes (40 per
# deck) 350 of about 560 learned quads were twins, and a twin read otherwise than its
# edge quad only where the edge quad's reading was not sure (12 of 350).
TWIN = 0.9


def edge_twins(found: Candidates) -> dict[int, int]:
    """For each learned quad that is the twin (`TWIN`) of an edge quad the net agrees with,
    that edge quad's index."""
    edges = [i for i, agrees in enumerate(found.net_agrees) if agrees]
    twins: dict[int, int] = {}
    for a, b in meeting_pairs([found.edges[i] for i in edges], found.learned):
        if b not in twins and quad_iou(found.edges[edges[a]], found.learned[b]) >= TWIN:
            twins[b] = edges[a]
    return twins


def meeting_pairs(
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
