"""`companion replay`: NOT BUILT YET (placeholder until its issue lands)."""

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="(not built yet)")
    p.set_defaults(func=lambda args: print("companion replay: not built yet") or 1)
