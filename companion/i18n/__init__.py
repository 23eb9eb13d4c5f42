"""Message catalogues (one gettext .po/.mo pair per language) and rendering of announcements.

`render(announcement, lang, deck)` is what the UI shows and the voice says; see
docs/design.md for the message ids.

A new language is one catalogue: copy locale/en.po to locale/<code>.po, set its Language
and Plural-Forms header, translate every msgstr (the tests check that every message is
there with the same placeholders), then compile it with `python -m companion.i18n.po`.
"""

from companion.i18n.catalog import DECKS, LANGUAGES
from companion.i18n.render import deck_for_rules, join_names, rank_name, render

__all__ = ["DECKS", "LANGUAGES", "deck_for_rules", "join_names", "rank_name", "render"]
