"""The public reads of the ranking as plain rows (``.values()``): what the cached API
and pages build on a miss, without model instances where nothing needs them.

- :func:`entry_rows`: one page of a ranking, each entry a dict of :data:`ENTRY_COLUMNS`;
- :func:`match_count`: how many entries a filter matches (a name search counts up to
  ``rankings.search.COUNT_CAP``);
- :func:`player_record`: a player's record (``selectors.PlayerRecord``) in five queries.

They read official snapshots and the provisional snapshot (the live ranking without
Redis) from the database. The live ranking kept in the Redis store
(``rankings/live_store.py``) goes through the live reads (``selectors.LiveQuery``,
``rankings/live_reads.py``): :func:`entry_rows` gives its lines as the same dicts, and
:func:`player_record` takes the player's live line from the store, so the readers (API,
pages) pick nothing themselves.
"""

from __future__ import annotations

from typing import Any

from django.db.models import FilteredRelation, Q
from django.utils import timezone

from competitions.models import Allocation
from federation.models import Player, Season
from rankings import live_reads, live_store, search, selectors
from rankings.live_reads import LiveEntry, LiveRanking
from rankings.models import PlayerSeasonTotal, RankingEntry, RankingSnapshot, SeasonRanking


class PlayerMoved(Exception):
    """The licence number is a record merged into another (portal/merging.py): its
    old links lead to the kept record's, ``licence_number``."""

    def __init__(self, licence_number: int) -> None:
        super().__init__(licence_number)
        self.licence_number = licence_number


ENTRY_COLUMNS = (
    "place", "licence_number", "player__last_name", "player__first_name",
    "player__name_hidden", "committee__number", "club__number", "club__name", "season_pcn",
    "season_pp",
    "carried_pcn", "carried_pp", "total_pcn", "total_pp", "tournaments",
    "place_in_committee", "place_in_club", "step", "series", "season_step", "points_step",
    "step_source",
)  # fmt: skip


def entry_rows(
    entries: Any, filters: selectors.RankingFilter, start: int, size: int
) -> list[dict[str, Any]]:
    """One page of ``entries`` (``selectors.ranking_entries``: a queryset, or a
    ``LiveQuery`` over the store; see ``selectors.entries_page``) as dicts."""
    if isinstance(entries, selectors.LiveQuery):
        return [live_row(e) for e in entries.page(start, size)]
    values: Any = entries.values(*ENTRY_COLUMNS)
    return selectors.entries_page(values, filters, start, size)


def live_row(entry: LiveEntry) -> dict[str, Any]:
    """A live line (``live_reads.with_names``) as an :data:`ENTRY_COLUMNS` dict."""
    player, committee, club = entry.player, entry.committee, entry.club
    related = {
        "player__last_name": player.last_name if player else "",
        "player__first_name": player.first_name if player else "",
        "player__name_hidden": player.name_hidden if player else False,
        "committee__number": committee.number if committee else None,
        "club__number": club.number if club else None,
        "club__name": club.name if club else None,
    }
    return {c: related[c] if c in related else getattr(entry, c) for c in ENTRY_COLUMNS}


def match_count(
    snapshot: Any, filters: selectors.RankingFilter, entries: Any
) -> search.SearchCount:
    """How many entries match: exact without a search, capped with one."""
    if isinstance(entries, selectors.LiveQuery):
        return entries.search_count()
    if filters.query.strip():
        return search.capped_count(entries, filters.query)
    return search.SearchCount(selectors.entry_count(snapshot, filters, entries), False)


def player_record(
    licence_number: int, season_name: str | None, kind: str | None = None
) -> tuple[Season | None, selectors.PlayerRecord | None]:
    """``selectors.player_record`` in five queries whatever the history: the seasons with
    their ranking pointers, snapshots and policies (one query: a few dozen rows), the
    player with the season's licence, every entry of theirs in the snapshots shown, the
    season's allocations, the season totals. ``(None, None)``: unknown season."""
    seasons = list(
        Season.objects.select_related("ranking__live__policy", "ranking__official__policy")
        .order_by("-start_date")
    )  # fmt: skip
    states = {s.pk: _state(s) for s in seasons}
    season = _season(seasons, season_name)
    if season is None:
        return None, None
    player = (
        Player.objects.annotate(
            season_licence=FilteredRelation("licences", condition=Q(licences__season=season))
        )
        .select_related("season_licence__club__committee", "merged_into")  # type: ignore[misc]
        .filter(licence_number=licence_number)
        .first()
    )
    if player is None:
        return season, None
    if player.merged_into is not None:
        raise PlayerMoved(player.merged_into.licence_number)
    state = states[season.pk]
    snapshot: Any = None
    if state is not None:
        live = kind == selectors.LIVE or (kind != selectors.OFFICIAL and state.official is None)
        if not live:
            snapshot = state.official
        elif live_store.enabled():
            snapshot = live_reads.live_ranking(season, state)  # the live reads (Redis)
        else:
            snapshot = state.live
    earlier = [s for s in seasons if s.start_date < season.start_date]
    before = earlier[0] if earlier else None
    held_state = states[before.pk] if before else None
    held_snapshot = held_state.official if held_state else None
    snapshots: dict[int, RankingSnapshot] = {}
    for s in seasons:
        ranking = states[s.pk]
        for snap in (ranking.live, ranking.official) if ranking is not None else ():
            if snap is not None:
                snap.season = s
                snapshots[snap.pk] = snap
    officials = {st.official_id for st in states.values() if st and st.official_id}
    wanted = officials | {snap.pk for snap in (snapshot, held_snapshot) if snap and snap.pk}
    entries = {
        e.snapshot_id: e
        for e in RankingEntry.objects.filter(
            player_id__in=selectors.same_person(player), snapshot_id__in=wanted
        )
        .select_related("committee", "club")
        .order_by()
    }
    for e in entries.values():
        e.snapshot = snapshots[e.snapshot_id]
        e.player = player
    history = sorted(
        (entries[i] for i in officials if i in entries),
        key=lambda e: e.snapshot.season.start_date,
    )
    tournaments = list(
        Allocation.objects.filter(player=player, season=season, current=True)
        .select_related("tournament")
        .order_by("-tournament__date", "-tournament_id")
    )
    by_id = {s.pk: s for s in seasons}
    season_totals = sorted(
        PlayerSeasonTotal.objects.filter(player=player),
        key=lambda t: by_id[t.season_id].start_date,
    )
    for total in season_totals:
        total.season = by_id[total.season_id]
    entry: Any = entries.get(snapshot.pk) if snapshot and snapshot.pk else None
    if isinstance(snapshot, LiveRanking):
        found = live_reads.with_names(live_reads.lines(snapshot, [licence_number]))
        entry = found[0] if found else None
    record = selectors.PlayerRecord(
        player, season, getattr(player, "season_licence", None), entry, snapshot,
        entries.get(held_snapshot.pk) if held_snapshot else None, held_snapshot,
        tournaments, history, season_totals,
    )  # fmt: skip
    return season, record


def _state(season: Season) -> SeasonRanking | None:
    try:
        return season.ranking
    except SeasonRanking.DoesNotExist:
        return None


def _season(seasons: list[Season], name: str | None) -> Season | None:
    """As ``selectors.season_named`` over the seasons already read."""
    if name:
        return next((s for s in seasons if s.name == name), None)
    today = timezone.localdate()
    current = [s for s in seasons if s.start_date <= today <= s.end_date]
    return current[0] if current else (seasons[0] if seasons else None)
