"""Example table logs shipped with the package (for the demo, the docs and the tests)."""

from __future__ import annotations

from importlib import resources

DEMO_GAME = "four-players.jsonl"


def list_examples() -> tuple[str, ...]:
    """The file names of the shipped example logs."""
    files = resources.files(__name__).iterdir()
    return tuple(sorted(f.name for f in files if f.name.endswith(".jsonl")))


def read_example(name: str) -> str:
    """The text of one shipped example log (`name` as listed by `list_examples`)."""
    if name not in list_examples():
        raise FileNotFoundError(
            f"no example log {name!r}: expected one of {', '.join(list_examples())}"
        )
    return resources.files(__name__).joinpath(name).read_text("utf-8")
