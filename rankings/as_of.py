"""The national ranking as of a date: the live ranking of a season as it stood at the end
of a day (Europe/Paris), from the tournaments homologated by then.

Which date counts (docs/rankings-national.md, "Ranking as of a date"): a tournament
counts from its **first homologation** (``Tournament.homologated_at``), not from the
day it was played: the official ranking also counts what is homologated when it is
published. A tournament played before the day but homologated after it is not counted.
A later correction counts with its **current** figures (the ranking as of a day is the
season's current allocations of the tournaments homologated by the end of that day): the
ranking of a past day shows the corrected truth, as the official ranking would. The
registry (licensees, clubs, committees), the carry-over, the series policy and the
manual placements are the season's current ones.

How it is computed: :func:`rankings.ranking_sql.ranking_statement`, the statement of
the official publication, over a subquery of the standings in which the season's
points are the sums of those allocations (one statement; the pure core stays the
reference: ``tests/rankings/test_as_of.py``). The result is stored as a snapshot of
kind ``as_of`` keyed by (season, day, the fingerprint of that day's inputs,
:func:`as_of_key`): every later read of that day (pages, filters, search, the API) is
an index read of that snapshot, as for the official ranking, and a homologation after
the day leaves it valid (only a back-dated correction, a registry change, the policy or
the manual placements make a new one). A day's snapshot of other inputs is deleted when
its new one is written; at most :data:`AS_OF_KEEP` are kept per season.

:func:`places_over_season`: a player's place at the end of sampled days, in one
statement (see its doc).
"""

from __future__ import annotations

import datetime as dt
import threading
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from django.db import connection, transaction
from django.db.models import Count, Max

from competitions.models import Tournament
from core.problems import RuleViolation
from federation.models import Season
from rankings.models import (
    Allocation,
    ManualPlacement,
    RankingEntry,
    RankingKind,
    RankingSnapshot,
    SeasonStanding,
)
from rankings.ranking_sql import ranking_statement, sql_ranking_possible, write_ranking_snapshot
from rankings.ranking_state import season_ranking
from rankings.rules.national_ranking import PlayerStanding
from rankings.series_policies import series_policy_in_force
from rankings.snapshots import compute, load_inputs, write_snapshot

PARIS = ZoneInfo("Europe/Paris")
AS_OF_KEEP = 16
"""As-of snapshots kept per season (150,000 entries each at national scale)."""
AS_OF_LOCK = 0x46465403  # advisory lock key ("FFT" 03), with the season id

ALLOCATION = Allocation._meta.db_table
TOURNAMENT = Tournament._meta.db_table
STANDING = SeasonStanding._meta.db_table

AS_OF_STANDINGS = f"""(
    SELECT s.season_id, s.player_id, s.committee_id, s.club_id,
           COALESCE(t.pcn, 0) AS season_pcn, COALESCE(t.pp, 0) AS season_pp,
           COALESCE(t.n, 0) AS tournaments, s.previous_step, s.previous_pcn, s.previous_pp,
           s.previous_series, s.missed_seasons
    FROM {STANDING} s
    LEFT JOIN (
        SELECT a.player_id, SUM(a.pcn) AS pcn, SUM(a.pp) AS pp, COUNT(*) AS n
        FROM {ALLOCATION} a JOIN {TOURNAMENT} t ON t.id = a.tournament_id
        WHERE a.season_id = %(season)s AND a."current" AND t.season_id = %(season)s
          AND t.homologated_at < %(cutoff)s
        GROUP BY a.player_id
    ) t ON t.player_id = s.player_id
    WHERE s.season_id = %(season)s
)"""
"""The season's standings with the season's points as of ``%(cutoff)s``."""


def day_end(day: dt.date) -> dt.datetime:
    """The end of ``day`` in Paris: the first instant of the next day (exclusive)."""
    return dt.datetime.combine(day + dt.timedelta(days=1), dt.time(0), tzinfo=PARIS)


def check_day(season: Season, day: dt.date, *, field: str = "as_of") -> None:
    """A day within the season, else a located refusal."""
    if not season.start_date <= day <= season.end_date:
        raise RuleViolation.single(
            field,
            "as_of_outside_season",
            f"{day.isoformat()} is not within the season {season.name} "
            f"({season.start_date.isoformat()} to {season.end_date.isoformat()}).",
            {
                "date": day.isoformat(),
                "season": season.name,
                "start": season.start_date.isoformat(),
                "end": season.end_date.isoformat(),
            },
        )


def ranking_as_of(*, season: Season, day: dt.date) -> RankingSnapshot:
    """The season's ranking as it stood at the end of ``day``: the snapshot stored for
    the day's inputs (:func:`as_of_key`), else computed and stored now (a read-through
    cache: anyone may read it, so no permission)."""
    check_day(season, day)
    key = as_of_key(season, day)
    found = _stored(season, day, key)
    if found is not None:
        return found
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:  # one writer per season: no duplicate work
                cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [AS_OF_LOCK, season.pk])
        found = _stored(season, day, key)
        if found is not None:
            return found
        version = season_ranking(season.pk).inputs_version
        snapshot = _compute(season, day, version, key)
        _discard_superseded(season, day, keep=snapshot.pk)
    return RankingSnapshot.objects.select_related("season", "policy").get(pk=snapshot.pk)


def _stored(season: Season, day: dt.date, key: str) -> RankingSnapshot | None:
    return (
        RankingSnapshot.objects.select_related("season", "policy")
        .filter(season=season, kind=RankingKind.AS_OF, as_of=day, as_of_key=key)
        .first()
    )


# --- the key: what a day's ranking is computed from ---------------------------------

_KEYS_KEPT = 1024
_season_parts: dict[tuple[int, int], str] = {}
_day_parts: dict[tuple[int, dt.date, int], str] = {}
_memo_lock = threading.Lock()


def as_of_key(season: Season, day: dt.date) -> str:
    """The fingerprint of the inputs of the ranking as of ``day``, so that a stored day
    survives what does not change it (a tournament homologated after the day):

    - the tournaments homologated by the end of the day: how many, and the highest
      homologated revision id among them (a correction gives its tournament a new
      revision, higher than every revision before it);
    - the standings but their season points (licensees, committee, club, previous
      official ranking and missed seasons), hashed;
    - the series policy version and the manual placements.

    Each process remembers it per (season, day, inputs version): computed again only
    when the season's inputs version moves (index reads and one pass over the season's
    standings; measured by the benchmark)."""
    version = season_ranking(season.pk).inputs_version
    with _memo_lock:
        season_part = _season_parts.get((season.pk, version))
        day_part = _day_parts.get((season.pk, day, version))
    if season_part is None:
        season_part = _season_part(season)
        with _memo_lock:
            if len(_season_parts) >= _KEYS_KEPT:
                _season_parts.clear()
            _season_parts[(season.pk, version)] = season_part
    if day_part is None:
        day_part = _day_part(season, day)
        with _memo_lock:
            if len(_day_parts) >= _KEYS_KEPT:
                _day_parts.clear()
            _day_parts[(season.pk, day, version)] = day_part
    return f"{day_part}.{season_part}"


def _day_part(season: Season, day: dt.date) -> str:
    row = Tournament.objects.filter(season=season, homologated_at__lt=day_end(day)).aggregate(
        count=Count("pk"), last=Max("homologated_revision_id")
    )
    return f"t{row['count']}.{row['last'] or 0}"


REGISTRY_COLUMNS = (
    "player_id, committee_id, COALESCE(club_id, 0), previous_step, previous_pcn, previous_pp, "
    "COALESCE(previous_series, 0), missed_seasons"
)


def _season_part(season: Season) -> str:
    policy_version, _policy = series_policy_in_force(season=season)
    placements = ManualPlacement.objects.filter(season=season).aggregate(
        count=Count("pk"), last=Max("updated_at")
    )
    last = placements["last"].timestamp() if placements["last"] else 0
    if connection.vendor == "postgresql":
        digest = f"SUM(hashtextextended(concat_ws(',', {REGISTRY_COLUMNS}), 0))"
    else:  # SQLite (the embedded default): a weighted sum
        digest = (
            "SUM(player_id * 7 + committee_id * 13 + COALESCE(club_id, 0) * 17 + previous_pcn"
            " * 19 + previous_pp * 23 + missed_seasons * 29 + length(previous_step) * 31)"
        )
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT COUNT(*), {digest} FROM {STANDING} WHERE season_id = %s", [season.pk]
        )
        count, total = cursor.fetchone()
    return f"p{policy_version.pk}.m{placements['count']}.{last:.0f}.r{count}.{total or 0}"


def _compute(season: Season, day: dt.date, version: int, key: str) -> RankingSnapshot:
    policy_version, policy = series_policy_in_force(season=season)
    cutoff = day_end(day)
    if sql_ranking_possible(season=season, policy=policy):
        snapshot = write_ranking_snapshot(
            season=season,
            kind=RankingKind.AS_OF,
            policy_version=policy_version,
            policy=policy,
            inputs_version=version,
            standings=AS_OF_STANDINGS,
            standings_params={"cutoff": cutoff},
            as_of=day,
        )
    else:  # SQLite, or inputs the core refuses (it raises their located problems)
        inputs = as_of_inputs(season=season, day=day, inputs_version=version)
        snapshot = write_snapshot(
            inputs=inputs, ranking=compute(inputs), kind=RankingKind.AS_OF, as_of=day
        )
    RankingSnapshot.objects.filter(pk=snapshot.pk).update(as_of_key=key)
    return snapshot


def as_of_inputs(*, season: Season, day: dt.date, inputs_version: int):
    """The pure core's inputs as of ``day``: the season's inputs with each standing's
    season points and tournaments summed from the allocations counted that day (the
    Python path, and the reference of the tests)."""
    inputs = load_inputs(season=season, inputs_version=inputs_version)
    sums: dict[int, list[int]] = {}
    for player_id, pcn, pp in Allocation.objects.filter(
        season=season, current=True, tournament__homologated_at__lt=day_end(day)
    ).values_list("player_id", "pcn", "pp"):
        total = sums.setdefault(player_id, [0, 0, 0])
        total[0] += pcn
        total[1] += pp
        total[2] += 1
    standings: list[PlayerStanding] = []
    facts = {}
    for standing in inputs.standings:
        fact = inputs.facts[standing.player]
        pcn, pp, count = sums.get(fact.player_id, (0, 0, 0))
        standings.append(
            PlayerStanding(
                player=standing.player,
                committee=standing.committee,
                club=standing.club,
                season_pcn=pcn,
                season_pp=pp,
                previous_pcn=standing.previous_pcn,
                previous_pp=standing.previous_pp,
                previous_step=standing.previous_step,
                missed_seasons=standing.missed_seasons,
            )
        )
        facts[standing.player] = type(fact)(
            fact.player_id, count, fact.previous_step, fact.search_name
        )
    return type(inputs)(
        inputs.season,
        inputs.policy_version,
        inputs.policy,
        inputs.inputs_version,
        standings,
        facts,
        inputs.placements,
    )


def _discard_superseded(season: Season, day: dt.date, *, keep: int) -> None:
    """Delete the day's snapshots of other inputs (never read again: the key is the
    inputs) and the season's oldest beyond :data:`AS_OF_KEEP`."""
    stored = list(
        RankingSnapshot.objects.filter(season=season, kind=RankingKind.AS_OF)
        .exclude(pk=keep)
        .order_by("-computed_at", "-pk")
        .values_list("pk", "as_of")
    )
    doomed = [
        pk for index, (pk, as_of) in enumerate(stored) if as_of == day or index >= AS_OF_KEEP - 1
    ]
    if doomed:
        RankingEntry.objects.filter(snapshot_id__in=doomed).delete()
        RankingSnapshot.objects.filter(pk__in=doomed, kind=RankingKind.AS_OF).delete()


# --- a player's place over the season -----------------------------------------------


@dataclass(frozen=True)
class PlacePoint:
    """A player's place at the end of ``day`` (``None``: not ranked that day)."""

    day: dt.date
    place: int | None
    total_pcn: int
    players: int


def sample_days(season: Season, today: dt.date) -> list[dt.date]:
    """The days a player's place is plotted on: the last day of each month of the
    season before ``today``, and the last day before ``today`` (or the season's end)."""
    last = min(season.end_date, today - dt.timedelta(days=1))
    if last < season.start_date:
        return []
    days = []
    month = season.start_date.replace(day=1)
    while True:
        following = (month + dt.timedelta(days=32)).replace(day=1)
        end = following - dt.timedelta(days=1)
        if end >= last:
            break
        days.append(end)
        month = following
    days.append(last)
    return days


def places_over_season(*, season: Season, player_id: int, days: list[dt.date]) -> list[PlacePoint]:
    """The player's place at the end of each of ``days``, as :func:`ranking_as_of`
    would give it, in one statement that never ranks the whole season per day.

    A place is 1 + the number of players whose key (total PCN, then total PP when the
    policy lets it break ties) is greater. Per player, the allocations are grouped by
    the first sampled day that counts them (a bucket) and summed cumulatively over the
    buckets (a window): each player's total is a step function known where it
    changes. For each day, players who played by then are counted on the interval
    (bucket, next bucket) of their cumulative total; players who had not keep their
    carried points. Cost: one pass over the season's allocations, one row per playing
    player and day, no sort of the season per day (PostgreSQL; elsewhere, the as-of
    rankings themselves)."""
    if not days:
        return []
    _version, policy = series_policy_in_force(season=season)
    if connection.vendor != "postgresql":
        return _places_by_snapshots(season, player_id, days)
    cutoffs = [day_end(d) for d in days]
    statement = ranking_statement(policy, select_only=True)
    if policy.pp_breaks_ties:
        better = "(x.pcn > m.pcn OR (x.pcn = m.pcn AND x.pp > m.pp))"
    else:
        better = "x.pcn > m.pcn"
    sql = f"""
    WITH cut AS (
        SELECT k::int AS k, c FROM unnest(%(cutoffs)s::timestamptz[]) WITH ORDINALITY AS u(c, k)
    ), carried AS MATERIALIZED ({_carried_sql(statement.sql)}
    ), buckets AS (
        SELECT a.player_id, b.k AS bucket, SUM(a.pcn) AS pcn, SUM(a.pp) AS pp
        FROM {ALLOCATION} a JOIN {TOURNAMENT} t ON t.id = a.tournament_id
        CROSS JOIN LATERAL (SELECT MIN(k) AS k FROM cut WHERE t.homologated_at < cut.c) b
        WHERE a.season_id = %(season)s AND a."current" AND t.season_id = %(season)s
          AND t.homologated_at < %(last)s
        GROUP BY 1, 2
    ), steps AS MATERIALIZED (
        SELECT b.player_id, b.bucket,
               LEAD(b.bucket, 1, %(after)s) OVER w AS next_bucket,
               c.carried_pcn + SUM(b.pcn) OVER w AS pcn,
               c.carried_pp + SUM(b.pp) OVER w AS pp
        FROM buckets b JOIN carried c ON c.player_id = b.player_id
        WINDOW w AS (PARTITION BY b.player_id ORDER BY b.bucket)
    ), first_bucket AS MATERIALIZED (
        SELECT player_id, MIN(bucket) AS bucket FROM steps GROUP BY 1
    ), mine AS MATERIALIZED (
        SELECT cut.k, COALESCE(s.pcn, c.carried_pcn) AS pcn, COALESCE(s.pp, c.carried_pp) AS pp
        FROM cut CROSS JOIN carried c
        LEFT JOIN steps s ON s.player_id = c.player_id AND cut.k >= s.bucket
                         AND cut.k < s.next_bucket
        WHERE c.player_id = %(player)s
    ), played AS (
        SELECT m.k, COUNT(*) AS n FROM mine m
        JOIN steps x ON m.k >= x.bucket AND m.k < x.next_bucket AND {better}
        GROUP BY m.k
    ), waiting AS (
        SELECT m.k, COUNT(*) AS n FROM mine m
        JOIN (SELECT c.carried_pcn AS pcn, c.carried_pp AS pp, f.bucket FROM carried c
              LEFT JOIN first_bucket f ON f.player_id = c.player_id) x
          ON (x.bucket IS NULL OR x.bucket > m.k) AND {better}
        GROUP BY m.k
    )
    SELECT m.k, m.pcn, COALESCE(p.n, 0) + COALESCE(w.n, 0), (SELECT COUNT(*) FROM carried)
    FROM mine m LEFT JOIN played p ON p.k = m.k LEFT JOIN waiting w ON w.k = m.k
    ORDER BY m.k
    """
    params = {
        **statement.params,
        "season": season.pk,
        "cutoffs": cutoffs,
        "last": cutoffs[-1],
        "after": len(days) + 1,
        "player": player_id,
    }
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL jit = off; SET LOCAL work_mem = '64MB'")  # one round trip
        cursor.execute(sql, params)
        rows = {k: (pcn, above, count) for k, pcn, above, count in cursor.fetchall()}
    points = []
    for index, day in enumerate(days, start=1):
        if index in rows:
            pcn, above, count = rows[index]
            points.append(PlacePoint(day, int(above) + 1, int(pcn), int(count)))
        else:  # not a licensee of the season
            points.append(PlacePoint(day, None, 0, 0))
    return points


def _carried_sql(select: str) -> str:
    """The ``base`` and ``totals`` steps of the generated ranking statement (each
    licensee's carried PCN and PP, exactly as the ranking computes them), as a query."""
    head, found, _rest = select.partition("), summed AS (")
    assert found, "the ranking statement's steps changed"
    return f"{head}) SELECT player_id, carried_pcn, carried_pp FROM totals"


def _places_by_snapshots(season: Season, player_id: int, days: list[dt.date]) -> list[PlacePoint]:
    points = []
    for day in days:
        snapshot = ranking_as_of(season=season, day=day)
        entry = (
            RankingEntry.objects.filter(snapshot=snapshot, player_id=player_id)
            .values_list("place", "total_pcn")
            .first()
        )
        place, pcn = entry if entry else (None, 0)
        points.append(PlacePoint(day, place, pcn, snapshot.player_count))
    return points
