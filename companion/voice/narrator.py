"""The narrator: one thread and a queue between the game and the loudspeaker.

`say` returns at once, so speech never blocks the camera or the UI. The calls ("Bear!")
are synthesized ahead and cached, so a call is heard as soon as it is decided, and a call
cuts in: announcements from earlier batches still waiting (or still playing) are dropped
because the table has moved on. Everything said can be observed through `sink`.
"""

from __future__ import annotations

import logging
import re
import threading
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.i18n import DECKS, render
from companion.i18n.messages import CALL_MESSAGE
from companion.i18n.render import AnnouncementLike
from companion.voice.audio import Audio
from companion.voice.backends import BACKENDS, TEXT_SAMPLE_RATE, TextBackend, load_backend
from companion.voice.base import Backend
from companion.voice.player import LogPlayer, PlaybackError, Player, open_player
from companion.voice.settings import RATE_RANGE, VoiceSettings, check_settings

Sink = Callable[[str, Audio], None]
"""Called once an utterance has been said, with its text and the audio played (cut short:
what was played; no sound device or text backend: empty audio)."""

RATE_STEP = 0.1
CACHE_SIZE = 64
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class _Utterance:
    text: str
    is_call: bool
    batch: int


class Narrator:
    """Speaks announcements in `lang`, naming ranks after `deck`, on its own thread.

    `backend` is a backend name, a Backend object, or None for the best that loads;
    `player` likewise defaults to the best this machine has (a log when it has none).
    """

    def __init__(
        self,
        lang: str = "en",
        deck: str = "animals",
        backend: str | Backend | None = None,
        rate: float = 1.0,
        volume: float = 1.0,
        pause_after_call: float = 0.8,
        mute: bool = False,
        *,
        voice: str | None = None,
        player: Player | None = None,
        sink: Sink | None = None,
    ) -> None:
        check_settings(lang, rate, volume, pause_after_call)
        if deck not in DECKS:
            raise ValueError(f"unknown deck {deck!r}: expected one of {', '.join(DECKS)}")
        if isinstance(backend, str) and backend not in BACKENDS:
            raise ValueError(f"unknown voice backend {backend!r}: expected one of {BACKENDS}")
        self.lang, self.deck = lang, deck
        self.volume, self.pause_after_call = volume, pause_after_call
        self._rate = rate
        self._warmed_rate: float | None = None
        self._muted = mute
        self._requested_backend, self._voice = backend, voice
        self._backend: Backend | None = None
        self._player = player
        self._sink = sink
        self._cache: OrderedDict[tuple[str, float], Audio] = OrderedDict()
        self._pending: deque[_Utterance] = deque()
        self._current: _Utterance | None = None
        self._last_text: str | None = None
        self._batch = 0
        self._cut_batch = 0  # utterances of earlier batches are stale
        self._closing = False
        self._changed = threading.Condition()
        self._cut = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="narrator", daemon=True)
        self._thread.start()

    @classmethod
    def from_settings(
        cls, settings: VoiceSettings, deck: str = "animals", **extra: Any
    ) -> Narrator:
        """A narrator configured by saved settings (`extra`: player, sink)."""
        return cls(
            settings.lang,
            deck,
            settings.backend,
            settings.rate,
            settings.volume,
            settings.pause_after_call,
            settings.mute,
            voice=settings.voice,
            **extra,
        )

    # -- the game side: all of these return at once ------------------------------------

    def say(self, *items: AnnouncementLike | str, cut_in: bool | None = None) -> None:
        """Queue announcements (or plain texts) as one batch, rendered in the table's language.

        A batch with a call cuts in unless `cut_in` is False; `cut_in=True` forces it.
        """
        utterances = [self._utterance(item) for item in items]
        cuts = any(u.is_call for u in utterances) if cut_in is None else cut_in
        with self._changed:
            self._batch += 1
            batch = self._batch
            if cuts:
                self._cut_batch = batch
                self._pending.clear()
                current = self._current
                if current is not None and not current.is_call:
                    self._stop_playback()
                self._cut.set()  # also ends a pause after an earlier call
            self._pending.extend(_Utterance(u.text, u.is_call, batch) for u in utterances)
            self._changed.notify_all()

    def repeat(self) -> None:
        """Say the last utterance again."""
        if self._last_text is not None:
            self.say(self._last_text, cut_in=False)

    def mute(self) -> None:
        """Stop speaking (the current utterance is cut); announcements are still tracked."""
        self._muted = True
        self._stop_playback()

    def unmute(self) -> None:
        """Speak again from the next announcement on."""
        self._muted = False

    @property
    def muted(self) -> bool:
        """True while muted."""
        return self._muted

    @property
    def rate(self) -> float:
        """Speech rate: 1.0 natural, within RATE_RANGE."""
        return self._rate

    def set_rate(self, rate: float) -> None:
        """Change the speech rate; the cached calls are redone at the new rate."""
        check_settings(self.lang, rate, self.volume, self.pause_after_call)
        with self._changed:
            self._rate = rate
            self._changed.notify_all()

    def slower(self) -> None:
        """One step slower (bounded by RATE_RANGE)."""
        self.set_rate(round(max(RATE_RANGE[0], self._rate - RATE_STEP), 2))

    def faster(self) -> None:
        """One step faster (bounded by RATE_RANGE)."""
        self.set_rate(round(min(RATE_RANGE[1], self._rate + RATE_STEP), 2))

    @property
    def backend(self) -> Backend | None:
        """The backend in use, once loaded (see `wait_ready`)."""
        return self._backend

    @property
    def player_name(self) -> str | None:
        """How speech is played ("sounddevice", "aplay", "log"...), once chosen."""
        return None if self._player is None else self._player.name

    @property
    def last_text(self) -> str | None:
        """The last utterance spoken (or skipped while muted)."""
        return self._last_text

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Wait until the backend and the player are chosen (`backend` is then set)."""
        return self._ready.wait(timeout)

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until everything queued has been said; False if `timeout` ran out."""
        with self._changed:
            return self._changed.wait_for(self._idle, timeout)

    def _idle(self) -> bool:
        """Nothing queued or playing, and the calls cached at the current rate."""
        if self._closing:
            return True
        calls_ready = self._ready.is_set() and self._warmed_rate == self._rate
        return not self._pending and self._current is None and calls_ready

    def close(self, timeout: float = 2.0) -> None:
        """Stop speaking, drop what is queued and end the thread."""
        with self._changed:
            self._closing = True
            self._pending.clear()
            self._changed.notify_all()
        self._cut.set()
        self._stop_playback()
        self._thread.join(timeout)

    def __enter__(self) -> Narrator:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- the narrator thread -----------------------------------------------------------

    def _utterance(self, item: AnnouncementLike | str) -> _Utterance:
        if isinstance(item, str):
            return _Utterance(item, False, 0)
        if not hasattr(item, "msg") or not hasattr(item, "params"):
            raise TypeError(f"expected an Announcement or a str, got {type(item).__name__}")
        return _Utterance(render(item, self.lang, self.deck), item.msg == CALL_MESSAGE, 0)

    def _stop_playback(self) -> None:
        if self._player is not None:
            self._player.stop()

    def _run(self) -> None:
        try:
            self._start()
        except Exception:  # whatever broke, the game goes on with the text shown
            log.exception("narrator: speech could not start; showing the text only")
            self._backend, self._player = TextBackend(self.lang), LogPlayer()
        finally:
            self._ready.set()
        while True:
            with self._changed:
                self._changed.wait_for(
                    lambda: self._pending or self._closing or self._warmed_rate != self._rate
                )
                if self._closing:
                    return
                if not self._pending:  # idle, and the calls are not cached at this rate
                    utterance = None
                else:
                    utterance = self._current = self._pending.popleft()
                    self._cut.clear()
            if utterance is None:
                self._warm_calls()
                continue
            try:
                self._speak(utterance)
            except Exception:  # a bug in a backend or player must not silence the game
                log.exception("narrator: could not say %r", utterance.text)
            finally:
                with self._changed:
                    self._current = None
                    self._changed.notify_all()

    def _start(self) -> None:
        requested = self._requested_backend
        if requested is None or isinstance(requested, str):
            self._backend = load_backend(self.lang, requested, self._voice)
        else:
            self._backend = requested
        if self._player is None:
            self._player = open_player()
        log.info(
            "narrator: %s voice %s (%s), playing through %s",
            self._backend.name,
            self._backend.voice,
            self.lang,
            self._player.name,
        )

    def _warm_calls(self) -> None:
        """Synthesize the five calls ahead, so that a call waits for no synthesis.

        Then "No bear." and the like, which usually come just before the next call. Done
        whenever the queue is empty and the calls are not cached at the current rate (at
        start, after a rate change), so that no announcement waits for it.
        """
        rate = self._rate
        for msg in (CALL_MESSAGE, "nobody"):
            for rank in range(1, 6):
                self._speech(render(_RankMessage(msg, rank), self.lang, self.deck))
        with self._changed:
            self._warmed_rate = rate
            self._changed.notify_all()

    def _speech(self, text: str) -> Audio:
        key = (text, self._rate)
        audio = self._cache.get(key)
        if audio is None:
            assert self._backend is not None
            try:
                audio = self._backend.synthesize(text, self._rate)
            except Exception as error:  # a broken voice must not end the narration
                log.warning("speech synthesis failed (%s): showing the text only", error)
                return Audio(b"", TEXT_SAMPLE_RATE)
            self._cache[key] = audio
            if len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(key)
        return audio

    def _speak(self, utterance: _Utterance) -> None:
        """Say one utterance sentence by sentence: the first is heard while the next is made."""
        self._last_text = utterance.text
        if self._muted:
            return
        assert self._backend is not None
        speaking = self._backend.makes_audio and not isinstance(self._player, LogPlayer)
        log.info("%s: %s", "says" if speaking else "would say", utterance.text)
        parts = _sentences(utterance.text) if speaking else []
        said: list[Audio] = []
        for index, part in enumerate(parts):
            if self._stale(utterance):
                break
            audio = self._speech(part).scaled(self.volume)
            if self._stale(utterance):
                break  # a call cut in while this was being synthesized
            self._play(audio, part, parts[index + 1] if index + 1 < len(parts) else None)
            said.append(audio)
        self._report(utterance.text, said)
        if utterance.is_call:
            self._cut.wait(self.pause_after_call)

    def _stale(self, utterance: _Utterance) -> bool:
        return self._muted or utterance.batch < self._cut_batch

    def _report(self, text: str, said: list[Audio]) -> None:
        if self._sink is None:
            return
        rate = said[0].sample_rate if said else TEXT_SAMPLE_RATE
        try:
            self._sink(text, Audio(b"".join(audio.pcm for audio in said), rate))
        except Exception:
            log.exception("narrator sink failed")

    def _play(self, audio: Audio, text: str, upcoming: str | None) -> None:
        """Play `audio`, synthesizing what comes next meanwhile; log it if sound fails."""
        assert self._player is not None
        if not audio.pcm:
            return
        try:
            self._player.start(audio, text)
            self._synthesize_ahead(upcoming)
            self._player.wait()
        except PlaybackError as why:
            log.warning("%s: speech is logged from now on", why)
            log.info("would say: %s", text)
            self._player = LogPlayer()

    def _synthesize_ahead(self, upcoming: str | None) -> None:
        """Fill the cache with the next sentence: of this utterance, else of the queue."""
        if upcoming is None:
            with self._changed:
                queued = self._pending[0].text if self._pending else None
            upcoming = _sentences(queued)[0] if queued else None
        if upcoming is not None:
            self._speech(upcoming)


def _sentences(text: str) -> list[str]:
    """The sentences of `text`, each spoken as soon as it is synthesized."""
    return [part for part in _SENTENCE_END.split(text.strip()) if part] or [text]


@dataclass(frozen=True, slots=True)
class _RankMessage:
    """A message whose only param is a rank ("call", "nobody"), as the rules announce it."""

    msg: str
    rank: int

    @property
    def params(self) -> dict[str, object]:
        return {"rank": self.rank}
