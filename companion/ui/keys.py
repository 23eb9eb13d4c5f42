"""Every key of the table screen, in one place: the bindings and the help overlay read it.

Keeping the list here means the help overlay cannot drift from what the keys really do,
and a test can check that every binding has a line of help.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding, BindingType


@dataclass(frozen=True, slots=True)
class KeyHelp:
    """One line of the help overlay: the keys as printed, and what they do when."""

    keys: str
    does: str


TABLE_BINDINGS: list[BindingType] = [
    *(Binding(str(n), f"digit({n})", f"seat {n}", show=False) for n in range(1, 6)),
    Binding("a", "all_played", "all played"),
    Binding("enter", "confirm", "confirm"),
    Binding("n", "nobody", "nobody / no hunt"),
    Binding("escape", "clear", "clear marks", show=False),
    Binding("u", "undo", "undo"),
    Binding("x", "ignore_stuck", "ignore what is left", show=False),
    Binding("c", "correct", "correct"),
    Binding("m", "mute", "mute"),
    Binding("r", "repeat", "repeat", show=False),
    Binding("plus,equals_sign", "faster", "faster speech", show=False, key_display="+"),
    Binding("minus", "slower", "slower speech", show=False, key_display="-"),
    Binding("question_mark", "help", "help", key_display="?"),
    Binding("q", "app.quit", "quit"),
]

TABLE_KEYS: tuple[KeyHelp, ...] = (
    KeyHelp("1 … 5", "while cards are played: that seat has put its card face down"),
    KeyHelp("a", "while cards are played: everyone still to play has played"),
    KeyHelp("1 … 5", "during a call: mark / unmark the seats that turned the called rank up"),
    KeyHelp("Enter", "during a call: confirm the marked seats (none marked: nobody)"),
    KeyHelp("n", "during a call: nobody has the called rank"),
    KeyHelp("2 … 5", "lone hunter: first the rank of the prey the hunter names"),
    KeyHelp("1 … 5", "lone hunter, after the prey: mark the seats that turned that rank up"),
    KeyHelp("Enter", "lone hunter: confirm the prey and the eaten seats (none: prey missing)"),
    KeyHelp("n", "lone hunter: the hunter does not hunt"),
    KeyHelp("Escape", "clear the marks not yet confirmed"),
    KeyHelp("u", "undo the last fact"),
    KeyHelp("x", "camera play, table not clear: ignore what the camera still sees there"),
    KeyHelp("c", "correct an earlier fact: pick it, then pick what really happened"),
    KeyHelp("m", "mute / unmute the voice"),
    KeyHelp("r", "repeat the last announcement"),
    KeyHelp("+  -", "speak faster / slower"),
    KeyHelp("?", "this help"),
    KeyHelp("Ctrl+P", "command palette: every action by name"),
    KeyHelp("q", "quit (the game is saved after every fact; play --resume continues it)"),
)
