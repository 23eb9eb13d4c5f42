"""The table's language and voice, as the dashboard uses them.

Every announcement is shown as text (rendered by `companion.i18n` in the table's
language and deck) and, when a narrator is attached, spoken. Tests and `--mute` runs
may have no narrator at all: the voice keys then answer with a notice instead of
failing, and the screen works the same.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from companion.i18n import rank_name, render
from companion.rules.narration import Announcement


class NarratorLike(Protocol):
    """What the dashboard needs of `companion.voice.Narrator` (renders and speaks itself)."""

    def say(self, *items: Announcement | str) -> None: ...
    def mute(self) -> None: ...
    def unmute(self) -> None: ...
    def repeat(self) -> None: ...
    def faster(self) -> None: ...
    def slower(self) -> None: ...
    def close(self) -> None: ...

    @property
    def muted(self) -> bool: ...

    @property
    def rate(self) -> float: ...


class TableVoice:
    """Renders announcements for the screen and hands them to the narrator, if any."""

    def __init__(
        self, lang: str = "en", deck: str = "animals", narrator: NarratorLike | None = None
    ) -> None:
        self.lang = lang
        self.deck = deck
        self.narrator = narrator

    def text(self, announcement: Announcement) -> str:
        """The announcement in the table's language."""
        return render(announcement, self.lang, self.deck)

    def rank(self, rank: int) -> str:
        """A rank's name in the table's deck and language ("Lynx", "3")."""
        return rank_name(rank, self.lang, self.deck)

    def speak(self, announcements: Iterable[Announcement]) -> None:
        """Say the announcements as one batch (a call in it cuts in on older speech)."""
        batch = tuple(announcements)
        if self.narrator is not None and batch:
            self.narrator.say(*batch)

    def toggle_mute(self) -> str:
        """Mute or unmute; the notice to show."""
        if self.narrator is None:
            return "No voice is attached (text only): nothing to mute."
        if self.narrator.muted:
            self.narrator.unmute()
            return "Voice on."
        self.narrator.mute()
        return "Voice muted."

    def repeat(self) -> str:
        """Say the last announcement again; the notice to show."""
        if self.narrator is None:
            return "No voice is attached (text only): see the event log."
        self.narrator.repeat()
        return "Repeating."

    def faster(self) -> str:
        """One step faster; the notice to show."""
        if self.narrator is None:
            return "No voice is attached (text only): no speech rate to change."
        self.narrator.faster()
        return f"Speech rate {self.narrator.rate:.1f}×."

    def slower(self) -> str:
        """One step slower; the notice to show."""
        if self.narrator is None:
            return "No voice is attached (text only): no speech rate to change."
        self.narrator.slower()
        return f"Speech rate {self.narrator.rate:.1f}×."
