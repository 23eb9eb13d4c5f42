"""`companion bench vision|voice|live`: the measured figures of each layer.

Each target is a module with `add_arguments(parser)` and `main(args) -> int`. It is
imported only when its benchmark runs, so `companion --help` stays fast and a layer
that is missing or broken says so instead of breaking the whole command.
"""

from __future__ import annotations

import argparse
import importlib
import sys

TARGETS = {
    "vision": ("companion.vision.bench", "card finding and reading: speed, accuracy, phantoms"),
    "voice": ("companion.voice.bench", "speech: time to first sound, real-time factor"),
    "live": ("companion.referee.bench", "camera to referee: frames to a confirmed change"),
}


def register(sub: argparse._SubParsersAction) -> None:
    lines = "\n".join(f"  {name:<8} {text}" for name, (_, text) in TARGETS.items())
    p = sub.add_parser(
        "bench",
        help="measure speed and accuracy (vision, voice, live)",
        description=f"Benchmarks:\n{lines}\n\n`companion bench TARGET --help` lists its options.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("target", choices=sorted(TARGETS), help="what to measure")
    p.add_argument("options", nargs=argparse.REMAINDER, help="the target's own options")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    module_name, description = TARGETS[args.target]
    try:
        module = importlib.import_module(module_name)
        add_arguments, main = module.add_arguments, module.main
    except (ImportError, AttributeError) as err:
        print(
            f"companion bench {args.target}: not available ({module_name}: {err})",
            file=sys.stderr,
        )
        return 2
    parser = argparse.ArgumentParser(prog=f"companion bench {args.target}", description=description)
    add_arguments(parser)
    return int(main(parser.parse_args(args.options)) or 0)
