"""Computing a season's ranking with the pure core and storing it as a snapshot.

:func:`load_inputs` reads everything the ranking depends on (standings, series
policy in force, manual placements) and must run in a transaction that holds
the season's writer lock, so the inputs are one consistent state.
:func:`compute` calls ``rankings.rules.national_ranking.compute_ranking`` —
the single source of the rules (carry-over, places, steps). :func:`write_snapshot`
stores the result (PostgreSQL ``COPY``; ``bulk_create`` elsewhere).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from django.db import connection, transaction

from core.folding import fold  # also re-exported: rankings.season.snapshots.fold (ranking_sql.py)
from federation.models import Player, Season, User
from rankings.models import (
    ManualPlacement,
    RankingEntry,
    RankingSnapshot,
    SeasonStanding,
    SeriesPolicyVersion,
)
from rankings.rules.national_ranking import PlayerStanding, Ranking, compute_ranking
from rankings.rules.series import ManualPlacement as Placement
from rankings.rules.series import SeriesPolicy
from rankings.season.series_policies import series_policy_in_force


@dataclass(frozen=True)
class PlayerFacts:
    """What a snapshot stores about a player besides the core's entry."""

    player_id: int
    tournaments: int
    previous_step: str
    search_name: str


@dataclass(frozen=True)
class RankingInputs:
    season: Season
    policy_version: SeriesPolicyVersion
    policy: SeriesPolicy
    inputs_version: int
    standings: list[PlayerStanding]
    facts: dict[int, PlayerFacts]  # by licence number
    placements: list[Placement]


def _mapped_step(policy: SeriesPolicy, step: str, series: int | None) -> str | None:
    """The previous step in this season's ladder: the same code, else the lowest
    step of the same series (a season may rename or drop steps)."""
    if not step:
        return None
    codes = {s.code for s in policy.ladder}
    if step in codes:
        return step
    for candidate in policy.ladder:  # lowest first
        if candidate.series == series:
            return candidate.code
    return policy.entry_step


_STANDINGS_SQL = f"""
    SELECT s.player_id, p.licence_number, p.last_name, p.first_name, s.committee_id, s.club_id,
           s.season_pcn, s.season_pp, s.tournaments, s.previous_pcn, s.previous_pp,
           s.previous_step, s.previous_series, s.missed_seasons
    FROM {SeasonStanding._meta.db_table} s
    JOIN {Player._meta.db_table} p ON p.id = s.player_id
    WHERE s.season_id = %s
"""


def load_inputs(*, season: Season, inputs_version: int) -> RankingInputs:
    """Read the season's ranking inputs (call under the season's writer lock)."""
    policy_version, policy = series_policy_in_force(season=season)
    standings: list[PlayerStanding] = []
    facts: dict[int, PlayerFacts] = {}
    by_player_id: dict[int, int] = {}
    with connection.cursor() as cursor:
        cursor.execute(_STANDINGS_SQL, [season.pk])
        rows = cursor.fetchall()
    for row in rows:
        (player_id, licence, last, first, committee, club, pcn, pp, tournaments,
         previous_pcn, previous_pp, previous_step, previous_series, missed) = row  # fmt: skip
        step = _mapped_step(policy, previous_step, previous_series)
        standings.append(
            PlayerStanding(
                player=licence,
                committee=committee,
                club=club,
                season_pcn=pcn,
                season_pp=pp,
                previous_pcn=previous_pcn if step else 0,
                previous_pp=previous_pp if step else 0,
                previous_step=step,
                missed_seasons=missed,
            )
        )
        facts[licence] = PlayerFacts(player_id, tournaments, previous_step, fold(f"{last} {first}"))
        by_player_id[player_id] = licence
    placements = [
        Placement(player=by_player_id[player_id], step=step, reason=reason)
        for player_id, step, reason in ManualPlacement.objects.filter(season=season)
        .order_by("player_id")
        .values_list("player_id", "step", "reason")
        if player_id in by_player_id  # a placed player no longer licensed is not ranked
    ]
    return RankingInputs(
        season, policy_version, policy, inputs_version, standings, facts, placements
    )


def compute(inputs: RankingInputs) -> Ranking:
    """The ranking of these inputs, by the pure core."""
    return compute_ranking(inputs.standings, inputs.policy, inputs.placements)


ENTRY_COLUMNS = [
    "snapshot_id", "rank_order", "player_id", "licence_number", "committee_id", "club_id",
    "season_pcn", "season_pp", "tournaments", "previous_step", "carried_pcn", "carried_pp",
    "total_pcn", "total_pp", "place", "place_in_committee", "place_in_club", "season_step",
    "points_step", "step", "series", "step_source", "manual_reason", "search_name",
]  # fmt: skip


def _entry_rows(
    snapshot_id: int, inputs: RankingInputs, ranking: Ranking
) -> Iterator[tuple[object, ...]]:
    facts = inputs.facts
    for order, e in enumerate(ranking.entries, start=1):
        f = facts[e.player]
        yield (
            snapshot_id, order, f.player_id, e.player, e.committee, e.club,
            e.season_pcn, e.season_pp, f.tournaments, f.previous_step, e.carried_pcn,
            e.carried_pp, e.total_pcn, e.total_pp, e.place, e.place_in_committee,
            e.place_in_club, e.season_step, e.points_step, e.step, e.series,
            e.step_source.value, e.manual_reason or "", f.search_name,
        )  # fmt: skip


def write_snapshot(
    *,
    inputs: RankingInputs,
    ranking: Ranking,
    kind: str,
    by: User | None = None,
    note: str = "",
    as_of: dt.date | None = None,
) -> RankingSnapshot:
    """Store a computed ranking as a new snapshot (in the caller's transaction);
    ``as_of``: the day of a ranking as of a date (``rankings/season/as_of.py``)."""
    snapshot = RankingSnapshot.objects.create(
        as_of=as_of,
        season=inputs.season,
        kind=kind,
        policy=inputs.policy_version,
        inputs_version=inputs.inputs_version,
        computed_by=by,
        player_count=len(ranking.entries),
        ranked_count=ranking.ranked_count,
        series_counts={
            str(series): count
            for series, count in sorted(Counter(e.series for e in ranking.entries).items())
        },
        share_cutoffs=[
            {"step": c.step, "top_share": str(c.top_share), "last_place": c.last_place}
            for c in ranking.share_cutoffs
        ],
        note=note[:300],
    )
    rows = _entry_rows(snapshot.pk, inputs, ranking)
    if connection.vendor == "postgresql":
        table = RankingEntry._meta.db_table
        with (
            connection.cursor() as cursor,
            cursor.cursor.copy(f"COPY {table} ({', '.join(ENTRY_COLUMNS)}) FROM STDIN") as copy,
        ):
            for row in rows:
                copy.write_row(row)
    else:
        names = [c.removesuffix("_id") if c.endswith("_id") else c for c in ENTRY_COLUMNS]
        # FK columns by attname. ENTRY_COLUMNS names concrete fields only; the stubs'
        # get_field also returns relations and generic keys, which have no attname.
        attnames = [
            RankingEntry._meta.get_field(name).attname  # type: ignore[union-attr]
            for name in names
        ]
        RankingEntry.objects.bulk_create(
            (RankingEntry(**dict(zip(attnames, row, strict=True))) for row in rows),
            batch_size=2000,
        )
    return snapshot


def refresh_statistics() -> None:
    """After every snapshot write (official, provisional, as of a day): fresh planner
    statistics of the snapshot tables once the write has committed (at once outside a
    transaction), so that reads of the new snapshot use the right index from the first
    request: with statistics older than the snapshot, PostgreSQL estimates it at one row
    and a search by name walked all its 150,000 entries (1.6 s) instead of starting from
    the name indexes. ``ANALYZE`` samples a fixed number of rows whatever the table's
    size; an autovacuum of these tables running at that moment gives way to it and is
    started again later."""
    if connection.vendor != "postgresql":
        return

    def analyze() -> None:
        with connection.cursor() as cursor:
            entries, snapshots = RankingEntry._meta.db_table, RankingSnapshot._meta.db_table
            cursor.execute(f"ANALYZE {entries}, {snapshots}")

    transaction.on_commit(analyze)
