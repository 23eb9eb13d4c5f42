"""`companion detect`: NOT BUILT YET (placeholder until its issue lands)."""

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("detect", help="(not built yet)")
    p.set_defaults(func=lambda args: print("companion detect: not built yet") or 1)
