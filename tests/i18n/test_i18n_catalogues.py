"""The catalogues: complete in every language, placeholders consistent, .mo built from .po."""

from __future__ import annotations

import gettext
import io
import re
import shutil
import string
import subprocess
from pathlib import Path

import pytest

from companion.i18n import LANGUAGES
from companion.i18n.messages import (
    AMOUNT_PARAMS,
    COUNTED_BY,
    MESSAGE_PARAMS,
    RANK_FORMS,
    RANK_PARAMS,
)
from companion.i18n.po import LOCALE_DIR, PoEntry, PoError, compile_po, parse_po


def _entries(lang: str) -> list[PoEntry]:
    path = LOCALE_DIR / f"{lang}.po"
    return parse_po(path.read_text(encoding="utf-8"), str(path))


def _messages(lang: str) -> dict[str, PoEntry]:
    return {e.msgid: e for e in _entries(lang) if e.msgctxt is None and e.msgid}


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def _allowed_fields(msg: str) -> set[str]:
    allowed = set()
    for name in MESSAGE_PARAMS[msg]:
        allowed.add(name)
        if name in RANK_PARAMS:
            for form in RANK_FORMS:
                allowed |= {name + form, (name + form).capitalize()}
        if name in AMOUNT_PARAMS:
            allowed.add(name + "_amount")
    return allowed


def _base_param(field: str) -> str:
    field = field[:1].lower() + field[1:]
    for suffix in ("_the", "_no", "_amount"):
        field = field.removesuffix(suffix)
    return field


def test_languages_are_the_shipped_po_files():
    assert LANGUAGES[:3] == ("en", "fr", "de")
    assert set(LANGUAGES) == {path.stem for path in LOCALE_DIR.glob("*.po")}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_id_in_every_language(lang):
    messages = _messages(lang)
    assert set(MESSAGE_PARAMS) | {"names_and", "food_amount"} <= set(messages)
    header = next(e for e in _entries(lang) if e.msgid == "").msgstr[0]
    plurals = re.search(r"nplurals=(\d+)", header)
    assert plurals, f"{lang}.po header needs Plural-Forms"
    for msg in [*COUNTED_BY, "food_amount"]:
        assert messages[msg].msgid_plural is not None, f"{lang}: {msg} must be a plural entry"
        assert len(messages[msg].msgstr) == int(plurals.group(1)), f"{lang}: {msg} plural forms"
    assert all(text.strip() for entry in messages.values() for text in entry.msgstr.values())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rank_names_for_both_decks(lang):
    ranks = {(e.msgctxt, e.msgid) for e in _entries(lang) if e.msgctxt is not None}
    for deck in ("animals", "playing-cards"):
        for rank in range(1, 6):
            for form in RANK_FORMS:
                assert (deck, f"rank_{rank}{form}") in ranks


@pytest.mark.parametrize("lang", LANGUAGES)
def test_placeholders_are_params_of_the_message(lang):
    for msg, entry in _messages(lang).items():
        if msg not in MESSAGE_PARAMS:
            continue
        for template in entry.msgstr.values():
            unknown = _fields(template) - _allowed_fields(msg)
            assert not unknown, f"{lang} {msg}: {unknown} is not a param of the message"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_placeholders_say_the_same_things_as_english(lang):
    english, other = _messages("en"), _messages(lang)
    for msg in MESSAGE_PARAMS:
        for form, template in other[msg].msgstr.items():
            expected = {_base_param(f) for f in _fields(english[msg].msgstr[form])}
            assert {_base_param(f) for f in _fields(template)} == expected, f"{lang} {msg}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_shipped_mo_is_compiled_from_po(lang):
    mo = (LOCALE_DIR / f"{lang}.mo").read_bytes()
    assert mo == compile_po(_entries(lang)), "run: python -m companion.i18n.po"


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext msgfmt not installed")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_po_passes_msgfmt_check_and_compiles_the_same(lang, tmp_path: Path):
    po, mo = LOCALE_DIR / f"{lang}.po", tmp_path / "out.mo"
    run = subprocess.run(["msgfmt", "-c", "-o", str(mo), str(po)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    with mo.open("rb") as theirs, (LOCALE_DIR / f"{lang}.mo").open("rb") as ours:
        assert gettext.GNUTranslations(theirs)._catalog == gettext.GNUTranslations(ours)._catalog


def test_po_reader_handles_plurals_context_continuations_and_fuzzy():
    text = (
        'msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
        'msgctxt "animals"\nmsgid "rank_1"\nmsgstr "Be"\n"ar"\n\n'
        '#, fuzzy\nmsgid "old"\nmsgstr "stale"\n\n'
        'msgid "n"\nmsgid_plural "n"\nmsgstr[0] "{n} thing"\nmsgstr[1] "{n} things"\n'
    )
    entries = parse_po(text)
    keys = [(e.msgctxt, e.msgid) for e in entries]
    assert keys == [(None, ""), ("animals", "rank_1"), (None, "n")]
    assert entries[1].msgstr == {0: "Bear"}
    catalog = gettext.GNUTranslations(io.BytesIO(compile_po(entries)))
    assert catalog.pgettext("animals", "rank_1") == "Bear"
    assert catalog.ngettext("n", "n", 2) == "{n} things"
    assert catalog.gettext("old") == "old"


def test_po_reader_says_what_was_expected():
    with pytest.raises(PoError, match=r"en\.po:2: expected one of msgctxt"):
        parse_po('msgid "a"\nmsgtxt "b"\n', "en.po")
    with pytest.raises(PoError, match="has no msgstr"):
        parse_po('msgid "a"\n', "en.po")
