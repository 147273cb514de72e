"""A ranking stored as a snapshot's rows (``RankingSnapshot`` and its ``RankingEntry``
lines): the official ranking, the provisional one (the live ranking without the store),
the ranking as of a day. The :class:`~rankings.season.ranking.Ranking` of the database.

Each read is a fixed, small number of index reads of the snapshot, whatever its size: a
page of the whole ranking is a range of ``rank_order`` (1…N) rather than an OFFSET, a
count without filter is the snapshot's own, a search goes through ``rankings/season/search.py``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from math import isqrt
from typing import Any

from django.db.models import (
    Case,
    Count,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)

from federation.access import Scope
from federation.models import Player, Season
from rankings.models import RankingEntry, RankingKind, RankingSnapshot, SeriesPolicyVersion
from rankings.rules.national_ranking import order_key
from rankings.rules.series import SeriesPolicy
from rankings.season.ranking import (
    AS_OF,
    ENTRY_COLUMNS,
    EXPORT_CHUNK,
    EXPORT_FIELDS,
    LIVE,
    OFFICIAL,
    Labels,
    Line,
    Ranking,
    RankingFilter,
    StepMoves,
    ladder_labels,
    policy_rules,
)
from rankings.season.search import SearchCount, capped_count, search_entries


def entry_scope(scope: Scope) -> Q:
    """Ranking entries (or anything with ``committee``) the scope covers."""
    if scope.national:
        return Q()
    return Q(committee_id__in=scope.committee_ids) | Q(committee__zone_id__in=scope.zone_ids)


class SnapshotEntries:
    """A stored ranking's lines, filtered (committee, club, series, and a search by
    licence number or by name), in ranking order."""

    def __init__(self, ranking: SnapshotRanking, filters: RankingFilter) -> None:
        self.ranking, self.filters = ranking, filters
        entries = RankingEntry.objects.filter(snapshot_id=ranking.snapshot_id).order_by(
            "rank_order"
        )
        if filters.committee is not None:
            entries = entries.filter(committee_id=filters.committee.pk)
        if filters.club is not None:
            entries = entries.filter(club_id=filters.club.pk)
        if filters.series is not None:
            entries = entries.filter(series=filters.series)
        self.queryset: QuerySet[RankingEntry] = search_entries(entries, filters.query)

    def _window(self, entries: QuerySet[Any], start: int, size: int) -> list[Any]:
        """One page. Unfiltered, a range of ``rank_order`` (1…N in a snapshot): an index
        range however deep the page, instead of an OFFSET."""
        if self.filters.empty:
            return list(entries.filter(rank_order__gt=start, rank_order__lte=start + size))
        return list(entries[start : start + size])

    def page(self, start: int, size: int) -> list[Line]:
        return self._window(
            self.queryset.select_related("player", "committee", "club"), start, size
        )

    def rows(self, start: int, size: int) -> list[dict[str, Any]]:
        return self._window(self.queryset.values(*ENTRY_COLUMNS), start, size)

    def count(self) -> SearchCount:
        f, snapshot = self.filters, self.ranking.snapshot
        if f.query.strip():  # a name search counts up to search.COUNT_CAP + 1
            return capped_count(self.queryset, f.query)
        if f.empty:
            return SearchCount(snapshot.player_count, False)
        if f.series and not (f.committee or f.club):
            return SearchCount(int(snapshot.series_counts.get(str(f.series), 0)), False)
        return SearchCount(self.queryset.count(), False)


class SnapshotRanking:
    """A :class:`~rankings.season.ranking.Ranking` read from a stored snapshot."""

    def __init__(self, snapshot: RankingSnapshot, *, reflects: int | None = None) -> None:
        self.snapshot = snapshot
        self._reflects = snapshot.inputs_version if reflects is None else reflects

    def __repr__(self) -> str:
        return f"SnapshotRanking({self.snapshot!r})"

    @property
    def season(self) -> Season:
        return self.snapshot.season

    @property
    def kind(self) -> str:
        if self.snapshot.kind == RankingKind.AS_OF:
            return AS_OF
        return LIVE if self.snapshot.kind == RankingKind.PROVISIONAL else OFFICIAL

    @property
    def snapshot_id(self) -> int:
        return self.snapshot.pk

    @property
    def as_of(self) -> dt.date | None:
        return self.snapshot.as_of

    @property
    def computed_at(self) -> dt.datetime:
        return self.snapshot.computed_at

    @property
    def policy(self) -> SeriesPolicyVersion:
        return self.snapshot.policy

    @property
    def player_count(self) -> int:
        return self.snapshot.player_count

    @property
    def ranked_count(self) -> int:
        return self.snapshot.ranked_count

    @property
    def series_counts(self) -> dict[str, int]:
        return dict(self.snapshot.series_counts)

    @property
    def share_cutoffs(self) -> list[dict[str, Any]]:
        return list(self.snapshot.share_cutoffs)

    @property
    def reflects(self) -> int:
        return self._reflects

    def rules(self) -> SeriesPolicy:
        return policy_rules(self.snapshot.policy)

    def step_labels(self) -> Labels:
        return ladder_labels(self.snapshot.policy)

    def entries(self, filters: RankingFilter) -> SnapshotEntries:
        return SnapshotEntries(self, filters)

    def line(
        self, player: Player, *, named: bool = False, read: Mapping[int, Line] | None = None
    ) -> Line | None:
        if read is not None:
            return read.get(self.snapshot_id)
        found = RankingEntry.objects.filter(snapshot_id=self.snapshot_id, player=player)
        if named:
            found = found.select_related("committee", "club")
        entry = found.order_by().first()
        if entry is not None and named:
            entry.player = player
        return entry

    def order_of(self, line: Line) -> int:
        if isinstance(line, RankingEntry):
            return int(line.rank_order)
        return int(
            RankingEntry.objects.filter(
                snapshot_id=self.snapshot_id, player__licence_number=line.licence_number
            )
            .values_list("rank_order", flat=True)
            .get()
        )

    def keys_at(self, orders: tuple[int, ...]) -> dict[int, tuple[int, int]]:
        if not orders:
            return {}
        return {
            order: (pcn, pp)
            for order, pcn, pp in RankingEntry.objects.filter(
                snapshot_id=self.snapshot_id, rank_order__in=orders
            ).values_list("rank_order", "total_pcn", "total_pp")
        }

    def ahead_of(self, key: tuple[int, int]) -> int:
        """The lines are stored in ranking order (``rank_order`` 1…N, keys never
        increasing), so the answer is the first line whose key is not above ``key``, less
        one: found in two index reads of about √N lines each (every √N-th line, then the
        window between two of them) instead of counting through the snapshot."""
        policy = self.rules()
        count = self.snapshot.player_count
        stride = max(1, isqrt(count))
        entries = RankingEntry.objects.filter(snapshot_id=self.snapshot_id)

        def above(pcn: int, pp: int) -> bool:
            return order_key(pcn, pp, policy) > key

        probes = sorted(
            entries.filter(rank_order__in=range(1, count + 1, stride)).values_list(
                "rank_order", "total_pcn", "total_pp"
            )
        )
        low = 0  # every line up to ``low`` is above
        high = count  # the first line not above is at most ``high`` + 1
        for order, pcn, pp in probes:
            if above(pcn, pp):
                low = order
            else:
                high = order - 1
                break
        window = entries.filter(rank_order__gt=low, rank_order__lte=high).order_by("rank_order")
        for order, pcn, pp in window.values_list("rank_order", "total_pcn", "total_pp"):
            if not above(pcn, pp):
                return int(order) - 1
        return high

    def series_of(self, licence_numbers: list[int]) -> dict[int, int]:
        return dict(
            RankingEntry.objects.filter(
                snapshot_id=self.snapshot_id, licence_number__in=licence_numbers
            ).values_list("licence_number", "series")
        )

    def export_rows(
        self,
        committee_ids: set[int] | None,
        club_ids: set[int] | frozenset[int] | None,
        chunk_size: int = EXPORT_CHUNK,
    ) -> Iterator[tuple[Any, ...]]:
        entries = (
            RankingEntry.objects.filter(snapshot_id=self.snapshot_id)
            .order_by("rank_order")
            .values_list(*EXPORT_FIELDS)
        )
        if committee_ids is not None:
            entries = entries.filter(committee_id__in=committee_ids)
        if club_ids is not None:
            entries = entries.filter(club_id__in=club_ids)
        return entries.iterator(chunk_size=chunk_size)

    def step_moves(self, official: RankingSnapshot | None, scope: Scope) -> StepMoves:
        """Counted by the database: one aggregate over the two snapshots."""
        ladder = {code: index for index, code in enumerate(self.step_labels())}

        def rank(column: str) -> Case:
            return Case(
                *(When(**{column: code}, then=Value(index)) for code, index in ladder.items()),
                default=None,
                output_field=IntegerField(),
            )

        old_step = RankingEntry.objects.filter(snapshot=official, player=OuterRef("player")).values(
            "step"
        )[:1]
        entries = (
            RankingEntry.objects.filter(entry_scope(scope), snapshot_id=self.snapshot_id)
            .annotate(old_step=Subquery(old_step))
            .annotate(now=rank("step"), before=rank("old_step"))
        )
        counts = entries.aggregate(
            players=Count("pk"),
            up=Count("pk", filter=Q(now__gt=F("before"))),
            down=Count("pk", filter=Q(now__lt=F("before"))),
            same=Count("pk", filter=Q(now=F("before"))),
            new=Count("pk", filter=Q(old_step__isnull=True)),
        )
        return StepMoves(**counts)

    def same_as(self, other: Ranking) -> bool:
        return other.snapshot_id == self.snapshot_id
