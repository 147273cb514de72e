"""Season standings: the input rows of the national ranking, written by set-based SQL.

One function, :func:`standings_write`, serves both paths, so they cannot differ:

- the **incremental update** (``player_ids`` given): the players of a
  homologated or corrected tournament;
- the **full recompute** (``player_ids=None``): every licensee of the season.

In one transaction, under the season's writer lock (``locks.py``), it

1. computes every target row **in one statement** into a temporary *stage*
   table: the season's licensees (committee and club of the licence) fully
   joined with the per-player sums of the current allocations (PCN, PP,
   tournaments) and with each licensee's entry in the last published official
   ranking before this season (total PCN/PP, step, series, season) and the
   number of seasons without a licence since; each row is marked *same*,
   *changed* or *missing* against the stored ``PlayerSeasonTotal`` and
   ``SeasonStanding``;
2. merges into both tables: deletes the rows no longer there (no current
   allocation; no licence), updates the rows marked changed, inserts the
   missing ones — only what changes is written, so a second run writes nothing;
3. bumps the season's ranking inputs version when any row changed.

Portable SQL (PostgreSQL, and SQLite ≥ 3.39: FULL JOIN, window functions,
``UPDATE … FROM``); PostgreSQL gets ``DISTINCT ON``, no JIT and more
``work_mem`` for the transaction, and fresh statistics after a large rewrite.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.backends.utils import CursorWrapper
from django.utils import timezone

from competitions.models import Allocation
from federation.models import Club, Licence, Player, RegistryWrite, Season
from rankings.locks import season_writer_lock
from rankings.models import PlayerSeasonTotal, RankingEntry, SeasonRanking, SeasonStanding
from rankings.ranking_state import inputs_changed

T = {
    "allocation": Allocation._meta.db_table,
    "total": PlayerSeasonTotal._meta.db_table,
    "standing": SeasonStanding._meta.db_table,
    "licence": Licence._meta.db_table,
    "player": Player._meta.db_table,
    "club": Club._meta.db_table,
    "season": Season._meta.db_table,
    "entry": RankingEntry._meta.db_table,
    "season_ranking": SeasonRanking._meta.db_table,
    "registry_write": RegistryWrite._meta.db_table,
}


@dataclass(frozen=True)
class StandingsWrite:
    """What one write changed (rows inserted or updated, rows deleted)."""

    totals_written: int
    totals_deleted: int
    standings_written: int
    standings_deleted: int

    @property
    def changed(self) -> bool:
        return any(
            (
                self.totals_written,
                self.totals_deleted,
                self.standings_written,
                self.standings_deleted,
            )
        )


def _count(rowcount: int) -> int:
    """Rows a statement changed; a driver that cannot tell (-1) counts as a change."""
    return 1 if rowcount < 0 else rowcount


def _ids_filter(column: str, ids: list[int] | None) -> tuple[str, list]:
    """``AND column IN ids`` (nothing when ids is None: every player)."""
    if ids is None:
        return "", []
    if connection.vendor == "postgresql":
        return f" AND {column} = ANY(%s)", [ids]
    return f" AND {column} IN ({', '.join(['%s'] * len(ids))})", list(ids)


def _distinct(left: str, right: str) -> str:
    operator = "IS DISTINCT FROM" if connection.vendor == "postgresql" else "IS NOT"
    return f"{left} {operator} {right}"


STANDING_COLUMNS = [
    "committee_id",
    "club_id",
    "season_pcn",
    "season_pp",
    "tournaments",
    "previous_season_id",
    "previous_pcn",
    "previous_pp",
    "previous_step",
    "previous_series",
    "missed_seasons",
]
TOTAL_COLUMNS = {"pcn": "season_pcn", "pp": "season_pp", "tournaments": "tournaments"}
STANDING_MAP = {c: c for c in STANDING_COLUMNS}
TOTAL_KEEP = "s.tournaments > 0"  # a total exists for every player with a current allocation
STANDING_KEEP = "s.licensed"  # a standing exists for every licensee of the season
STAGE = "rankings_stage"  # a temporary table, dropped at the end of each write
WHOLE_SEASON_ABOVE = 20_000  # players: beyond this an incremental update runs as a full one
ANALYZE_AFTER = 5000  # rows rewritten by one call, after which the statistics are renewed


def _season_before(season: Season) -> Season | None:
    return Season.objects.filter(start_date__lt=season.start_date).order_by("-start_date").first()


def _previous_official_sql(entry_only: str) -> str:
    """Each player's entry in the latest published official ranking of a season
    before this one (PostgreSQL: DISTINCT ON; elsewhere: ROW_NUMBER).

    Official snapshots are immutable: a line of a record merged since into another
    (``Player.merged_into``, portal/merging.py) keeps its record, and counts here
    as the kept record's."""
    resolved = "COALESCE(m.merged_into_id, e.player_id)"
    source = f"""
        FROM {T["entry"]} e
        JOIN {T["season_ranking"]} r ON r.official_id = e.snapshot_id
        JOIN {T["season"]} s ON s.id = r.season_id
        LEFT JOIN (SELECT id, merged_into_id FROM {T["player"]}
                   WHERE merged_into_id IS NOT NULL) m ON m.id = e.player_id
        WHERE s.start_date < %s{entry_only}"""
    columns = (
        f"{resolved} AS player_id, e.total_pcn, e.total_pp, e.step, e.series, "
        "s.id AS season_id, s.start_date"
    )
    if connection.vendor == "postgresql":
        order = f"ORDER BY {resolved}, s.start_date DESC"
        return f"SELECT DISTINCT ON ({resolved}) {columns} {source} {order}"
    return f"""SELECT * FROM (
        SELECT {columns}, ROW_NUMBER() OVER (
            PARTITION BY {resolved} ORDER BY s.start_date DESC) AS rn {source}) ranked
        WHERE rn = 1"""


def _with_merged(ids: list[int] | None) -> list[int] | None:
    """``ids`` and the records merged into them (whose official lines count as theirs)."""
    if ids is None:
        return None
    merged = Player.objects.filter(merged_into_id__in=ids).values_list("pk", flat=True)
    return sorted({*ids, *merged})


def _tune(cursor: CursorWrapper) -> None:
    """PostgreSQL settings for this transaction: no JIT (compiling the plan cost more
    than the whole aggregation) and enough memory to aggregate without spilling."""
    if connection.vendor == "postgresql":
        cursor.execute("SET LOCAL jit = off")
        cursor.execute("SET LOCAL work_mem = '64MB'")


SAME, CHANGED, MISSING = 0, 1, 2


def _state(target: str, columns: dict[str, str], keep: str) -> str:
    """SQL: how a stage row compares with the row of the target table (alias ``target``)."""
    differs = " OR ".join(_distinct(f"{target}.{c}", f"b.{v}") for c, v in columns.items())
    return (
        f"CASE WHEN NOT ({keep}) THEN {SAME} WHEN {target}.player_id IS NULL THEN {MISSING} "
        f"WHEN {differs} THEN {CHANGED} ELSE {SAME} END"
    )


def _stage(cursor: CursorWrapper, season: Season, ids: list[int] | None) -> None:
    """Compute every target row into the temporary stage table, in one statement:
    licensees (with committee and club) fully joined with the per-player sums of the
    current allocations and the last official ranking of each licensee, each row
    marked with how it compares with the stored total and standing (same, changed,
    missing), so that the merges touch only what changes."""
    licence_only, licence_params = _ids_filter("l.player_id", ids)
    allocation_only, allocation_params = _ids_filter("a.player_id", ids)
    entry_only, entry_params = _ids_filter("e.player_id", _with_merged(ids))
    total_only, total_params = _ids_filter("t0.player_id", ids)
    standing_only, standing_params = _ids_filter("s0.player_id", ids)
    before = _season_before(season)
    # Seasons strictly between the last official ranking and this one in which the
    # player held no licence; 0 without counting when that ranking is last season's.
    last_start = before.start_date if before else season.start_date
    cursor.execute(f"DROP TABLE IF EXISTS {STAGE}")
    cursor.execute(
        f"""
        CREATE TEMPORARY TABLE {STAGE} AS
        SELECT b.*,
               {_state("t0", TOTAL_COLUMNS, TOTAL_KEEP.replace("s.", "b."))} AS total_state,
               {_state("s0", STANDING_MAP, STANDING_KEEP.replace("s.", "b."))} AS standing_state
        FROM (
            SELECT COALESCE(lic.player_id, t.player_id) AS player_id,
                   lic.player_id IS NOT NULL AS licensed,
                   lic.committee_id, lic.club_id,
                   COALESCE(t.pcn, 0) AS season_pcn, COALESCE(t.pp, 0) AS season_pp,
                   COALESCE(t.tournaments, 0) AS tournaments,
                   p.season_id AS previous_season_id,
                   COALESCE(p.total_pcn, 0) AS previous_pcn,
                   COALESCE(p.total_pp, 0) AS previous_pp,
                   COALESCE(p.step, '') AS previous_step, p.series AS previous_series,
                   CASE WHEN p.season_id IS NULL OR p.start_date >= %s THEN 0 ELSE (
                       SELECT COUNT(*) FROM {T["season"]} x
                       WHERE x.start_date > p.start_date AND x.start_date < %s
                         AND NOT EXISTS (
                           SELECT 1 FROM {T["licence"]} l2
                           WHERE l2.player_id = lic.player_id AND l2.season_id = x.id)
                   ) END AS missed_seasons
            FROM (
                SELECT l.player_id, c.committee_id, l.club_id
                FROM {T["licence"]} l JOIN {T["club"]} c ON c.id = l.club_id
                WHERE l.season_id = %s{licence_only}
            ) lic
            FULL OUTER JOIN (
                SELECT a.player_id, SUM(a.pcn) AS pcn, SUM(a.pp) AS pp, COUNT(*) AS tournaments
                FROM {T["allocation"]} a
                WHERE a.season_id = %s AND a."current"{allocation_only}
                GROUP BY a.player_id
            ) t ON t.player_id = lic.player_id
            LEFT JOIN ({_previous_official_sql(entry_only)}) p ON p.player_id = lic.player_id
        ) b
        LEFT JOIN {T["total"]} t0
            ON t0.season_id = %s AND t0.player_id = b.player_id{total_only}
        LEFT JOIN {T["standing"]} s0
            ON s0.season_id = %s AND s0.player_id = b.player_id{standing_only}
        """,
        [
            last_start,
            season.start_date,
            season.pk,
            *licence_params,
            season.pk,
            *allocation_params,
            season.start_date,
            *entry_params,
            season.pk,
            *total_params,
            season.pk,
            *standing_params,
        ],
    )
    # An index and fresh statistics: the merges then never pick a quadratic plan,
    # even when the target table's own statistics are stale (e.g. just emptied).
    cursor.execute(f"CREATE INDEX {STAGE}_player ON {STAGE} (player_id)")
    if connection.vendor == "postgresql":
        cursor.execute(f"ANALYZE {STAGE}")


def _merge(
    cursor: CursorWrapper,
    season: Season,
    ids: list[int] | None,
    table: str,
    columns: dict[str, str],
    keep: str,
    state: str,
) -> tuple[int, int]:
    """Make ``table``'s rows of the season (of ``ids``) equal to the stage rows that
    satisfy ``keep``: delete the rows not there, update the rows marked changed,
    insert the rows marked missing. Returns (rows written, rows deleted)."""
    only, params = _ids_filter(f"{table}.player_id", ids)
    extra = {"updated_at": "%s"} if table == T["total"] else {}
    now = [timezone.now()] if extra else []
    values = ", ".join([f"s.{v}" for v in columns.values()] + ["%s"] * len(extra))
    assignments = ", ".join(
        [f"{c} = s.{source}" for c, source in columns.items()] + [f"{c} = %s" for c in extra]
    )
    cursor.execute(
        f"""
        DELETE FROM {table}
        WHERE season_id = %s{only} AND NOT EXISTS (
            SELECT 1 FROM {STAGE} s WHERE s.player_id = {table}.player_id AND {keep})
        """,
        [season.pk, *params],
    )
    deleted = _count(cursor.rowcount)
    cursor.execute(
        f"""
        UPDATE {table} SET {assignments}
        FROM {STAGE} s
        WHERE {table}.season_id = %s AND {table}.player_id = s.player_id
          AND s.{state} = {CHANGED}
        """,
        [*now, season.pk],
    )
    written = _count(cursor.rowcount)
    cursor.execute(
        f"""
        INSERT INTO {table} (season_id, player_id, {", ".join([*columns, *extra])})
        SELECT %s, s.player_id, {values}
        FROM {STAGE} s
        WHERE s.{state} = {MISSING}
        """,
        [season.pk, *now],
    )
    written += _count(cursor.rowcount)
    return written, deleted


def standings_write(*, season: Season, player_ids: Iterable[int] | None) -> StandingsWrite:
    """Rewrite the totals and standings of ``player_ids`` (``None``: the whole season).

    Idempotent: rows are rewritten only when a value changes. Takes the season's
    writer lock, so it never runs over another writer of the same season.
    """
    ids = None if player_ids is None else sorted(set(player_ids))
    if ids is not None and not ids:
        return StandingsWrite(0, 0, 0, 0)
    if ids is not None and len(ids) > WHOLE_SEASON_ABOVE:
        ids = None  # the same rows, without a huge parameter list (SQLite caps them)
    with transaction.atomic():
        season_writer_lock(season.pk)
        with connection.cursor() as cursor:
            _tune(cursor)
            _stage(cursor, season, ids)
            totals = _merge(
                cursor, season, ids, T["total"], TOTAL_COLUMNS, TOTAL_KEEP, "total_state"
            )
            standings = _merge(
                cursor, season, ids, T["standing"], STANDING_MAP, STANDING_KEEP, "standing_state"
            )
            cursor.execute(f"DROP TABLE {STAGE}")
        result = StandingsWrite(*totals, *standings)
        if result.changed:
            inputs_changed(season_id=season.pk)
    if result.totals_written + result.standings_written + result.standings_deleted > ANALYZE_AFTER:
        _analyze()
    return result


def _analyze() -> None:
    """Fresh planner statistics after a large rewrite (the first full build of a season):
    otherwise the incremental updates that follow may plan for empty tables."""
    if connection.vendor == "postgresql" and not connection.in_atomic_block:
        with connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {T['total']}")
            cursor.execute(f"ANALYZE {T['standing']}")


@dataclass(frozen=True)
class RegistryDrift:
    """Players whose standing no longer matches the registry (new, moved or removed
    licence, a club moved to another committee), and the snapshot the look read."""

    players: list[int]
    snapshot: str | None = None  # PostgreSQL: the look's ``pg_snapshot``, as text


def registry_drift(*, season: Season) -> RegistryDrift:
    """The registry drift of the season's standings: an anti-join of the season's
    licences and standings (about 0.5 s of database time at 150,000 licensees, 2 s at
    1,000,000), skipped on PostgreSQL when every registry write
    (``federation.RegistryWrite``: the id of each transaction that wrote licences or
    clubs, recorded by triggers) was visible to the snapshot of the last look that
    :func:`registry_drift_repaired` recorded: a burst of homologations with no registry
    change in between costs one indexed query here.

    Why it is exact: the anti-join reads its own snapshot (``pg_current_snapshot()``, in
    the same statement, the look's own transaction counted as in progress), and the
    repair records it. A registry write that snapshot could not see belongs to a
    transaction that was in progress then (its id in the snapshot's in-progress list)
    or started later (its id at least the snapshot's ``xmax``), and
    :func:`_unseen_registry_write` asks exactly that, whatever else the cluster runs: a
    transaction open in another database only lengthens the in-progress list. SQLite
    (no trigger) always looks."""
    if connection.vendor != "postgresql":
        return RegistryDrift(_drifting(season)[0])
    if not _unseen_registry_write(season):
        return RegistryDrift([])  # nothing to record: the last look still holds
    players, snapshot = _drifting(season)
    return RegistryDrift(players, snapshot)


def registry_drift_repaired(*, season: Season, drift: RegistryDrift) -> None:
    """Record, in the transaction that rewrote the drift's standings, the snapshot the
    look read (a failed repair rolls it back: the next refresh looks again)."""
    if drift.snapshot is not None:
        SeasonRanking.objects.filter(season=season).update(registry_snapshot=drift.snapshot)


# One indexed query: true when the season was never looked at, when the newest registry
# write started at or after the recorded snapshot's xmax, or when one was written by a
# transaction of its in-progress list (``NOT pg_visible_in_snapshot`` for a committed
# transaction, asked through the index on ``xact``); no row: no season ranking yet.
_UNSEEN = f"""
    SELECT seen IS NULL
        OR COALESCE((SELECT max(w.xact) FROM {T["registry_write"]} w), 0)
           >= pg_snapshot_xmax(seen)::text::bigint
        OR EXISTS (
            SELECT 1 FROM {T["registry_write"]} w
            WHERE w.xact = ANY (ARRAY(SELECT pg_snapshot_xip(seen)::text::bigint)))
    FROM (
        SELECT NULLIF(registry_snapshot, '')::pg_snapshot AS seen
        FROM {T["season_ranking"]} WHERE season_id = %s
    ) r
"""


def _unseen_registry_write(season: Season) -> bool:
    """Whether a registry write may be missing from the season's standings: one the
    last recorded look could not see, or no recorded look."""
    with connection.cursor() as cursor:
        cursor.execute(_UNSEEN, [season.pk])
        row = cursor.fetchone()
    return row is None or bool(row[0])


def _drifting(season: Season) -> tuple[list[int], str | None]:
    """The anti-join's players and, on PostgreSQL, the snapshot it read (its own)."""
    query = f"""
        SELECT l.player_id
        FROM {T["licence"]} l
        JOIN {T["club"]} c ON c.id = l.club_id
        LEFT JOIN {T["standing"]} s ON s.season_id = l.season_id AND s.player_id = l.player_id
        WHERE l.season_id = %s
          AND (s.id IS NULL OR {_distinct("s.club_id", "l.club_id")}
               OR {_distinct("s.committee_id", "c.committee_id")})
        UNION
        SELECT s.player_id FROM {T["standing"]} s
        WHERE s.season_id = %s AND NOT EXISTS (
            SELECT 1 FROM {T["licence"]} l
            WHERE l.season_id = s.season_id AND l.player_id = s.player_id)
    """
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql":
            cursor.execute(query, [season.pk, season.pk])
            return sorted(row[0] for row in cursor.fetchall()), None
        cursor.execute(_WITH_SNAPSHOT.format(query=query), [season.pk, season.pk])
        players, snapshot = cursor.fetchone()
        return sorted(players), snapshot


# The anti-join's players and its snapshot, in one statement. A snapshot leaves out its
# own transaction (whose changes it always sees): when the look runs in a transaction
# that has a transaction id, that id is added to the in-progress list, since what this
# transaction writes after the look is not seen by it (an extra look, at worst, for what
# it wrote before). The list stays in ascending order, as ``pg_snapshot`` requires.
_WITH_SNAPSHOT = """
    SELECT
        ARRAY({query}),
        concat(
            pg_snapshot_xmin(look.snapshot), ':', pg_snapshot_xmax(look.snapshot), ':',
            array_to_string(ARRAY(
                SELECT pg_snapshot_xip(look.snapshot)
                UNION
                SELECT look.own WHERE look.own < pg_snapshot_xmax(look.snapshot)
                ORDER BY 1), ','))
    FROM (SELECT pg_current_snapshot() AS snapshot,
                 pg_current_xact_id_if_assigned() AS own) look
"""
