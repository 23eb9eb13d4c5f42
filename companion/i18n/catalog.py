"""Which languages are shipped, and their gettext catalogues.

A language is the pair `locale/<code>.po` (source) + `locale/<code>.mo` (compiled): adding
a file pair adds the language, no code to change. English comes first, then French and
German (the order the UI offers them), then any other shipped language by code.
"""

from __future__ import annotations

import gettext
from functools import cache
from importlib.resources import files

_PREFERRED_ORDER = ("en", "fr", "de")


def _shipped_languages() -> tuple[str, ...]:
    locale = files("companion.i18n").joinpath("locale")
    codes = {entry.name[:-3] for entry in locale.iterdir() if entry.name.endswith(".mo")}
    first = tuple(code for code in _PREFERRED_ORDER if code in codes)
    return first + tuple(sorted(codes - set(first)))


LANGUAGES: tuple[str, ...] = _shipped_languages()

DECKS: tuple[str, ...] = ("animals", "playing-cards")


@cache
def catalog(lang: str) -> gettext.GNUTranslations:
    """The compiled catalogue of `lang`; a ValueError names the shipped languages.

    A message a new translation lacks falls back to English rather than to its bare id.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: expected one of {', '.join(LANGUAGES)}")
    with files("companion.i18n").joinpath("locale", f"{lang}.mo").open("rb") as mo_file:
        translations = gettext.GNUTranslations(mo_file)
    if lang != "en":
        translations.add_fallback(catalog("en"))
    return translations


def check_deck(deck: str) -> None:
    """Raise a ValueError naming the known decks if `deck` is not one of them."""
    if deck not in DECKS:
        raise ValueError(f"unknown deck {deck!r}: expected one of {', '.join(DECKS)}")
