"""Train the playing-card corner reader and export it to ONNX (needs the `train` extra).

The net reads one corner index patch (features.CORNER_SIZE, BGR in 0..1) and gives two
probability vectors: rank head (Ace..King, back, not a card) and suit head. Per-patch
normalisation happens inside the net, so the runtime feeds plain pixels.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch
from torch import nn

from companion.vision.features import CORNER_SIZE, corner_views, rectify_cards, to_model_input
from companion.vision.playing_views import NON_GAME_FACES

from .card_samples import (
    DESIGNED_TABLES,
    FRAGMENT_IOU,
    JOKER_AS_FACE,
    JOKER_CLASS,
    NO_SUIT,
    NONE_CLASS,
    RANK_NAMES,
    Cut,
    designed_back_art,
    found_cards,
    joker_art,
    plain_thing_art,
    scene_cards,
    synthetic_cards,
)
from .real_photos import (
    RealCard,
    load_real_cards,
    real_card_samples,
    shaken_photos,
    small_photos,
)
from .speed_graph import rewrite

Samples = tuple[np.ndarray, np.ndarray, np.ndarray]  # views, rank classes, suit classes


class ReaderNet(nn.Module):
    """A small CNN from a card view to rank and suit probabilities.

    The corner reader (the defaults: one corner index patch, about 150k weights, about 2
    MFLOPs per patch) and the whole-face reader (`whole.py`: 40x56, wider) are both this
    net; `size` is the view's (width, height).
    """

    def __init__(
        self,
        n_ranks: int = len(RANK_NAMES),
        n_suits: int = 4,
        widths: tuple[int, int, int, int] = (12, 24, 48, 64),
        hidden: int = 96,
        size: tuple[int, int] = CORNER_SIZE,
    ) -> None:
        super().__init__()
        c1, c2, c3, c4 = widths
        width, height = size
        self.size = size

        def block(cin: int, cout: int) -> nn.Sequential:
            return nn.Sequential(
                nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()
            )

        self.features = nn.Sequential(
            block(3, c1), nn.MaxPool2d(2),  # corner: 25 x 15
            block(c1, c2), nn.MaxPool2d(2),  # 12 x 7
            block(c2, c3), nn.MaxPool2d(2),  # 6 x 3
            block(c3, c4),
        )  # fmt: skip
        cells = (height // 8) * (width // 8)
        self.head = nn.Sequential(
            nn.Flatten(), nn.Dropout(0.2), nn.Linear(c4 * cells, hidden), nn.ReLU()
        )
        self.rank = nn.Linear(hidden, n_ranks)
        self.suit = nn.Linear(hidden, n_suits)

    def hidden(self, x: torch.Tensor) -> torch.Tensor:
        """What both heads read: the features of each view, normalised by its own spread."""
        mean = x.mean(dim=(1, 2, 3), keepdim=True)
        std = x.std(dim=(1, 2, 3), keepdim=True)
        return self.head(self.features((x - mean) / (std + 0.05)))

    def logits(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.hidden(x)
        return self.rank(h), self.suit(h)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        rank, suit = self.logits(x)
        return rank.softmax(dim=1), suit.softmax(dim=1)


def _views(
    cards: np.ndarray, ranks: np.ndarray, suits: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Both corner views of every card, each labelled like its card."""
    return corner_views(cards), np.repeat(ranks, 2), np.repeat(suits, 2)


def build_datasets(
    seed: int, n_synth: int, real_copies: int, n_scenes: int = 0
) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Corner views for training and for measuring, all from fixed seeds.

    Scene seeds start at `seed + 500` (the benchmark's held-out scenes use 900,000).
    """
    t0 = time.time()
    photos = load_real_cards()
    sets = {
        "synth-train": _views(*synthetic_cards(n_synth, seed)),
        "scene-train": _views(*scene_cards(n_scenes, seed + 500)),
        "synth-heldout": _views(*synthetic_cards(max(1000, n_synth // 10), seed + 10_000)),
        "real-train": _views(*real_card_samples(photos, "train", real_copies, seed)),
        "real-test": _views(*real_card_samples(photos, "test", 1, seed + 1, jitter=0.0)),
    }
    report_sizes(sets, t0)
    return sets


def _batches(n: int, size: int, rng: np.random.Generator):
    order = rng.permutation(n)
    for i in range(0, n, size):
        yield order[i : i + size]


def evaluate(
    model: ReaderNet, data: tuple[np.ndarray, np.ndarray, np.ndarray]
) -> tuple[float, float]:
    """(rank accuracy, suit accuracy where a suit applies) over single views (corner
    patches, or whole faces for the whole-face reader)."""
    views, ranks, suits = data
    model.eval()
    device = next(model.parameters()).device
    with torch.no_grad():
        rank_p, suit_p = model(torch.from_numpy(to_model_input(views)).to(device))
    top = rank_p.argmax(1).cpu().numpy()
    # a face of no rank (a joker as a face) is right where read as any 6..King
    rank_ok = np.where(ranks == JOKER_AS_FACE, np.isin(top, NON_GAME_FACES), top == ranks).mean()
    has_suit = suits != NO_SUIT
    suit_ok = (suit_p.argmax(1).cpu().numpy()[has_suit] == suits[has_suit]).mean()
    return float(rank_ok), float(suit_ok)


def held_out_scores(
    model: ReaderNet, sets: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]
) -> dict[str, tuple[float, float]]:
    """`evaluate` on every set that is not trained on (names not ending in "-train")."""
    return {k: evaluate(model, v) for k, v in sets.items() if not k.endswith("-train")}


def train(
    out: Path,
    seed: int = 0,
    n_synth: int = 16_000,
    real_copies: int = 24,
    epochs: int = 10,
    n_scenes: int = 1500,
    init: Path | None = None,
) -> None:
    """Train from fixed seeds and write the ONNX model to `out`.

    `init`: an exported model (such as the shipped one) to fine-tune instead of starting
    from random weights (`load_onnx`); then a few epochs are enough.
    """
    torch.manual_seed(seed)
    torch.set_num_threads(2)
    sets = build_datasets(seed, n_synth, real_copies, n_scenes)
    rng = np.random.default_rng(seed)
    sample = sets["synth-train"][0][rng.permutation(len(sets["synth-train"][0]))[:1024]]
    model = load_onnx(init, sample) if init is not None else ReaderNet()
    fit(model, sets, epochs, seed, max_lr=1e-3 if init is not None else 3e-3)
    export(model, out)


def report_sizes(sets: dict[str, Samples], started: float) -> None:
    """Print each set's size and the time the data took since `started`."""
    sizes = {k: len(v[0]) for k, v in sets.items()}
    print(f"data ready in {time.time() - started:.0f}s: {sizes}", flush=True)


def train_samples(sets: dict[str, Samples]) -> Samples:
    """Every "*-train" set's views, rank and suit classes, joined: what is trained on."""
    train_sets = [v for k, v in sets.items() if k.endswith("-train")]
    return tuple(np.concatenate([v[i] for v in train_sets]) for i in range(3))


def fit(
    model: ReaderNet,
    sets: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]],
    epochs: int,
    seed: int = 0,
    max_lr: float = 3e-3,
    batch: int = 128,
) -> None:
    """Train `model` on every "*-train" set, reporting the held-out sets after each epoch.

    The model trains on whatever device its weights are on (the views are copied there).
    """
    rng = np.random.default_rng(seed)
    device = next(model.parameters()).device
    views, ranks, suits = train_samples(sets)
    opt = torch.optim.AdamW(model.parameters(), lr=max_lr, weight_decay=1e-4)
    steps = epochs * ((len(views) + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=max_lr, total_steps=steps)
    rank_loss = nn.CrossEntropyLoss(label_smoothing=0.05)
    suit_loss = nn.CrossEntropyLoss(ignore_index=NO_SUIT)
    spread = (ranks == JOKER_AS_FACE).any()  # faces of no rank: soft targets
    for epoch in range(epochs):
        model.train()
        t0, total = time.time(), 0.0
        for idx in _batches(len(views), batch, rng):
            x = torch.from_numpy(to_model_input(views[idx])).to(device)
            r, s = model.logits(x)
            # the suit weighs as much as the rank: spades/clubs on small indices need it
            target = rank_targets(ranks[idx]) if spread else torch.from_numpy(ranks[idx])
            loss = rank_loss(r, target.to(device)) + suit_loss(
                s, torch.from_numpy(suits[idx]).to(device)
            )
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        scores = held_out_scores(model, sets)
        print(
            f"epoch {epoch + 1}/{epochs} loss {total / len(views):.3f} "
            + " ".join(f"{k} rank {r:.3f} suit {s:.3f}" for k, (r, s) in scores.items())
            + f" ({time.time() - t0:.0f}s)",
            flush=True,
        )


def fit_last_rank_class(
    model: ReaderNet,
    sets: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]],
    epochs: int = 30,
    seed: int = 0,
    lr: float = 1e-2,
    batch: int = 1024,
) -> None:
    """Learn only the last rank class's row of `model` (weights and bias) on every "*-train"
    set, the rest frozen as it is: the other classes' logits stay as they were, so a view
    the new class does not take reads exactly as before (its probabilities scaled by what
    the new class holds), and the reader cannot drift. Plain cross-entropy over all the
    classes, on the hidden features computed once (eval mode), Adam at `lr`."""
    model.eval()
    views, ranks, _ = train_samples(sets)
    ranks = torch.from_numpy(ranks)
    with torch.no_grad():
        hidden = torch.cat(
            [
                model.hidden(torch.from_numpy(to_model_input(views[i : i + 4096])))
                for i in range(0, len(views), 4096)
            ]
        )
        fixed = model.rank(hidden)[:, :-1]
    row = nn.Linear(hidden.shape[1], 1)
    with torch.no_grad():
        row.weight.copy_(model.rank.weight[-1:])
        row.bias.copy_(model.rank.bias[-1:])
    opt = torch.optim.Adam(row.parameters(), lr=lr)
    rng = np.random.default_rng(seed)
    for epoch in range(epochs):
        total = 0.0
        for idx in _batches(len(hidden), batch, rng):
            logits = torch.cat([fixed[idx], row(hidden[idx])], dim=1)
            loss = nn.functional.cross_entropy(logits, ranks[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        print(f"epoch {epoch + 1}/{epochs} loss {total / len(hidden):.4f}", flush=True)
    with torch.no_grad():
        model.rank.weight[-1:] = row.weight
        model.rank.bias[-1:] = row.bias
    scores = held_out_scores(model, sets)
    print(" ".join(f"{k} rank {r:.3f} suit {s:.3f}" for k, (r, s) in scores.items()), flush=True)


def rank_targets(ranks: np.ndarray) -> torch.Tensor:
    """Rank classes as probability rows (N, 15): one-hot, and a face of no rank
    (`JOKER_AS_FACE`) spread evenly over the 6..King classes (a face, no game card)."""
    targets = np.zeros((len(ranks), len(RANK_NAMES)), np.float32)
    known = ranks >= 0
    targets[np.flatnonzero(known), ranks[known]] = 1.0
    targets[np.ix_(~known, NON_GAME_FACES)] = 1.0 / len(NON_GAME_FACES)
    return torch.from_numpy(targets)


def _synth_chunk(seed: int, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return _views(*synthetic_cards(n, seed))


def _scene_chunk(seed: int, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return _views(*scene_cards(n, seed))


def refine(
    out: Path,
    init: Path,
    epochs: int = 40,
    workers: int = 16,
    device: str = "cuda",
    real_copies: int = 24,
) -> None:
    """The second stage of the shipped model (an equivalent, not a byte-identical rerun):
    40,000 single cards (seeds 1..16) and
    16 x 420 scenes (seeds 500..515) rendered on `workers` processes, plus the real train
    split, 40 epochs of batch 256 at one-cycle lr 3e-3 from the exported model `init`.
    About 4.5 minutes on 16 cores and one GPU.
    """
    from concurrent.futures import ProcessPoolExecutor

    torch.manual_seed(0)
    with ProcessPoolExecutor(workers) as pool:
        synth = list(pool.map(_synth_chunk, range(1, 17), [2500] * 16))
        scenes = list(pool.map(_scene_chunk, range(500, 516), [420] * 16))
        held = pool.submit(_synth_chunk, 10_000, 2500).result()
    photos = load_real_cards()
    sets = {
        "synth-train": tuple(np.concatenate(p) for p in zip(*synth, strict=True)),
        "scene-train": tuple(np.concatenate(p) for p in zip(*scenes, strict=True)),
        "real-train": _views(*real_card_samples(photos, "train", real_copies, 0)),
        "synth-heldout": held,
        "real-test": _views(*real_card_samples(photos, "test", 1, 1, jitter=0.0)),
    }
    model = load_onnx(init, sets["synth-train"][0][:1024]).to(device)
    fit(model, sets, epochs, 0, max_lr=3e-3, batch=256)
    export(model.cpu(), out)


def tune(
    out: Path,
    init: Path,
    epochs: int = 6,
    n_found: int = 1500,
    real_copies: int = 24,
) -> None:
    """The third stage: fine-tune `init` on cards cut along the finders' own quads.

    1,500 rendered scenes (stream seed 700) read by both card finders (`found_cards`), 600
    scenes cut along their true corners (seed 800), 8,000 single cards (seed 1) and the
    real train split, so that what the model learned before is kept; held out: 200 more
    found-quad scenes (seed 10,700) and the real test split. One-cycle lr 1e-3, batch 128,
    one thread: about 25 minutes on this project's 2-core machine.
    """
    torch.manual_seed(0)
    torch.set_num_threads(1)
    t0 = time.time()
    _fine_tune(out, init, _earlier_sets(n_found, real_copies), epochs, max_lr=1e-3, started=t0)


def backs_tune(out: Path, init: Path, epochs: int = 4, real_copies: int = 24) -> None:
    """The fourth stage (models/README.md, the card finder's "Backs never seen"): `init`
    fine-tuned so that backs of any design read as backs.

    The three playing backs it had seen taught it three pictures: of tuning tables whose
    deck had a back design of its own (`art.designed_back`), the readers took 40% of the
    face-down cards for no card even on their true outlines. Added to what keeps the
    earlier stages (`_earlier_sets`, with 1,000 found-quad scenes): `designed_samples`.
    One-cycle lr 5e-4, batch 128, two threads: about 10 minutes, 6 of them rendering.
    """
    torch.manual_seed(0)
    torch.set_num_threads(2)
    t0 = time.time()
    designed = {name: _views(*samples) for name, samples in designed_samples().items()}
    _fine_tune(out, init, designed | _earlier_sets(1000, real_copies), epochs, 5e-4, t0)


def jokers_tune(out: Path, init: Path, epochs: int = 4, real_copies: int = 24) -> None:
    """The fifth stage: `init` (the fourth) fine-tuned so that a deck's jokers read as no
    card. Never shown one, the readers read 55 of 1,490 jokers on 100 rendered tables
    (`joker_face` editions 0..99, which training never draws) as a game card, most as an
    Ace: their corners spell JOKER or show a star. Added to the fourth stage's sets
    (`designed_samples`, `_earlier_sets` with 1,000 found-quad scenes): `joker_samples`.
    One-cycle lr 5e-4, batch 128, two threads."""
    torch.manual_seed(0)
    torch.set_num_threads(2)
    t0 = time.time()
    added = designed_samples() | joker_samples()
    sets = {name: _views(*samples) for name, samples in added.items()}
    _fine_tune(out, init, sets | _earlier_sets(1000, real_copies), epochs, 5e-4, t0)


def joker_row_tune(out: Path, init: Path, real_copies: int = 24) -> None:
    """The corner reader `init` given a class of jokers (`card_samples.JOKER_CLASS`) of
    which only the row is learned on its frozen features (`fit_last_rank_class`), from the
    fifth stage's sets, exported folded into "none" (`FoldedJokers`): as the whole-face
    reader's third stage (`whole.joker_row_tune`), and for the same reason. Not shipped:
    its corners' features tell a joker's corner from an Ace's less well (models/README.md,
    "Jokers"). About 8 minutes on 2 cores, 4.5 of them rendering."""
    torch.manual_seed(0)
    torch.set_num_threads(2)
    t0 = time.time()
    added = designed_samples() | joker_samples(label=JOKER_CLASS)
    sets = {name: _views(*samples) for name, samples in added.items()}
    sets |= _earlier_sets(1000, real_copies)
    report_sizes(sets, t0)
    model = load_onnx(init, sets["synth-train"][0][:1024], n_ranks=JOKER_CLASS + 1)
    fit_last_rank_class(model, sets)
    export(FoldedJokers(model), out)


def joker_samples(cut: Cut = rectify_cards, label: int = NONE_CLASS) -> dict[str, Samples]:
    """Jokers, cut by `cut`: 3,000 single ones (seed 7) and 300 tables whose face-down
    cards are jokers, along true corners (seed 870); held out: 60 more such tables
    (seed 10,870). All labelled `label` ("none" by default)."""
    art = functools.partial(joker_art, label=label)
    return {
        "jokers-synth-train": synthetic_cards(3000, 7, cut, art),
        "jokers-scene-train": scene_cards(300, 870, cut, face_up_rate=0.4, jokers=label),
        "jokers-heldout": scene_cards(60, 10_870, cut, face_up_rate=0.4, jokers=label),
    }


def designed_samples(cut: Cut = rectify_cards) -> dict[str, Samples]:
    """Backs of procedural designs (`art.designed_back`), cut by `cut`: 600 tables of such
    decks (most cards face down) cut along the finders' quads (stream seed 760), 300 along
    true corners (seed 860) and 3,000 single backs (seed 5); 600 tables of the usual decks
    along the finders' quads (seed 780); and 3,000 phones, notes and seat markers filling a
    card's picture (`plain_thing_art`, seed 6). Along the finders' quads, scraps of covered
    cards are "none" (`found_cards`' FRAGMENT_IOU): a reader that learned any print to be a
    back read such scraps as backs, and dark phones with a coloured rim. Held out: 100 more
    found-quad tables of designed backs (seed 10,760)."""
    return {
        "designed-found-train": found_cards(
            600, 760, cut=cut, none_below=FRAGMENT_IOU, **DESIGNED_TABLES
        ),
        "designed-scene-train": scene_cards(300, 860, cut=cut, **DESIGNED_TABLES),
        "designed-synth-train": synthetic_cards(3000, 5, cut, designed_back_art),
        "fragments-train": found_cards(600, 780, cut=cut, none_below=FRAGMENT_IOU),
        "things-train": synthetic_cards(3000, 6, cut, plain_thing_art),
        "designed-heldout": found_cards(100, 10_760, cut=cut, **DESIGNED_TABLES),
    }


def shaken_tune(out: Path, init: Path, epochs: int = 3, real_copies: int = 24) -> None:
    """The corner reader `init` fine-tuned on the real train split shaken (`shaken_views`),
    with what keeps the fourth stage (`designed_samples`, `_earlier_sets` with 1,000
    found-quad scenes); held out: the real test split shaken alike. One-cycle lr 3e-4,
    batch 128, two threads: about 8 minutes, 4.5 of them rendering. Measured, not
    shipped (models/README.md, the corner reader's "Shaken real indices")."""
    torch.manual_seed(0)
    torch.set_num_threads(2)
    t0 = time.time()
    photos = load_real_cards()
    sets = {name: _views(*samples) for name, samples in designed_samples().items()}
    sets |= {
        "real-shaken-train": shaken_views(photos, "train", 12, 871),
        "real-shaken-heldout": shaken_views(photos, "test", 4, 10_871),
    }
    _fine_tune(out, init, sets | _earlier_sets(1000, real_copies), epochs, 3e-4, t0)


def index_shaken_tune(out: Path, init: Path, epochs: int = 3, real_copies: int = 24) -> None:
    """The index reader `init` fine-tuned on the real train split shaken (`shaken_views`),
    with what keeps its first stage (`index_tune`'s sets: 600 hit scenes, `_earlier_sets`
    with 800 found-quad scenes); held out: 150 more hit scenes, the found-quad scenes and
    the real test split shaken alike. One-cycle lr 3e-4, batch 128, two threads: about
    12 minutes, 3.5 of them rendering. Why: models/README.md, the index reader's "Second
    stage"."""
    _index_real_tune(out, init, epochs, real_copies, small=False)


def index_small_tune(out: Path, init: Path, epochs: int = 3, real_copies: int = 24) -> None:
    """The index reader `init` fine-tuned as in `index_shaken_tune`, and on the real train
    split shrunk to a webcam's scale too (`small_views`); held out: the real test split
    shrunk alike as well. About 15 minutes, 4.5 of them making the data. Measured, not
    shipped: models/README.md, the index reader's "Small real indices"."""
    _index_real_tune(out, init, epochs, real_copies, small=True)


def _index_real_tune(out: Path, init: Path, epochs: int, real_copies: int, small: bool) -> None:
    """`index_shaken_tune`, and with `small` `index_small_tune`: one recipe, the shrunk sets
    added after the others so that the shaken stage's data stays as it was."""
    from .card_samples import index_hit_views

    torch.manual_seed(0)
    torch.set_num_threads(2)
    t0 = time.time()
    photos = load_real_cards()
    earlier = _earlier_sets(800, real_copies)
    sets = {"hits-train": index_hit_views(600, 720)}
    sets |= {k: v for k, v in earlier.items() if k.endswith("-train")}
    sets |= {"real-shaken-train": shaken_views(photos, "train", 12, 871)}
    if small:
        sets |= {"real-small-train": small_views(photos, "train", 12, 872)}
    sets |= {"hits-heldout": index_hit_views(150, 10_720)}
    sets |= {k: v for k, v in earlier.items() if not k.endswith("-train")}
    sets |= {"real-shaken-heldout": shaken_views(photos, "test", 4, 10_871)}
    if small:
        sets |= {"real-small-heldout": small_views(photos, "test", 4, 10_872)}
    _fine_tune(out, init, sets, epochs, max_lr=3e-4, started=t0)


def small_views(
    photos: Sequence[tuple[np.ndarray, list[RealCard]]], split: str, sizes: int, seed: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Corner views of one split's real cards, each photo shrunk `sizes` times to a
    webcam's scale (`real_photos.small_photos`), each card cut twice along its jittered
    quad, and a card-sized patch of each shrunk photo's background as "none"."""
    small = small_photos(_of_split(photos, split), sizes, seed)
    return _views(*real_card_samples(small, split, 2, seed))


def shaken_views(
    photos: Sequence[tuple[np.ndarray, list[RealCard]]], split: str, shakes: int, seed: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Corner views of one split's real cards, each photo shaken `shakes` times
    (`real_photos.shaken_photos`), each card cut twice along its jittered quad, and a
    card-sized patch of each shaken photo's background as "none"."""
    shaken = shaken_photos(_of_split(photos, split), shakes, seed)
    return _views(*real_card_samples(shaken, split, 2, seed))


def _of_split(
    photos: Sequence[tuple[np.ndarray, list[RealCard]]], split: str
) -> list[tuple[np.ndarray, list[RealCard]]]:
    """The photos of one split that hold a labelled card (a photo's cards share its split)."""
    return [photo for photo in photos if photo[1] and photo[1][0].split == split]


def index_tune(
    out: Path,
    init: Path,
    epochs: int = 4,
    n_hit_scenes: int = 600,
    real_copies: int = 24,
    true_patches: bool = False,
) -> None:
    """The index reader: `init` (the corner reader) fine-tuned on the patches the index
    finder's hits cut (`card_samples.index_hit_views`), so that a card seen by its index
    alone reads as surely as one read whole, and a pip or a neighbour's print under a hit
    reads as none. A model of its own: the same fine-tune as the corner reader read 20,
    16 and 12 cards fewer on three sets of 200 playing tuning scenes. With `true_patches`
    (`cards-index-tune`, from the shipped file, 3 epochs; measured, not shipped:
    models/README.md) it also learns each index in sight cut along its card's true
    outline, moved a little, and jokers' corners as none.

    600 rendered scenes (stream seed 720; half close-up heaps) give the hits' patches at
    the three scales the runtime reads; 800 scenes cut along the finders' quads (seed
    700), 600 along true corners (seed 800), 8,000 single cards (seed 1) and the real
    train split keep what the model learned before; held out: 150 more hit scenes (seed
    10,720), 200 found-quad scenes (seed 10,700) and the real test split. One-cycle lr
    5e-4, batch 128, two threads.
    """
    from .card_samples import index_hit_views

    torch.manual_seed(0)
    torch.set_num_threads(2)
    t0 = time.time()
    hits = index_hit_views(n_hit_scenes, 720, true_patches=true_patches)
    earlier = _earlier_sets(800, real_copies)
    held_out = index_hit_views(150, 10_720)
    # the same order as the shipped file's run: the training sets, then the held-out ones
    sets = {"hits-train": hits}
    sets |= {k: v for k, v in earlier.items() if k.endswith("-train")}
    sets |= {"hits-heldout": held_out}
    sets |= {k: v for k, v in earlier.items() if not k.endswith("-train")}
    _fine_tune(out, init, sets, epochs, max_lr=5e-4, started=t0)


def _earlier_sets(
    n_found: int, real_copies: int
) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """What a fine-tune keeps the corner reader's earlier stages with: `n_found` scenes
    cut along the finders' quads (stream seed 700), 600 along true corners (seed 800),
    8,000 single cards (seed 1) and the real train split; held out: 200 found-quad scenes
    (seed 10,700) and the real test split."""
    photos = load_real_cards()
    return {
        "found-train": _views(*found_cards(n_found, 700)),
        "scene-train": _views(*scene_cards(600, 800)),
        "synth-train": _views(*synthetic_cards(8000, 1)),
        "real-train": _views(*real_card_samples(photos, "train", real_copies, 0)),
        "found-heldout": _views(*found_cards(200, 10_700)),
        "real-test": _views(*real_card_samples(photos, "test", 1, 1, jitter=0.0)),
    }


def _fine_tune(
    out: Path,
    init: Path,
    sets: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]],
    epochs: int,
    max_lr: float,
    started: float,
) -> None:
    """Fine-tune the exported model `init` on `sets` (`fit`) and export it to `out`,
    reporting the sets' sizes, the data's time since `started` and the held-out scores
    before training."""
    report_sizes(sets, started)
    model = load_onnx(init, sets["synth-train"][0][:1024])
    print(f"before: {held_out_scores(model, sets)}", flush=True)
    fit(model, sets, epochs, 0, max_lr=max_lr)
    export(model, out)


def load_onnx(
    path: Path,
    sample: np.ndarray | None = None,
    widths: tuple[int, int, int, int] = (12, 24, 48, 64),
    size: tuple[int, int] = CORNER_SIZE,
    n_ranks: int = len(RANK_NAMES),
) -> ReaderNet:
    """A ReaderNet holding the weights of an exported model, ready to fine-tune: the corner
    reader by default, the whole-face reader with its `widths` and `size` (`whole.py`).
    With `n_ranks` one more than the file's (a class of jokers, `FoldedJokers`), the new
    class starts as the mean of the 6..King classes: a face of no game rank; with one
    fewer, the file's class of jokers is left out.

    The export folds each batch norm into its convolution (weight and `weight_bias`); the
    batch norm is rebuilt to give the same output: its scale and shift take the spread and
    mean of the folded convolution's output on `sample` (uint8 corner views; plain noise
    when None), so training mode starts where the exported model stands.
    """
    import onnx
    from onnx import numpy_helper

    weights = {  # a reader exported folded (`FoldedJokers`) holds its weights as "reader.*"
        i.name.removeprefix("reader."): torch.from_numpy(numpy_helper.to_array(i).copy())
        for i in onnx.load(str(path)).graph.initializer
    }
    model = ReaderNet(n_ranks=n_ranks, widths=widths, size=size)
    state = model.state_dict()
    for name in ("head.2.weight", "head.2.bias", "suit.weight", "suit.bias"):
        state[name] = weights[name]
    for name in ("rank.weight", "rank.bias"):
        rows = weights[name][:n_ranks]  # without a class of jokers where none is asked for
        extra = [rows[NON_GAME_FACES].mean(0, keepdim=True)] * (n_ranks - len(rows))
        state[name] = torch.cat([rows, *extra])
    model.load_state_dict(state)
    width, height = size
    if sample is None:
        x = torch.rand(256, 3, height, width)
    else:
        x = torch.from_numpy(to_model_input(sample))
    x = (x - x.mean(dim=(1, 2, 3), keepdim=True)) / (x.std(dim=(1, 2, 3), keepdim=True) + 0.05)
    with torch.no_grad():
        for i, layer in enumerate(model.features):
            if isinstance(layer, nn.Sequential):
                conv, bn = layer[0], layer[1]
                conv.weight.copy_(weights[f"features.{i}.0.weight"])
                y = conv(x)
                mean, std = y.mean(dim=(0, 2, 3)), y.std(dim=(0, 2, 3)) + 1e-4
                bn.weight.copy_(std)
                bn.bias.copy_(mean + weights[f"features.{i}.0.weight_bias"])
                bn.running_mean.copy_(mean)
                bn.running_var.copy_(std**2 - bn.eps)
            x = layer(x)
    return model


class FoldedJokers(nn.Module):
    """A reader trained with a class of jokers (`card_samples.JOKER_CLASS`, after "none"),
    as the runtime reads it, with the 15 classes it knows: the jokers' probability spread
    evenly over the classes `into` ("none" by default: no card; or the 6..King classes, a
    face of no game rank). Why a class of their own: taught as "none" by fine-tuning the
    whole reader, the readers also took an Ace's covered end, sparse print on white, for no
    card (models/README.md, "Jokers")."""

    def __init__(self, reader: ReaderNet, into: Sequence[int] = (NONE_CLASS,)) -> None:
        super().__init__()
        self.reader = reader
        self.size = reader.size
        fold = torch.zeros(1, len(RANK_NAMES))
        fold[0, list(into)] = 1.0 / len(into)
        self.register_buffer("fold", fold)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        rank, suit = self.reader(x)
        return rank[:, : len(RANK_NAMES)] + rank[:, len(RANK_NAMES) :] * self.fold, suit


def export(model: nn.Module, out: Path, input_name: str = "corners") -> None:
    """One self-contained ONNX file with a free batch dimension."""
    model.eval()
    width, height = model.size
    example = torch.zeros(2, 3, height, width)
    batch = torch.export.Dim("batch", min=1, max=4096)
    torch.onnx.export(
        model,
        (example,),
        str(out),
        input_names=[input_name],
        output_names=["rank", "suit"],
        dynamic_shapes={"x": {0: batch}},
        external_data=False,
        opset_version=18,
    )
    rewrite(out, pad=True)  # the graph onnxruntime runs fastest (speed_graph.py)
    print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB)")
