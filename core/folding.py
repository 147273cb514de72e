"""Folding a name for search: lower case without accents ("Lefèvre Élise" → "lefevre
elise"), the same in the ranking snapshots (``RankingEntry.search_name``), the player's
stored search name (``Player.search_name``, computed by PostgreSQL with the same table:
``federation/migrations/0005_player_search_name.py``) and the typed query. Pure.
"""

from __future__ import annotations

import unicodedata


def _folding_table() -> dict[int, str]:
    """Latin letters with diacritics → ASCII (œ → oe, ß → ss…), built once."""
    table = {ord("œ"): "oe", ord("æ"): "ae", ord("ß"): "ss", ord("ø"): "o", ord("ł"): "l",
             ord("đ"): "d", ord("’"): "'"}  # fmt: skip
    for code in range(0xC0, 0x250):
        char = chr(code)
        if code in table or not char.islower():
            continue
        base = "".join(
            c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c)
        )
        if base and base != char and base.isascii():
            table[code] = base
    return table


_FOLDING = _folding_table()


def fold(text: str) -> str:
    """Lower case without accents, for searching names as people type them
    ("Lefèvre Élise" → "lefevre elise")."""
    text = text.lower()
    if text.isascii():
        return text
    text = text.translate(_FOLDING)
    if text.isascii():
        return text
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
