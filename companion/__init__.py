"""Prey Another Day table companion: camera, referee, scoreboard and voice for the card game."""

__version__ = "0.1.0"
