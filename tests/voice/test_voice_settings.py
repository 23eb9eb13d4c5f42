"""Voice settings: kept in a JSON file, validated, never blocking a game."""

from __future__ import annotations

import pytest

from companion.voice import VoiceSettings, load_settings, save_settings


def test_settings_round_trip(tmp_path):
    path = tmp_path / "voice.json"
    wanted = VoiceSettings(lang="fr", backend="espeak", voice="fr-BE", rate=1.3, volume=0.5)
    save_settings(wanted, path)
    assert load_settings(path) == wanted


def test_missing_file_gives_defaults(tmp_path):
    assert load_settings(tmp_path / "none.json") == VoiceSettings()


@pytest.mark.parametrize("content", ["{not json", '{"rate": 99}', "[1, 2]", '{"lang": "xx"}'])
def test_damaged_file_gives_defaults_with_a_warning(tmp_path, caplog, content):
    path = tmp_path / "voice.json"
    path.write_text(content)
    assert load_settings(path) == VoiceSettings()
    assert "ignoring voice settings" in caplog.text


def test_updated_validates_and_keeps_unset_values():
    base = VoiceSettings(lang="de")
    assert base.updated(rate=1.5, lang=None).lang == "de"
    with pytest.raises(ValueError, match=r"volume must be a number from 0\.0 to 2\.0"):
        base.updated(volume=-1)


def test_changing_language_forgets_the_voice_of_the_old_one():
    french = VoiceSettings(lang="fr", backend="espeak", voice="fr-BE")
    assert french.updated(lang="de").voice is None
    assert french.updated(lang="de", voice="de").voice == "de"
    assert french.updated(lang="fr").voice == "fr-BE"
