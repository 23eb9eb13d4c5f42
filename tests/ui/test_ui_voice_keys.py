"""The voice keys reach the narrator; announcements are spoken in batches as they happen."""

from __future__ import annotations

from conftest import run_async

from companion.referee.session import GameSession
from companion.rules.narration import Announcement
from companion.store import Store
from companion.ui.app import CompanionApp
from companion.voice import Narrator


class RecordingNarrator:
    """Stands in for `companion.voice.Narrator`: remembers what it was asked."""

    def __init__(self) -> None:
        self.batches: list[tuple[Announcement | str, ...]] = []
        self.muted = False
        self.rate = 1.0
        self.repeats = 0
        self.closed = False

    def say(self, *items: Announcement | str) -> None:
        self.batches.append(items)

    def mute(self) -> None:
        self.muted = True

    def unmute(self) -> None:
        self.muted = False

    def repeat(self) -> None:
        self.repeats += 1

    def faster(self) -> None:
        self.rate += 0.1

    def slower(self) -> None:
        self.rate -= 0.1

    def close(self) -> None:
        self.closed = True


@run_async
async def test_voice_keys_drive_the_narrator(store: Store, session: GameSession):
    narrator = RecordingNarrator()
    decks: list[str] = []

    def narrator_for(deck: str) -> RecordingNarrator:
        decks.append(deck)
        return narrator

    app = CompanionApp(store, session=session, narrator_for=narrator_for)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("a")
        await pilot.pause()
        assert decks == ["animals"]
        said = [item.msg for batch in narrator.batches for item in batch]  # type: ignore[union-attr]
        assert said == ["round_start", "hunt_start", "call"]
        await pilot.press("m", "r", "plus", "plus", "minus")
        assert narrator.muted and narrator.repeats == 1
        assert round(narrator.rate, 1) == 1.1
        await pilot.press("m")
        assert not narrator.muted
    assert narrator.closed


@run_async
async def test_the_real_narrator_with_the_text_backend_runs_without_a_sound_device(
    store: Store, session: GameSession
):
    spoken: list[str] = []

    def narrator_for(deck: str) -> Narrator:
        return Narrator("en", deck, "text", sink=lambda text, audio: spoken.append(text))

    app = CompanionApp(store, session=session, narrator_for=narrator_for)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("a")
        assert app.narrator is not None
        app.narrator.wait_idle(5)  # type: ignore[attr-defined]
    assert "Bear!" in spoken
