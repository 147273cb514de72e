"""Searching a ranking by a player's name or licence number.

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


@dataclass(frozen=True)
class NameSearch:
    """What a search by name looks for in a folded name: its start (``prefix``, when
    every word is shorter than :data:`SHORT_WORD`), else each of ``words`` inside it.
    Rendered as lookups for the database (:meth:`lookups`) and as a test of one name
    (:meth:`names`), which say the same (tests/rankings/test_search.py)."""

    prefix: str | None
    words: tuple[str, ...] = ()

    def lookups(self, field: str) -> Q:
        if self.prefix is not None:
            return Q(**{f"{field}__startswith": self.prefix})
        condition = Q()
        for word in self.words:
            condition &= Q(**{f"{field}__contains": word})
        return condition

    def names(self, search_name: str) -> bool:
        if self.prefix is not None:
            return search_name.startswith(self.prefix)
        return all(word in search_name for word in self.words)


def name_search(text: str) -> NameSearch | None:
    """The search by name a text asks for (None: empty, or a licence number)."""
    text = text.strip()
    if not text or ascii_digits(text):
        return None
    folded = " ".join(fold(text).split())
    if not folded:
        return None
    words = folded.split()
    if all(len(word) < SHORT_WORD for word in words):
        return NameSearch(prefix=folded)
    return NameSearch(prefix=None, words=tuple(words))


def _name_lookups(text: str, field: str) -> Q | None:
    """The lookups on the folded name for a name search (None: not a name search)."""
    search = name_search(text)
    return None if search is None else search.lookups(field)


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


def _named(players: QuerySet[Player], text: str) -> QuerySet[Player] | None:
    lookups = _name_lookups(text, "search_name")
    if lookups is None:
        return None
    return players.order_by().filter(lookups, name_hidden=False)


def player_matches(players: QuerySet[Player], text: str, limit: int | None = None) -> list[int]:
    """Licence numbers of ``players`` whose folded name the text names (a name search:
    the same words/prefix rules on ``Player.search_name``, trigram and prefix indexes
    on PostgreSQL; lower case only elsewhere), at most ``limit`` of them (any). The live
    ranking's search (``rankings/live_reads.py``) orders them by the store."""
    named = _named(players, text)
    if named is None:
        return []
    numbers = named.values_list("licence_number", flat=True)
    return list(numbers if limit is None else numbers[:limit])


def named_among(licences: list[int], text: str) -> set[int]:
    """Those of these licence numbers whose player the text names (the rules of
    :func:`player_matches`, tested name by name here: with the name's own condition
    in the statement, PostgreSQL read every player of a common name through the name
    indexes and checked each against the numbers; this way it always reads the numbers'
    rows by the unique index). On PostgreSQL the numbers go as one array literal
    (``= ANY``): ``IN (…)`` with one parameter each made a walk twice as slow."""
    search = name_search(text)
    if search is None or not licences:
        return set()
    shown = Player.objects.order_by().filter(name_hidden=False)
    if connection.vendor == "postgresql":
        sql, params = shown.values_list("licence_number", "search_name").query.sql_with_params()
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT * FROM ({sql}) shown WHERE shown.licence_number = ANY(%s::integer[])",
                [*params, "{" + ",".join(map(str, licences)) + "}"],
            )
            rows = cursor.fetchall()
    else:
        rows = list(
            shown.filter(licence_number__in=licences).values_list("licence_number", "search_name")
        )
    return {number for number, name in rows if search.names(name)}


def capped_count(entries: QuerySet[RankingEntry], text: str = "") -> SearchCount:
    """How many entries match, counting at most ``COUNT_CAP + 1`` (``text``: the search,
    for the record; counting from the players' side with ``EXISTS`` was measured slower
    on common names, benchmarks/ranking_search.py)."""
    return count_of(entries.order_by()[: COUNT_CAP + 1].count())


def count_of(found: int) -> SearchCount:
    """A search's count of ``found`` matches as readers are shown it: capped at
    :data:`COUNT_CAP`."""
    if found > COUNT_CAP:
        return SearchCount(COUNT_CAP, True)
    return SearchCount(found, False)
