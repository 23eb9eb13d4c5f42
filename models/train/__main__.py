"""`python -m models.train MODEL [--seed N] [--epochs N] [--out FILE]`: rebuild a model."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# The models live in models/; the package links to them (companion/vision/models_data/).
MODELS_DATA = Path(__file__).resolve().parents[1]
# The sixth finder stage's passes (seed, peak learning rate, minutes, tables of faint
# backs; models/README.md) and the file each writes: the playing deck's, one gentle pass
# (recipe B at 1e-4); the enrolled decks' net for backs of any design, the bolder recipe
# A, a second pass from it, and a third with tables of faint backs too.
BACKS_PASSES = {
    "finder-backs": ("card_finder_backs.onnx", ((13, 1e-4, 25.0, 0),)),
    "finder-backs-enrolled": (
        "card_finder_backs_enrolled.onnx",
        ((11, 3e-4, 25.0, 0), (14, 1.5e-4, 20.0, 0), (15, 1e-4, 25.0, 1000)),
    ),
}

# `finder-rows`' passes, as the sixth stage's: the playing deck's net on tables of cards
# laid in touching rows too; measured, not shipped (models/README.md, card finder,
# "Fifty-fourth stop").
ROW_PASSES = ((16, 1.5e-4, 25.0, 0), (17, 1e-4, 20.0, 0))


def _finder_passes(
    out: Path, init: Path, passes: tuple[tuple[int, float, float, int], ...], rows: int = 0
) -> None:
    """Fine-tune the finder `init` pass after pass (seed, peak learning rate, minutes,
    tables of faint backs), each from the last, on the sixth stage's scenes (crowded
    tables, designed backs, small cards weighed more) and `rows` tables laid in rows;
    write `out`."""
    from . import finder

    for seed, peak_lr, minutes, faint in passes:
        finder.tune(
            out,
            init=init,
            seed=seed,
            peak_lr=peak_lr,
            crowded=finder.CROWD_SAMPLES,
            designed=finder.DESIGN_SAMPLES,
            faint=faint,
            rows=rows,
            small_cards=True,
            minutes=minutes,
        )
        init = out  # each pass goes on from the last


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m models.train", description=__doc__)
    parser.add_argument(
        "model",
        choices=(
            "cards",
            "cards-tune",
            "cards-index",
            "cards-index-tune",
            "cards-index-shaken",
            "cards-index-small",
            "cards-backs",
            "cards-shaken",
            "cards-jokers",
            "cards-joker-row",
            "whole",
            "whole-backs",
            "whole-jokers",
            "whole-joker-faces",
            "whole-joker-class",
            "whole-joker-row",
            "embed",
            "finder",
            "finder-tune",
            "finder-crowd",
            "finder-backs",
            "finder-backs-enrolled",
            "finder-rows",
            "finder-fast",
            "finder-fast-enrolled",
            "index",
            "demo-deck",
            "evaluate",
            "lost",
        ),
        help="what to rebuild or measure",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--deck",
        choices=("playing-cards", "animals"),
        default="playing-cards",
        help="lost: whose tuning tables to read (playing-cards)",
    )
    parser.add_argument("--tables", type=int, default=300, help="lost: tuning tables (300)")
    parser.add_argument(
        "--rows", action="store_true", help="lost: tables laid in touching rows (4,450,000+)"
    )
    parser.add_argument(
        "--epochs",
        type=int,
        help="training epochs (cards 10, cards-tune 6, whole 10, cards-backs, whole-backs, "
        "cards-jokers and whole-jokers 4, cards-index-shaken, cards-index-small and "
        "cards-shaken 3)",
    )
    parser.add_argument("--synth", type=int, default=16_000, help="synthetic cards to render")
    parser.add_argument("--out", type=Path, help="ONNX file to write (default: the shipped one)")
    parser.add_argument(
        "--init",
        type=Path,
        help="finder-tune, finder-crowd, finder-backs, finder-backs-enrolled, finder-rows: the "
        "exported finder to start from "
        "(default: the shipped third stage for finder-tune, the playing deck's shipped "
        "finder for finder-rows, the shipped finder for the others); finder-fast, "
        "finder-fast-enrolled: the teacher (default: the playing "
        "deck's finder, the enrolled decks'); cards-index: the corner reader to start from "
        "(default: the shipped one); cards-index-tune, cards-index-shaken, cards-index-small: the "
        "index reader to start from (default: the shipped one); whole-joker-row: the whole-face "
        "reader's second stage (default: the shipped file, itself the third stage)",
    )
    args = parser.parse_args()
    from companion.vision.synth.art.text_engine import text_engine_note

    if (note := text_engine_note()) is not None:  # the shipped models do not reproduce
        print(f"python -m models.train: {note}", file=sys.stderr)
    if args.model == "lost":
        if args.tables < 1:
            parser.error("--tables must be 1 or more")
        from .lost import main as lost

        try:
            lost(args.deck, args.tables, rows=args.rows)
        except ValueError as err:  # tables reaching the held-out seeds
            parser.error(str(err))
        return
    if args.model == "evaluate":
        from .evaluate import main as evaluate

        evaluate()
        return
    if args.model == "embed":
        from . import embed

        embed.train(args.out or MODELS_DATA / "card_embed.onnx", seed=args.seed)
        return
    if args.model == "whole":
        from . import whole

        whole.train(args.out or MODELS_DATA / "playing_whole.onnx", epochs=args.epochs or 10)
        return
    if args.model == "whole-backs":  # the whole-face reader's second stage, after whole
        from . import whole

        out = args.out or MODELS_DATA / "playing_whole.onnx"
        whole.backs_tune(out, init=MODELS_DATA / "playing_whole.onnx", epochs=args.epochs or 4)
        return
    if args.model == "whole-jokers":  # the whole-face reader's third stage, after whole-backs
        from . import whole

        out = args.out or MODELS_DATA / "playing_whole.onnx"
        whole.jokers_tune(out, init=MODELS_DATA / "playing_whole.onnx", epochs=args.epochs or 4)
        return
    if args.model == "whole-joker-faces":  # the same, jokers taught as faces of no rank
        from . import whole
        from .card_samples import JOKER_AS_FACE

        out = args.out or MODELS_DATA / "playing_whole.onnx"
        init = MODELS_DATA / "playing_whole.onnx"
        whole.jokers_tune(out, init=init, epochs=args.epochs or 4, label=JOKER_AS_FACE)
        return
    if args.model == "whole-joker-class":  # the same, jokers a class of their own
        from . import whole
        from .card_samples import JOKER_CLASS

        out = args.out or MODELS_DATA / "playing_whole.onnx"
        init = MODELS_DATA / "playing_whole.onnx"
        whole.jokers_tune(out, init=init, epochs=args.epochs or 4, label=JOKER_CLASS)
        return
    if args.model == "whole-joker-row":  # the same class, only its row learned
        from . import whole

        out = args.out or MODELS_DATA / "playing_whole.onnx"
        whole.joker_row_tune(out, init=args.init or MODELS_DATA / "playing_whole.onnx")
        return
    if args.model == "finder":
        from . import finder

        finder.train(args.out or MODELS_DATA / "card_finder_close.onnx", seed=args.seed)
        return
    if args.model == "finder-tune":
        from . import finder

        out = args.out or MODELS_DATA / "card_finder.onnx"
        init = args.init or MODELS_DATA / "card_finder_close.onnx"  # the third stage
        finder.tune(out, init=init, seed=5, peak_lr=5e-4)
        finder.tune(out, init=out, seed=6, peak_lr=3e-4)
        return
    if args.model == "finder-crowd":  # the fifth stage, after finder-tune
        from . import finder

        out = args.out or MODELS_DATA / "card_finder.onnx"
        crowded = finder.CROWD_SAMPLES
        finder.tune(out, init=args.init or out, seed=7, peak_lr=3e-4, crowded=crowded)
        finder.tune(out, init=out, seed=8, peak_lr=2e-4, crowded=crowded)
        finder.tune(out, init=out, seed=9, peak_lr=2e-4, crowded=crowded, small_cards=True)
        return
    if args.model in ("finder-fast", "finder-fast-enrolled"):  # measured, not shipped
        from . import fast_finder

        if args.out is None:
            parser.error(f"{args.model} writes a net the runtime does not use: give --out FILE")
        playing = args.model == "finder-fast"
        teacher = "card_finder_backs.onnx" if playing else "card_finder.onnx"
        fast_finder.distill(args.out, teacher=args.init or MODELS_DATA / teacher, designed=playing)
        return
    if args.model in BACKS_PASSES:  # from the fifth stage, on backs of any design too
        shipped, passes = BACKS_PASSES[args.model]
        init = args.init or MODELS_DATA / "card_finder.onnx"
        _finder_passes(args.out or MODELS_DATA / shipped, init, passes)
        return
    if args.model == "finder-rows":  # from the playing deck's sixth stage: measured, not shipped
        from . import finder

        if args.out is None:
            parser.error("finder-rows writes a net the runtime does not use: give --out FILE")
        init = args.init or MODELS_DATA / "card_finder_backs.onnx"
        _finder_passes(args.out, init, ROW_PASSES, rows=finder.ROW_SAMPLES)
        return
    if args.model == "index":
        from . import index_finder

        index_finder.train(args.out or MODELS_DATA / "index_finder.onnx", seed=args.seed)
        return
    if args.model == "demo-deck":
        from .demo_deck import make_demo_deck

        make_demo_deck()
        return
    from . import cards

    out = args.out or MODELS_DATA / "playing_cards.onnx"
    if args.model == "cards-index":  # the index reader, from the corner reader
        out = args.out or MODELS_DATA / "index_reader.onnx"
        cards.index_tune(out, init=args.init or MODELS_DATA / "playing_cards.onnx")
        return
    if args.model == "cards-index-tune":  # measured, not shipped (models/README.md)
        if args.out is None:
            parser.error(f"{args.model} writes a net the runtime does not use: give --out FILE")
        init = args.init or MODELS_DATA / "index_reader.onnx"
        cards.index_tune(args.out, init=init, epochs=args.epochs or 3, true_patches=True)
        return
    if args.model == "cards-index-shaken":  # the index reader's second stage, shipped
        out = args.out or MODELS_DATA / "index_reader.onnx"
        init = args.init or MODELS_DATA / "index_reader.onnx"
        cards.index_shaken_tune(out, init=init, epochs=args.epochs or 3)
        return
    if args.model == "cards-index-small":  # measured, not shipped (models/README.md)
        if args.out is None:
            parser.error(f"{args.model} writes a net the runtime does not use: give --out FILE")
        init = args.init or MODELS_DATA / "index_reader.onnx"
        cards.index_small_tune(args.out, init=init, epochs=args.epochs or 3)
        return
    if args.model == "cards-shaken":  # measured, not shipped (models/README.md)
        if args.out is None:
            parser.error(f"{args.model} writes a net the runtime does not use: give --out FILE")
        init = MODELS_DATA / "playing_cards.onnx"
        cards.shaken_tune(args.out, init=init, epochs=args.epochs or 3)
        return
    if args.model == "cards-tune":
        cards.tune(out, init=MODELS_DATA / "playing_cards.onnx", epochs=args.epochs or 6)
        return
    if args.model == "cards-backs":  # the corner reader's fourth stage, after cards-tune
        cards.backs_tune(out, init=MODELS_DATA / "playing_cards.onnx", epochs=args.epochs or 4)
        return
    if args.model == "cards-jokers":  # the corner reader's fifth stage, after cards-backs
        cards.jokers_tune(out, init=MODELS_DATA / "playing_cards.onnx", epochs=args.epochs or 4)
        return
    if args.model == "cards-joker-row":  # the same, a class of jokers learned alone
        cards.joker_row_tune(out, init=MODELS_DATA / "playing_cards.onnx")
        return
    cards.train(out, seed=args.seed, n_synth=args.synth, epochs=args.epochs or 10)


if __name__ == "__main__":
    main()
