"""Announcements to text in the table's language.

An announcement is a message id plus params (see `messages.MESSAGE_PARAMS`). The template
comes from the language's catalogue; params are turned into words here (rank names with
their article or negation, lists of names, amounts of food with the right plural) so that
each catalogue only chooses the wording.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from companion.i18n.catalog import catalog, check_deck
from companion.i18n.messages import (
    AMOUNT_PARAMS,
    COUNTED_BY,
    MESSAGE_PARAMS,
    NAME_LIST_PARAMS,
    RANK_FORMS,
    RANK_PARAMS,
)

_DECK_OF_RULES = {"original": "animals", "playing-cards": "playing-cards"}


class AnnouncementLike(Protocol):
    """What `render` needs: `companion.rules.narration.Announcement` has this shape."""

    @property
    def msg(self) -> str: ...

    @property
    def params(self) -> Mapping[str, object]: ...


def deck_for_rules(rules: str) -> str:
    """The deck whose names are spoken for a rule setting (`original` -> `animals`)."""
    try:
        return _DECK_OF_RULES[rules]
    except KeyError:
        raise ValueError(
            f"unknown rules {rules!r}: expected one of {', '.join(_DECK_OF_RULES)}"
        ) from None


def rank_name(rank: int, lang: str = "en", deck: str = "animals", form: str = "") -> str:
    """The spoken name of a rank: form "" ("Bear"), "_the" ("the bear"), "_no" ("no bear")."""
    check_deck(deck)
    if isinstance(rank, bool) or not isinstance(rank, int) or not 1 <= rank <= 5:
        raise ValueError(f"rank must be an int from 1 to 5, got {rank!r}")
    if form not in RANK_FORMS:
        raise ValueError(f"unknown rank form {form!r}: expected one of {RANK_FORMS}")
    return catalog(lang).pgettext(deck, f"rank_{rank}{form}")


def join_names(names: Sequence[str], lang: str = "en") -> str:
    """Names as a spoken list: "Alia", "Alia and Ben", "Alia, Ben and Carmen"."""
    if isinstance(names, str) or not all(isinstance(name, str) for name in names):
        raise ValueError(f"expected a sequence of player names, got {names!r}")
    if len(names) <= 1:
        return "".join(names)
    template = catalog(lang).gettext("names_and")
    return template.format(names=", ".join(names[:-1]), last=names[-1])


def render(announcement: AnnouncementLike, lang: str = "en", deck: str = "animals") -> str:
    """The sentence to say or show for `announcement` in `lang`, naming ranks after `deck`."""
    msg, params = announcement.msg, announcement.params
    if msg not in MESSAGE_PARAMS:
        raise ValueError(f"unknown message id {msg!r}: expected one of docs/design.md's ids")
    missing = [name for name in MESSAGE_PARAMS[msg] if name not in params]
    if missing:
        raise ValueError(f"message {msg!r} needs params {', '.join(missing)}; got {dict(params)}")
    check_deck(deck)
    texts = catalog(lang)
    if msg in COUNTED_BY:
        template = texts.ngettext(msg, msg, _count(params[COUNTED_BY[msg]]))
    else:
        template = texts.gettext(msg)
    values = _words(params, lang, deck)
    try:
        return template.format_map(values)
    except (KeyError, IndexError, ValueError) as error:
        raise ValueError(f"catalogue {lang!r}, message {msg!r}: bad placeholder {error}") from None


def _count(value: object) -> int:
    return value if isinstance(value, int) else len(value)  # type: ignore[arg-type]


def _capitalized(key: str) -> str:
    return key[:1].upper() + key[1:]


def _words(params: Mapping[str, object], lang: str, deck: str) -> dict[str, object]:
    """Every value a template may name, derived from the announcement's params."""
    values: dict[str, object] = {}
    for name, value in params.items():
        if name in RANK_PARAMS:
            for form in RANK_FORMS:
                words = rank_name(value, lang, deck, form)  # type: ignore[arg-type]
                values[name + form] = words
                values[_capitalized(name + form)] = _capitalized(words)
        elif name in AMOUNT_PARAMS:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"param {name!r} must be an int, got {value!r}")
            values[name] = value
            amount = catalog(lang).ngettext("food_amount", "food_amount", value)
            values[name + "_amount"] = amount.format(n=value)
        elif name in NAME_LIST_PARAMS:
            values[name] = join_names(value, lang)  # type: ignore[arg-type]
        elif name == "totals":
            values[name] = _totals(value)
        else:
            values[name] = value
    return values


def _totals(value: object) -> str:
    if isinstance(value, Mapping):
        value = tuple(value.items())
    try:
        return ", ".join(f"{name} {int(total)}" for name, total in value)  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        raise ValueError(f"totals must be (name, food) pairs, got {value!r}") from None
