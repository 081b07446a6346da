"""Substring search over records and receipts: one normalised text per row, matched with `instr`.

An operator types a fragment ("bo", "9021", "阿明", "ＡＬＰＨＡ") and expects every record
whose game id, player names or ids, platform or client contain it, whatever the case or
width. SQLite's own `lower()` folds ASCII only and `LIKE` is ASCII-case-insensitive only, so
the text is folded here, in Python (NFKC, then `casefold`), once when a row is written and
once for the query; SQLite then only looks for one folded string inside another. Fields are
joined with a separator no query can contain, so a match never spans two fields. The text sits
in a narrow table of its own (`record_search`), so a search scans short rows, not the records'
(measured in bench/bench_search.py at 100,000 records).
"""
from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Any

SEPARATOR = "\x1f"
"""Between fields (the unit separator): `fold` removes it from queries."""
MAX_QUERY = 200
"""Longest search text accepted, in characters."""


_DOTTED_I = str.maketrans({"\u0130": "i", "\u0131": "i"})
"""Turkish İ (dotted capital) and ı (dotless small) fold to plain i, as I and i do: `casefold`
alone makes İ `i` + U+0307 and leaves ı alone, so `istanbul` missed `İstanbul` and `ılgaz`
matched neither `ILGAZ` nor `ilgaz` (issue 22.7). One i for all four, whichever a name was
typed with: a search cannot know which language a player's name is in."""


def fold(text: str) -> str:
    """The form both sides of a search are compared in: NFKC (full-width letters and digits
    become ASCII), the four Turkish i's made one (`_DOTTED_I`), case-folded (any script),
    control characters and outer spaces removed."""
    folded = unicodedata.normalize("NFKC", text).translate(_DOTTED_I).casefold().replace("i\u0307", "i")
    return "".join(ch for ch in folded if ch.isprintable()).strip()


MATCH = "text LIKE ? ESCAPE '\\'"
"""The SQL condition of a search (its one parameter is `pattern(query)`): LIKE with the folded
query between wildcards. Both sides are folded already, so LIKE's own ASCII case folding changes
nothing; it is used over `instr` because it does not count characters (a third less CPU per row,
measured on 100,000 rows)."""


def pattern(query: str) -> str:
    """The LIKE pattern of a query: folded, its own `%`, `_` and `\\` taken literally."""
    folded = fold(query).replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{folded}%"


def joined(values: Iterable[Any]) -> str:
    """The search text of a row: each non-empty value folded, between separators (so that
    `instr` of a folded query finds substrings of one field only)."""
    parts = [fold(str(value)) for value in values if value not in (None, "")]
    return SEPARATOR + SEPARATOR.join(part for part in parts if part) + SEPARATOR


def record_text(game_id: str, platform: str, client: str | None, seats: Iterable[dict[str, Any]]) -> str:
    """What a record is found by: game id, platform, client, every seat's name and player id."""
    players: list[Any] = []
    for seat in seats:
        players += [seat.get("name"), seat.get("player_id")]
    return joined([game_id, platform, client, *players])


__all__ = ["MATCH", "MAX_QUERY", "SEPARATOR", "fold", "joined", "pattern", "record_text"]
