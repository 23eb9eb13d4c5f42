"""The table's voice settings, kept between sessions in a small JSON file.

Stored under platformdirs' user config dir ("prey-companion/voice.json"). A missing or
damaged file gives the defaults (with a warning for a damaged one): settings must never
stop a game from starting.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

import platformdirs

from companion.i18n import LANGUAGES

RATE_RANGE = (0.5, 2.0)
VOLUME_RANGE = (0.0, 2.0)
PAUSE_RANGE = (0.0, 5.0)

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class VoiceSettings:
    """Language, backend and voice (None: automatic), rate, volume, pause after a call."""

    lang: str = "en"
    backend: str | None = None
    voice: str | None = None
    rate: float = 1.0
    volume: float = 1.0
    pause_after_call: float = 0.8
    mute: bool = False

    def validated(self) -> VoiceSettings:
        """These settings, or a ValueError saying which one is out of range."""
        check_settings(self.lang, self.rate, self.volume, self.pause_after_call)
        return self

    def updated(self, **changes: object) -> VoiceSettings:
        """A validated copy with `changes` applied (None values are left unchanged).

        A voice belongs to a language: changing the language without naming a voice goes
        back to the automatic voice of the new language.
        """
        wanted = {name: value for name, value in changes.items() if value is not None}
        if wanted.get("lang", self.lang) != self.lang and "voice" not in wanted:
            wanted["voice"] = None
        return replace(self, **wanted).validated()  # type: ignore[arg-type]


def check_settings(lang: str, rate: float, volume: float, pause_after_call: float) -> None:
    """Raise ValueError naming the first setting outside what is allowed."""
    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r} unknown: expected one of {', '.join(LANGUAGES)}")
    for name, value, (low, high) in (
        ("rate", rate, RATE_RANGE),
        ("volume", volume, VOLUME_RANGE),
        ("pause after a call", pause_after_call, PAUSE_RANGE),
    ):
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not low <= value <= high
        ):
            raise ValueError(f"{name} must be a number from {low} to {high}, got {value!r}")


def settings_path() -> Path:
    """Where the voice settings are kept."""
    return platformdirs.user_config_path("prey-companion") / "voice.json"


def load_settings(path: Path | None = None) -> VoiceSettings:
    """The saved settings, or the defaults if there are none or they cannot be read."""
    path = path or settings_path()
    if not path.exists():
        return VoiceSettings()
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
        known = {f.name for f in fields(VoiceSettings)}
        return VoiceSettings(**{k: v for k, v in stored.items() if k in known}).validated()
    except (OSError, ValueError, TypeError, AttributeError) as error:
        log.warning("ignoring voice settings in %s (%s): using the defaults", path, error)
        return VoiceSettings()


def save_settings(settings: VoiceSettings, path: Path | None = None) -> Path:
    """Write `settings` (validated first); return the file written."""
    path = path or settings_path()
    settings.validated()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(asdict(settings), indent=2) + "\n", encoding="utf-8")
    return path
