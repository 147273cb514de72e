"""The live ranking read in place from the database: the ranking statement of
``rankings/season/ranking_sql.py`` (generated from the series policy, the pure core's
twin, tested against it) run over the season's standings for each read, nothing
written. A :class:`~rankings.season.ranking.Ranking` like the others.

What uses it (``rankings/season/engines.py``):

- readers of the live ranking while the Redis store cannot answer it (lost, flushed,
  evicted, unreachable, or ahead of the database): the store is rebuilt by a worker
  meanwhile (``rankings.rebuild_live_store``, queue ``live``), and no reader waits for
  the rebuild or takes the season's writer lock;
- the desk's "what changes if I publish" counts of the live ranking, which need every
  player's step (one aggregate in the database instead of the whole ranking in a web
  process).

Each read computes the whole ranking in PostgreSQL (its window functions over the
season's standings, about a second at 150,000 players on a busy machine) and returns
only what was asked: the cost of a read, not of the web process's memory. PostgreSQL
only (callers check :func:`possible`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from functools import cached_property
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from core.digits import ascii_digits
from federation.access import Scope
from federation.models import Club, Committee, Player, Season
from rankings.models import RankingEntry, RankingSnapshot, SeriesPolicyVersion
from rankings.rules.national_ranking import share_cutoff
from rankings.rules.series import SeriesPolicy
from rankings.season.ranking import (
    ENTRY_COLUMNS,
    EXPORT_CHUNK,
    LIVE,
    Labels,
    Line,
    Ranking,
    RankingFilter,
    StepMoves,
    ladder_labels,
    policy_rules,
)
from rankings.season.ranking_sql import ranking_statement
from rankings.season.search import COUNT_CAP, SearchCount, count_of, player_matches
from rankings.season.series_policies import series_policy_in_force
from rankings.season.snapshots import ENTRY_COLUMNS as ROW_COLUMNS

PLAYER, COMMITTEE, CLUB = (m._meta.db_table for m in (Player, Committee, Club))
ENTRY = RankingEntry._meta.db_table


_COUNTS: dict[tuple[int, int, int], dict[int, tuple[int, int]]] = {}
_COUNTS_KEPT = 16


def possible() -> bool:
    """Whether the database can compute the ranking in place (PostgreSQL)."""
    return connection.vendor == "postgresql"


class StatementRanking:
    """The season's live ranking computed by the database at each read."""

    kind = LIVE
    snapshot_id = None
    as_of = None

    def __init__(self, season: Season, inputs_version: int) -> None:
        self.season = season
        self.inputs_version = inputs_version
        self.policy: SeriesPolicyVersion
        self.policy, policy = series_policy_in_force(season=season)
        self.computed_at: dt.datetime = timezone.now()
        statement = ranking_statement(policy, select_only=True, search_names=False)
        self._sql = f"SELECT * FROM ({statement.sql}) AS r({', '.join(ROW_COLUMNS)})"
        self._params: dict[str, Any] = {**statement.params, "season": season.pk, "snapshot": None}

    def __repr__(self) -> str:
        return f"StatementRanking({self.season!r}, {self.inputs_version})"

    def query(self, select: str, params: dict[str, Any] | None = None) -> list[tuple[Any, ...]]:
        """``select`` over the ranking, named ``r`` (one transaction: its settings)."""
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET LOCAL jit = off")
            cursor.execute("SET LOCAL work_mem = '64MB'")
            cursor.execute(f"WITH r AS ({self._sql}) {select}", {**self._params, **(params or {})})
            return list(cursor.fetchall())

    @cached_property
    def _counts(self) -> dict[int, tuple[int, int]]:
        """Players and ranked players by series: computed once per inputs version and
        policy in a process (each read then computes the ranking once, for its page)."""
        key = (self.season.pk, self.inputs_version, self.policy.pk)
        found = _COUNTS.get(key)
        if found is None:
            rows = self.query(
                "SELECT series, COUNT(*), COUNT(*) FILTER (WHERE total_pcn > 0) "
                "FROM r GROUP BY series"
            )
            found = {series: (count, ranked) for series, count, ranked in rows}
            if len(_COUNTS) >= _COUNTS_KEPT:
                _COUNTS.clear()
            _COUNTS[key] = found
        return found

    @property
    def player_count(self) -> int:
        return sum(count for count, _ranked in self._counts.values())

    @property
    def ranked_count(self) -> int:
        return sum(ranked for _count, ranked in self._counts.values())

    @property
    def series_counts(self) -> dict[str, int]:
        return {str(series): count for series, (count, _r) in sorted(self._counts.items())}

    @property
    def share_cutoffs(self) -> list[dict[str, Any]]:
        ranked = self.ranked_count
        return [
            {"step": s.code, "top_share": str(s.top_share),
             "last_place": share_cutoff(s.top_share, ranked)}
            for s in reversed(self.rules().ladder[1:])
            if s.top_share is not None
        ]  # fmt: skip

    @property
    def reflects(self) -> int:
        return self.inputs_version

    def rules(self) -> SeriesPolicy:
        return policy_rules(self.policy)

    def step_labels(self) -> Labels:
        return ladder_labels(self.policy)

    def entries(self, filters: RankingFilter) -> StatementEntries:
        return StatementEntries(self, filters)

    def lines(self, where: str, params: dict[str, Any], *, tail: str = "") -> list[RankingEntry]:
        """The lines matching ``where``, in ranking order, as unsaved entries."""
        rows = self.query(f"SELECT * FROM r WHERE {where} ORDER BY rank_order {tail}", params)
        return [RankingEntry(**dict(zip(ROW_COLUMNS, row, strict=True))) for row in rows]

    def line(
        self, player: Player, *, named: bool = False, read: Mapping[int, Line] | None = None
    ) -> Line | None:
        found = self.lines("player_id = %(q_player)s", {"q_player": player.pk})
        if not found:
            return None
        if named:
            with_related(found)
        found[0].player = player
        return found[0]

    def order_of(self, line: Line) -> int:
        if isinstance(line, RankingEntry) and line.rank_order:
            return int(line.rank_order)
        rows = self.query("SELECT rank_order FROM r WHERE licence_number = %(q_n)s",
                          {"q_n": line.licence_number})  # fmt: skip
        return int(rows[0][0])

    def keys_at(self, orders: tuple[int, ...]) -> dict[int, tuple[int, int]]:
        if not orders:
            return {}
        rows = self.query(
            "SELECT rank_order, total_pcn, total_pp FROM r WHERE rank_order = ANY(%(q_orders)s)",
            {"q_orders": list(orders)},
        )
        return {order: (pcn, pp) for order, pcn, pp in rows}

    def ahead_of(self, key: tuple[int, int]) -> int:
        tie = "total_pp" if self.rules().pp_breaks_ties else "0"
        rows = self.query(
            f"SELECT COUNT(*) FROM r WHERE (total_pcn, {tie}) > (%(q_pcn)s, %(q_pp)s)",
            {"q_pcn": key[0], "q_pp": key[1]},
        )
        return int(rows[0][0])

    def series_of(self, licence_numbers: list[int]) -> dict[int, int]:
        rows = self.query(
            "SELECT licence_number, series FROM r WHERE licence_number = ANY(%(q_n)s)",
            {"q_n": licence_numbers},
        )
        return dict(rows)

    def export_rows(
        self,
        committee_ids: set[int] | None,
        club_ids: set[int] | frozenset[int] | None,
        chunk_size: int = EXPORT_CHUNK,
    ) -> Iterator[tuple[Any, ...]]:
        where: list[str] = ["TRUE"]
        params: dict[str, Any] = {}
        if committee_ids is not None:
            where.append("r.committee_id = ANY(%(q_committees)s)")
            params["q_committees"] = sorted(committee_ids)
        if club_ids is not None:
            where.append("r.club_id = ANY(%(q_clubs)s)")
            params["q_clubs"] = sorted(club_ids)
        rows = self.query(
            f"""SELECT r.place, r.licence_number, p.last_name, p.first_name, c.number, k.number,
                       k.name, r.season_pcn, r.season_pp, r.carried_pcn, r.carried_pp,
                       r.total_pcn, r.total_pp, r.tournaments, r.place_in_committee,
                       r.place_in_club, r.step, r.series, r.step_source
                FROM r JOIN {PLAYER} p ON p.id = r.player_id
                JOIN {COMMITTEE} c ON c.id = r.committee_id
                LEFT JOIN {CLUB} k ON k.id = r.club_id
                WHERE {" AND ".join(where)} ORDER BY r.rank_order""",
            params,
        )
        return iter(rows)

    def step_moves(self, official: RankingSnapshot | None, scope: Scope) -> StepMoves:
        """Counted by the database: the ranking computed in place beside the official
        entries (by player), as a stored snapshot's are."""
        where = "TRUE"
        params: dict[str, Any] = {
            "q_official": official.pk if official else None,
            "q_codes": list(self.step_labels()),
        }
        if not scope.national:
            where = f"""r.committee_id IN (SELECT id FROM {COMMITTEE}
                        WHERE id = ANY(%(q_scope_committees)s) OR zone_id = ANY(%(q_zones)s))"""
            params["q_scope_committees"] = sorted(scope.committee_ids)
            params["q_zones"] = sorted(scope.zone_ids)
        [row] = self.query(
            f"""SELECT COUNT(*), COUNT(*) FILTER (WHERE now > before),
                       COUNT(*) FILTER (WHERE now < before), COUNT(*) FILTER (WHERE now = before),
                       COUNT(*) FILTER (WHERE old_step IS NULL)
                FROM (SELECT array_position(%(q_codes)s::text[], r.step::text) AS now,
                             array_position(%(q_codes)s::text[], o.step::text) AS before,
                             o.step AS old_step
                      FROM r LEFT JOIN {ENTRY} o
                        ON o.snapshot_id = %(q_official)s AND o.player_id = r.player_id
                      WHERE {where}) moves""",
            params,
        )
        return StepMoves(*(int(v) for v in row))

    def same_as(self, other: Ranking) -> bool:
        return (
            other.snapshot_id is None and other.kind == LIVE and other.season.pk == self.season.pk
        )


def with_related(entries: list[RankingEntry]) -> list[RankingEntry]:
    """Attach the player, committee and club rows (three queries)."""
    players = Player.objects.in_bulk([e.player_id for e in entries])
    committees = Committee.objects.in_bulk({e.committee_id for e in entries})
    clubs = Club.objects.in_bulk({e.club_id for e in entries if e.club_id is not None})
    for e in entries:
        e.player = players[e.player_id]
        e.committee = committees[e.committee_id]
        e.club = clubs.get(e.club_id) if e.club_id is not None else None
    return entries


class StatementEntries:
    """A filtered reading of :class:`StatementRanking` (the rules of a snapshot's
    filters and search, ``snapshot_ranking.SnapshotEntries``)."""

    def __init__(self, ranking: StatementRanking, filters: RankingFilter) -> None:
        self.ranking, self.filters = ranking, filters
        where: list[str] = ["TRUE"]
        params: dict[str, Any] = {}
        if filters.committee is not None:
            where.append("committee_id = %(q_committee)s")
            params["q_committee"] = filters.committee.pk
        if filters.club is not None:
            where.append("club_id = %(q_club)s")
            params["q_club"] = filters.club.pk
        if filters.series is not None:
            where.append("series = %(q_series)s")
            params["q_series"] = filters.series
        text = filters.query.strip()
        if text:  # never a player who asked for anonymity (search.py)
            if ascii_digits(text):
                shown = Player.objects.filter(licence_number=int(text), name_hidden=False)
                numbers = list(shown.values_list("licence_number", flat=True))
            else:
                numbers = player_matches(Player.objects.all(), text)
            where.append("licence_number = ANY(%(q_numbers)s)")
            params["q_numbers"] = numbers
        self.where, self.params = " AND ".join(where), params

    def page(self, start: int, size: int) -> list[Line]:
        found = self.ranking.lines(self.where, {**self.params, "q_limit": size, "q_offset": start},
                                   tail="LIMIT %(q_limit)s OFFSET %(q_offset)s")  # fmt: skip
        return list(with_related(found))

    def rows(self, start: int, size: int) -> list[dict[str, Any]]:
        rows = []
        for e in self.page(start, size):
            assert isinstance(e, RankingEntry)
            player, committee, club = e.player, e.committee, e.club
            related = {
                "player__last_name": player.last_name,
                "player__first_name": player.first_name,
                "player__name_hidden": player.name_hidden,
                "committee__number": committee.number,
                "club__number": club.number if club else None,
                "club__name": club.name if club else None,
            }
            rows.append({c: related[c] if c in related else getattr(e, c) for c in ENTRY_COLUMNS})
        return rows

    def count(self) -> SearchCount:
        f = self.filters
        if f.empty:
            return SearchCount(self.ranking.player_count, False)
        if f.series and not (f.committee or f.club or f.query.strip()):
            return SearchCount(int(self.ranking.series_counts.get(str(f.series), 0)), False)
        cap = f"LIMIT {COUNT_CAP + 1}" if f.query.strip() else ""  # a search counts to the cap
        rows = self.ranking.query(
            f"SELECT COUNT(*) FROM (SELECT 1 FROM r WHERE {self.where} {cap}) c", self.params
        )
        found = int(rows[0][0])
        return count_of(found) if f.query.strip() else SearchCount(found, False)
