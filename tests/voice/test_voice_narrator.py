"""The narrator thread: queue, cut-in, cached calls, mute, repeat, rate, sink."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from voice_fakes import FakeBackend, HeldPlayer

from companion.voice import Audio, Narrator

WAIT = 5.0  # generous: only a bound for a broken test, never a measured timing


@dataclass(frozen=True)
class Note:
    msg: str
    params: dict = field(default_factory=dict)


CALLS = ["Bear!", "Wolf!", "Lynx!", "Owl!", "Mouse!"]


@pytest.fixture
def fake_backend() -> FakeBackend:
    return FakeBackend()


def _narrator(backend, player, **options) -> tuple[Narrator, list[tuple[str, Audio]]]:
    heard: list[tuple[str, Audio]] = []
    narrator = Narrator(
        backend=backend,
        player=player,
        pause_after_call=0.0,
        sink=lambda text, audio: heard.append((text, audio)),
        **options,
    )
    assert narrator.wait_ready(WAIT)
    return narrator, heard


def test_announcements_are_rendered_and_heard_in_order(fake_backend):
    narrator, heard = _narrator(fake_backend, HeldPlayer())
    with narrator:
        narrator.say(Note("round_start", {"round": 1, "caller": "Alia"}), "Plain text.")
        assert narrator.wait_idle(WAIT)
    assert [text for text, _ in heard] == ["Round 1. Alia calls.", "Plain text."]
    assert all(audio.pcm for _, audio in heard)


def test_calls_are_synthesized_ahead(fake_backend):
    narrator, _ = _narrator(fake_backend, HeldPlayer())
    with narrator:
        assert narrator.wait_idle(WAIT)
        assert [text for text, _ in fake_backend.synthesized][:5] == CALLS
        assert ("No owl.", 1.0) in fake_backend.synthesized
        warmed = len(fake_backend.synthesized)
        narrator.say(Note("nobody", {"rank": 2}), Note("call", {"rank": 3}))
        assert narrator.wait_idle(WAIT)
    assert len(fake_backend.synthesized) == warmed  # both came from the cache


def test_a_call_cuts_stale_announcements(fake_backend):
    player = HeldPlayer(hold=("Old news.",))
    narrator, heard = _narrator(fake_backend, player)
    with narrator:
        narrator.say("Old news.")
        assert player.playing.wait(WAIT)
        narrator.say("Stale one.")
        narrator.say("Stale two.")
        narrator.say(Note("nobody", {"rank": 1}), Note("call", {"rank": 2}))
        assert narrator.wait_idle(WAIT)
    assert player.stops >= 1  # the old announcement was cut while playing
    assert [text for text, _ in heard] == ["Old news.", "No bear.", "Wolf!"]


def test_without_a_call_nothing_is_cut(fake_backend):
    player = HeldPlayer(hold=("First.",))
    narrator, heard = _narrator(fake_backend, player)
    with narrator:
        narrator.say("First.")
        assert player.playing.wait(WAIT)
        narrator.say("Second.")
        player.release()
        assert narrator.wait_idle(WAIT)
    assert [text for text, _ in heard] == ["First.", "Second."]


def test_mute_then_repeat(fake_backend):
    narrator, heard = _narrator(fake_backend, HeldPlayer(), mute=True)
    with narrator:
        narrator.say("Quiet please.")
        assert narrator.wait_idle(WAIT)
        assert heard == [] and narrator.last_text == "Quiet please."
        narrator.unmute()
        narrator.repeat()
        assert narrator.wait_idle(WAIT)
    assert [text for text, _ in heard] == ["Quiet please."]


def test_rate_change_redoes_the_calls(fake_backend):
    narrator, _ = _narrator(fake_backend, HeldPlayer())
    with narrator:
        narrator.faster()
        narrator.say("Go.")
        assert narrator.wait_idle(WAIT)
        narrator.close()
    assert narrator.rate == 1.1
    assert {text for text, rate in fake_backend.synthesized if rate == 1.1} >= set(CALLS)


def test_volume_scales_what_is_heard():
    narrator, heard = _narrator(FakeBackend(), HeldPlayer(), volume=0.0)
    with narrator:
        narrator.say("Whisper.")
        assert narrator.wait_idle(WAIT)
    assert not heard[0][1].samples().any()


def test_a_broken_voice_still_shows_the_text():
    narrator, heard = _narrator(FakeBackend(fail=True), HeldPlayer())
    with narrator:
        narrator.say("Still here.")
        assert narrator.wait_idle(WAIT)
    assert heard == [("Still here.", Audio(b"", 22050))]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"backend": "festival"}, "unknown voice backend"),
        ({"rate": 3.0}, "rate must be a number from 0.5 to 2.0"),
        ({"lang": "it"}, "language 'it' unknown"),
        ({"deck": "tarot"}, "unknown deck"),
    ],
)
def test_bad_settings_say_what_was_expected(options, message):
    with pytest.raises(ValueError, match=message):
        Narrator(**options)


def test_say_rejects_other_objects(fake_backend):
    with _narrator(fake_backend, HeldPlayer())[0] as narrator, pytest.raises(TypeError):
        narrator.say(42)


def test_speech_goes_sentence_by_sentence_and_the_sink_gets_the_whole(fake_backend):
    player = HeldPlayer()
    narrator, heard = _narrator(fake_backend, player)
    with narrator:
        narrator.say(Note("round_start", {"round": 2, "caller": "Dori"}))
        assert narrator.wait_idle(WAIT)
    assert player.played == ["Round 2.", "Dori calls."]
    text, audio = heard[0]
    assert text == "Round 2. Dori calls." and len(audio.pcm) == 2 * 440


def test_a_call_cuts_between_sentences(fake_backend):
    player = HeldPlayer(hold=("Only Carmen.",))
    narrator, heard = _narrator(fake_backend, player)
    with narrator:
        narrator.say(Note("lone_hunter", {"player": "Carmen", "rank": 3}))
        assert player.playing.wait(WAIT)
        narrator.say(Note("call", {"rank": 4}))
        assert narrator.wait_idle(WAIT)
    assert player.played == ["Only Carmen.", "Owl!"]
    assert [text for text, _ in heard] == [
        "Only Carmen. The lynx hunts: name your prey.",
        "Owl!",
    ]
