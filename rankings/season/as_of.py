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

How it is computed: :func:`rankings.season.ranking_sql.ranking_statement`, the statement of
the official publication, over a subquery of the standings in which the season's
points are the sums of those allocations (one statement; the pure core stays the
reference: ``tests/rankings/season/test_as_of.py``). The result is stored as a snapshot of
kind ``as_of`` keyed by (season, day, the fingerprint of that day's inputs,
:func:`as_of_key`): every later read of that day (pages, filters, search, the API) is
an index read of that snapshot, as for the official ranking, and a homologation after
the day leaves it valid (only a back-dated correction, a registry change, the policy or
the manual placements make a new one). A day's snapshot of other inputs is deleted when
its new one is written; at most :data:`AS_OF_KEEP` are kept per season.

:func:`places_over_season`: a player's place at the end of each month of the season,
read from the stored month ends (one query); the month ends are computed in the
background (``rankings.as_of_days``: every night for the current season, and when a
page finds one missing).
"""

from __future__ import annotations

import datetime as dt
import threading
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.cache import caches
from django.db import connection, transaction
from django.db.models import Count, Max
from django.utils import timezone

from competitions.models import Allocation, Tournament
from core.problems import Problem, RuleViolation
from core.tasks import send_on_commit, tasks_run_inline
from federation.models import Season
from federation.selectors import current_season
from rankings.models import (
    AsOfAsk,
    ManualPlacement,
    RankingEntry,
    RankingKind,
    RankingSnapshot,
    SeasonStanding,
)
from rankings.rules.national_ranking import PlayerStanding
from rankings.season.locks import AS_OF, AS_OF_ASK
from rankings.season.ranking_sql import sql_ranking_possible, write_ranking_snapshot
from rankings.season.ranking_state import season_ranking
from rankings.season.series_policies import series_policy_in_force
from rankings.season.snapshots import (
    PlayerFacts,
    RankingInputs,
    compute,
    load_inputs,
    refresh_statistics,
    write_snapshot,
)

PARIS = ZoneInfo("Europe/Paris")
AS_OF_KEEP = 8
"""As-of snapshots of days other than month ends kept per season (150,000 entries each
at national scale); a month end's (the points of a player's place over the season) is
kept until its inputs change: at most 8 + 12 per season."""

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
                cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [AS_OF, season.pk])
        found = _stored(season, day, key)
        if found is not None:
            return found
        version = season_ranking(season.pk).inputs_version
        snapshot = _compute(season, day, version, key)
        _discard_superseded(season, day, keep=snapshot.pk)
    return RankingSnapshot.objects.select_related("season", "policy").get(pk=snapshot.pk)


class RankingBeingComputed(Exception):
    """The ranking as of ``day`` is not stored yet: a worker is computing it; ask again
    in ``retry_after`` seconds."""

    retry_after = 15

    def __init__(self, day: dt.date) -> None:
        super().__init__(day.isoformat())
        self.day = day


class AsOfQueueFull(Exception):
    """The ranking as of ``day`` is not stored, and ``queued`` computations of its season
    (``AS_OF_QUEUED_MAX``) are queued already: ask again in ``retry_after`` seconds."""

    retry_after = 60

    def __init__(self, season: Season, day: dt.date, queued: int) -> None:
        super().__init__(day.isoformat())
        self.day, self.queued = day, queued
        self.problem = Problem(
            "as_of",
            "as_of_queue_full",
            f"{queued} rankings of the season {season.name} as of a day are being computed "
            f"already: ask for {day.isoformat()} again in a minute, or for a month end.",
            {"queued": queued, "season": season.name, "date": day.isoformat()},
        )


def ranking_as_of_for_reader(*, season: Season, day: dt.date) -> RankingSnapshot:
    """What a reader's request gets: the stored ranking of the day at once; a day not
    stored yet is computed in the request only where tasks run in-process (the embedded
    default); otherwise a worker computes it (``rankings.as_of_days``, on the ``asof``
    queue: never in the way of a homologation) and :class:`RankingBeingComputed` says to
    come back. A first read costs about what publishing the official ranking costs
    (seconds at 150,000 players): a web process never waits for it, and readers asking
    many days queue at most ``AS_OF_QUEUED_MAX`` computations per season at a time
    (:func:`as_of_ask`); beyond, :class:`AsOfQueueFull` (docs/rankings-national.md)."""
    if tasks_run_inline():
        return ranking_as_of(season=season, day=day)
    check_day(season, day)
    key = as_of_key(season, day)
    found = _stored(season, day, key)
    if found is not None:
        return found
    as_of_ask(season=season, day=day)
    raise RankingBeingComputed(day)


def _asks(season: Season):
    """The season's asks still pending: an ask older than the broker's visibility timeout
    was lost (its task failed for good, or its worker died and it was redelivered)."""
    since = timezone.now() - dt.timedelta(
        seconds=settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    )
    return AsOfAsk.objects.filter(season=season, asked_at__gte=since)


def queued_days(season: Season) -> set[dt.date]:
    """The season's days whose computation a reader asked for and no worker has done yet."""
    return set(_asks(season).values_list("day", flat=True))


def as_of_ask(*, season: Season, day: dt.date) -> None:
    """Have a worker compute the season's ranking as of ``day`` (sent on commit), unless
    it is queued already; refused (:class:`AsOfQueueFull`) while ``AS_OF_QUEUED_MAX``
    days of the season are queued. Counted and asked under the season's ask lock: two
    readers at once never queue one more than the bound. The worker deletes the ask once
    the day is computed (:func:`as_of_days_compute`)."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [AS_OF_ASK, season.pk])
        queued = queued_days(season)
        if day in queued:
            return
        if len(queued) >= settings.AS_OF_QUEUED_MAX:
            raise AsOfQueueFull(season, day, len(queued))
        AsOfAsk.objects.filter(season=season, day=day).delete()  # an expired ask
        AsOfAsk.objects.create(season=season, day=day)
        send_on_commit("rankings.as_of_days", season.pk, [day.isoformat()])


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


def as_of_inputs(*, season: Season, day: dt.date, inputs_version: int) -> RankingInputs:
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
    facts: dict[int, PlayerFacts] = {}
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
        facts[standing.player] = PlayerFacts(
            fact.player_id, count, fact.previous_step, fact.search_name
        )
    return RankingInputs(
        inputs.season,
        inputs.policy_version,
        inputs.policy,
        inputs.inputs_version,
        standings,
        facts,
        inputs.placements,
    )


def is_month_end(day: dt.date) -> bool:
    return (day + dt.timedelta(days=1)).day == 1


def _discard_superseded(season: Season, day: dt.date, *, keep: int) -> None:
    """Delete the day's snapshots of other inputs (never read again: the key is the
    inputs) and, month ends apart, the season's oldest beyond :data:`AS_OF_KEEP`."""
    stored = list(
        RankingSnapshot.objects.filter(season=season, kind=RankingKind.AS_OF)
        .exclude(pk=keep)
        .order_by("-computed_at", "-pk")
        .values_list("pk", "as_of")
    )
    others = [(pk, as_of) for pk, as_of in stored if as_of is None or not is_month_end(as_of)]
    doomed = {pk for pk, as_of in stored if as_of == day}
    doomed |= {pk for pk, _as_of in others[AS_OF_KEEP - 1 :]}
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
    """The player's place at the end of each of ``days``, read from the stored rankings
    as of those days (the latest stored for each day): one query, whatever the season's
    size. A day not stored yet has no place (``None``): :func:`as_of_days_prepare`
    has it computed in the background; ``rankings.as_of_days`` computes the month ends
    of the current season every night, so a player's page never ranks the season."""
    if not days:
        return []
    stored = (
        RankingSnapshot.objects.filter(season=season, kind=RankingKind.AS_OF, as_of__in=days)
        .order_by("as_of", "-computed_at", "-pk")
        .distinct("as_of")
        .values_list("pk", flat=True)
        if connection.vendor == "postgresql"
        else _latest_by_day(season, days)
    )
    rows = {
        as_of: (place, pcn, count)
        for as_of, place, pcn, count in RankingEntry.objects.filter(
            snapshot_id__in=stored, player_id=player_id
        ).values_list("snapshot__as_of", "place", "total_pcn", "snapshot__player_count")
    }
    points = []
    for day in days:
        place, pcn, count = rows.get(day, (None, 0, 0))
        points.append(PlacePoint(day, place, pcn, count))
    return points


def _latest_by_day(season: Season, days: list[dt.date]) -> list[int]:
    latest: dict[dt.date, int] = {}
    for pk, as_of in (
        RankingSnapshot.objects.filter(season=season, kind=RankingKind.AS_OF, as_of__in=days)
        .order_by("computed_at", "pk")
        .values_list("pk", "as_of")
    ):
        if as_of is not None:  # always, for this kind (a constraint)
            latest[as_of] = pk
    return list(latest.values())


def missing_days(season: Season, days: list[dt.date]) -> list[dt.date]:
    """The days with no stored ranking (one query)."""
    stored = set(
        RankingSnapshot.objects.filter(
            season=season, kind=RankingKind.AS_OF, as_of__in=days
        ).values_list("as_of", flat=True)
    )
    return [day for day in days if day not in stored]


PREPARE_EVERY_S = 600


def as_of_days_prepare(*, season: Season, days: list[dt.date]) -> bool:
    """Have these days' rankings computed in the background (``rankings.as_of_days``),
    at most once per ``PREPARE_EVERY_S`` per season and days (a page read may ask)."""
    if not days:
        return False
    marker = f"as-of-prepare:{season.pk}:{','.join(d.isoformat() for d in days)}"
    if not caches["default"].add(marker, 1, PREPARE_EVERY_S):
        return False
    send_on_commit("rankings.as_of_days", season.pk, [d.isoformat() for d in days])
    return True


def as_of_days_compute(*, season_id: int, days: list[str]) -> int:
    """Compute (or find stored) the season's rankings as of these days; how many. When any
    was computed, the planner's statistics are renewed: a snapshot newer than them is
    estimated at one row, and a search by name in it then reads every entry (rare: the
    nightly days and the days readers ask for, each computed once)."""
    season = Season.objects.get(pk=season_id)
    latest = _latest_as_of(season)
    done = 0
    for text in days:
        day = dt.date.fromisoformat(text)
        if season.start_date <= day <= season.end_date:
            ranking_as_of(season=season, day=day)
            AsOfAsk.objects.filter(season=season, day=day).delete()  # a reader's, if any
            done += 1
    if _latest_as_of(season) != latest:
        refresh_statistics()
    return done


def _latest_as_of(season: Season) -> int | None:
    return (
        RankingSnapshot.objects.filter(season=season, kind=RankingKind.AS_OF)
        .order_by("-pk")
        .values_list("pk", flat=True)
        .first()
    )


def as_of_nightly_compute() -> int:
    """Every night: the current season's month ends so far and yesterday (Paris)."""
    season = current_season()
    if season is None:
        return 0
    days = sample_days(season, timezone.localdate(timezone=PARIS))
    return as_of_days_compute(season_id=season.pk, days=[d.isoformat() for d in days])
