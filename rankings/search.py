"""Searching a ranking by a player's name or licence number (issue 15, item 3).

The name is matched on ``Player.search_name`` (``core.folding.fold`` of "last first",
computed by PostgreSQL, the same in every snapshot), so the index serves every season:

- **licence number** (the text is all digits): the player by its unique licence number,
  then their entry by the unique ``(snapshot, player)`` index;
- **prefix** (every word shorter than three letters, "le g"): names *starting* with the
  text, served by the ``text_pattern_ops`` index (a trigram index cannot serve one or
  two letters);
- **words** (otherwise): every word is contained in the name, accents and case ignored,
  served by the trigram index (``pg_trgm``) for the words of three letters or more.

A player who asked for anonymity (``Player.name_hidden``, docs/privacy.md) is found
neither by name nor by licence number: the search is public.

Results are in ranking order. Counting stops at :data:`COUNT_CAP` + 1 matches (the page
says "plus de 1 000"): a count never reads the whole snapshot.

On SQLite (the embedded default, no index), the same rules read the snapshot's own
folded names (``RankingEntry.search_name``), which are the same text.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.db.models import Q, QuerySet

from core.digits import ascii_digits
from core.folding import fold
from federation.models import Player
from rankings.models import RankingEntry

COUNT_CAP = 1000
"""A search counts its matches up to this many; beyond, it says "more than 1,000"."""
SHORT_WORD = 3
"""Words shorter than this are matched as the start of the name (trigrams need three)."""


@dataclass(frozen=True)
class SearchCount:
    value: int  # exact when not ``capped``, else COUNT_CAP
    capped: bool  # more than COUNT_CAP matches


def _name_field() -> str:
    return "player__search_name" if connection.vendor == "postgresql" else "search_name"


def _name_lookups(text: str, prefix: str) -> Q | None:
    """The lookups on the folded name for a name search (None: not a name search)."""
    text = text.strip()
    if not text or ascii_digits(text):
        return None
    folded = " ".join(fold(text).split())
    if not folded:
        return None
    words = folded.split()
    if all(len(word) < SHORT_WORD for word in words):
        return Q(**{f"{prefix}__startswith": folded})
    condition = Q()
    for word in words:
        condition &= Q(**{f"{prefix}__contains": word})
    return condition


def search_entries(entries: QuerySet[RankingEntry], text: str) -> QuerySet[RankingEntry]:
    """``entries`` narrowed to the players the text names (see the module doc)."""
    text = text.strip()
    if ascii_digits(text):
        # Through the player (unique licence number), then the unique (snapshot, player)
        # index: an entry has no index on its own licence number column.
        return entries.filter(player__licence_number=int(text), player__name_hidden=False)
    lookups = _name_lookups(text, _name_field())
    if lookups is None:
        return entries
    return entries.filter(lookups, player__name_hidden=False)


def player_matches(players: QuerySet[Player], text: str) -> list[int]:
    """Licence numbers of ``players`` whose folded name the text names (a name search:
    the same words/prefix rules on ``Player.search_name``, trigram and prefix indexes
    on PostgreSQL; lower case only elsewhere). The live ranking's search
    (``rankings/live_reads.py``) orders them by the store."""
    lookups = _name_lookups(text, "search_name")
    if lookups is None:
        return []
    return list(players.filter(lookups, name_hidden=False).values_list("licence_number", flat=True))


def capped_count(entries: QuerySet[RankingEntry], text: str = "") -> SearchCount:
    """How many entries match, counting at most ``COUNT_CAP + 1`` (``text``: the search,
    for the record; counting from the players' side with ``EXISTS`` was measured slower
    on common names, benchmarks/ranking_search.py)."""
    found = entries.order_by()[: COUNT_CAP + 1].count()
    if found > COUNT_CAP:
        return SearchCount(COUNT_CAP, True)
    return SearchCount(found, False)
