"""Read gettext .po catalogues and compile them to .mo, with the standard library only.

The .po files are the source a translator edits; the .mo files are what `gettext` loads.
Both are shipped, and a test checks that each .mo is exactly `compile_po` of its .po, so
CI needs no gettext tools. Rebuild after editing: `python -m companion.i18n.po`.
"""

from __future__ import annotations

import ast
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

LOCALE_DIR = Path(__file__).with_name("locale")


class PoError(ValueError):
    """A .po file that cannot be read; the message names the line and what was expected."""


@dataclass
class PoEntry:
    """One message: its context, id, plural id and translation(s)."""

    msgid: str = ""
    msgctxt: str | None = None
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)

    def mo_key(self) -> str:
        """The original string as a .mo stores it (context and plural folded in)."""
        key = self.msgid if self.msgid_plural is None else f"{self.msgid}\0{self.msgid_plural}"
        return key if self.msgctxt is None else f"{self.msgctxt}\x04{key}"

    def mo_value(self) -> str:
        """The translation as a .mo stores it (plural forms joined by NUL)."""
        return "\0".join(self.msgstr[i] for i in sorted(self.msgstr))


_KEYWORDS = ("msgctxt", "msgid_plural", "msgid", "msgstr")


def parse_po(text: str, source: str = "<po>") -> list[PoEntry]:
    """Parse .po text into entries (the header is the entry with an empty msgid).

    Entries flagged `#, fuzzy` are left out, as msgfmt leaves them out.
    """
    entries: list[PoEntry] = []
    current = PoEntry()
    field_name: tuple[str, int] | None = None
    started = fuzzy = False

    def finish() -> None:
        nonlocal current, started, fuzzy
        if started:
            if not current.msgstr:
                raise PoError(f"{source}: message {current.msgid!r} has no msgstr")
            if not fuzzy or not current.msgid:
                entries.append(current)
        current, started, fuzzy = PoEntry(), False, False

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("#,") and "fuzzy" in line:
            if current.msgstr:
                finish()
            fuzzy = True
        if not line or line.startswith("#"):
            continue
        if line.startswith('"'):
            if field_name is None:
                raise PoError(f"{source}:{number}: a string continues no keyword")
            _append(current, field_name, _unquote(line, source, number))
            continue
        keyword, _, rest = line.partition(" ")
        index = 0
        if keyword.startswith("msgstr[") and keyword.endswith("]"):
            index, keyword = int(keyword[7:-1]), "msgstr"
        if keyword not in _KEYWORDS:
            raise PoError(f"{source}:{number}: expected one of {', '.join(_KEYWORDS)}")
        if keyword in ("msgctxt", "msgid") and (current.msgstr or keyword == "msgctxt"):
            finish()
        started = True
        field_name = (keyword, index)
        _set(current, field_name, _unquote(rest.strip(), source, number))
    finish()
    return entries


def _unquote(token: str, source: str, number: int) -> str:
    if len(token) < 2 or not (token.startswith('"') and token.endswith('"')):
        raise PoError(f'{source}:{number}: expected a "quoted string", got {token!r}')
    try:
        return ast.literal_eval(token)
    except (SyntaxError, ValueError) as error:
        raise PoError(f"{source}:{number}: bad string {token!r}: {error}") from None


def _set(entry: PoEntry, name: tuple[str, int], value: str) -> None:
    keyword, index = name
    if keyword == "msgstr":
        entry.msgstr[index] = value
    else:
        setattr(entry, keyword, value)


def _append(entry: PoEntry, name: tuple[str, int], value: str) -> None:
    keyword, index = name
    if keyword == "msgstr":
        entry.msgstr[index] += value
    else:
        setattr(entry, keyword, (getattr(entry, keyword) or "") + value)


def compile_po(entries: list[PoEntry]) -> bytes:
    """The .mo bytes for these entries (GNU format, little endian, no hash table)."""
    pairs = sorted((e.mo_key().encode(), e.mo_value().encode()) for e in entries)
    count = len(pairs)
    originals_at = 28
    translations_at = originals_at + 8 * count
    data_at = translations_at + 8 * count
    tables: list[bytes] = [b"", b""]
    blob = bytearray()
    for column, strings in enumerate(([k for k, _ in pairs], [v for _, v in pairs])):
        for string in strings:
            tables[column] += struct.pack("<2I", len(string), data_at + len(blob))
            blob += string + b"\0"
    header = struct.pack("<7I", 0x950412DE, 0, count, originals_at, translations_at, 0, data_at)
    return header + tables[0] + tables[1] + bytes(blob)


def build_all(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Compile every .po of the locale folder next to it; return the .mo paths written."""
    written = []
    for po_path in sorted(locale_dir.glob("*.po")):
        entries = parse_po(po_path.read_text(encoding="utf-8"), str(po_path))
        mo_path = po_path.with_suffix(".mo")
        mo_path.write_bytes(compile_po(entries))
        written.append(mo_path)
    return written


if __name__ == "__main__":
    for path in build_all():
        print(f"wrote {path}", file=sys.stderr)
