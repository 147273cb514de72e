"""The national ranking computed set-wise in PostgreSQL: one ``INSERT … SELECT`` that
writes a snapshot's entries straight from the season's standings.

The pure core (``rankings.rules.national_ranking.compute_ranking``) stays the
reference: this module does not restate a rule with its own numbers; it
**generates** its SQL from the season's :class:`~rankings.rules.series.SeriesPolicy`
(ladder, criteria, shares, carry-over coefficients, entry step, drops, demotion
limit, tie rule) and from the folding table of :func:`rankings.season.snapshots.fold`.
``tests/rankings/season/test_ranking_sql.py`` compares its output with the pure core's
row for row on generated seasons (ties, manual placements, returning players,
players without club, renamed steps, modified policies).

The statement, per season (``%(season)s``) and snapshot (``%(snapshot)s``):

1. ``base``: each standing ⋈ its player; the previous step mapped into this
   season's ladder exactly as :func:`rankings.season.snapshots.load_inputs` does (same
   code, else the lowest step of the same series, else the entry step; none: no
   carry-over) and the folded search name;
2. ``totals``: carried = ⌊previous total × c^(1 + missed)⌋ (exact: integers, and
   ``numeric`` powers when seasons were missed), total = season + carried;
3. ``ranked``: ``RANK()`` overall / in committee / in club ("1224"), the order
   (``ROW_NUMBER`` by total PCN, total PP when it breaks ties, licence number) and
   the ranked count (total PCN > 0) as a window over everything;
4. ``stepped``: the points step (the highest criterion met, generated from the
   ladder top-down), the step held during the season and the demotion limit;
5. the manual placements, then the insert.

Used on PostgreSQL by the official publication and, when the Redis live store is
off, by the full recompute's provisional snapshot (:func:`write_ranking_snapshot`);
with the store on, the full recompute rebuilds the store and writes no snapshot.
SQLite keeps the Python path. When the inputs
would make the pure core refuse (a manual placement with an unknown step or no
reason), :func:`sql_ranking_possible` says no and callers take the Python path,
which raises the core's located problems.
"""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db import connection, transaction

from core.folding import _FOLDING, fold
from federation.models import Player, Season, User
from rankings.models import (
    ManualPlacement,
    RankingEntry,
    RankingKind,
    RankingSnapshot,
    SeasonRanking,
    SeasonStanding,
    SeriesPolicyVersion,
)
from rankings.rules.national_ranking import StepSource, share_cutoff
from rankings.rules.series import SERIES_NUMBERS, SeriesPolicy
from rankings.season import live_store
from rankings.season.live_ranking import discard_provisional, live_ranking_refresh
from rankings.season.locks import season_writer_lock, try_refresh_lock
from rankings.season.ranking_state import season_ranking
from rankings.season.series_policies import series_policy_in_force
from rankings.season.snapshots import ENTRY_COLUMNS, refresh_statistics
from rankings.season.standings import registry_drift, registry_drift_repaired, standings_write

ENTRY = RankingEntry._meta.db_table
STANDING = SeasonStanding._meta.db_table
PLAYER = Player._meta.db_table
PLACEMENT = ManualPlacement._meta.db_table


# --- folding names in SQL, generated from rankings.season.snapshots.fold ---------------------


NOT_ASCII = "[^\\x01-\\x7f]"
"""A POSIX regular expression matching a character the SQL folding left unfolded."""


def _folding_pairs() -> tuple[dict[str, str], dict[str, str]]:
    """Per character, what :func:`fold` makes of it before its Unicode fallback: lower
    case, then the Latin table. ``fold`` works character by character up to there, so
    a text made only of these characters folds to the concatenation. Single
    characters go to ``translate``, longer results (œ → oe) to ``replace``; a
    character left out is one ``fold`` would decompose (rows holding one are folded
    again in Python)."""
    single: dict[str, str] = {}
    multi: dict[str, str] = {}
    candidates = set(range(0x20, 0x7F)) | set(range(0xA0, 0x250)) | set(_FOLDING)
    for code in sorted(candidates):
        char = chr(code)
        folded = char.lower()
        if not folded.isascii():
            folded = folded.translate(_FOLDING)
        if not folded.isascii() or folded == char:
            continue
        if len(folded) == 1:
            single[char] = folded
        else:
            multi[char] = folded
    return single, multi


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


_FRENCH = "éèêëàâäçîïôöùûüÿÉÈÊËÀÂÄÇÎÏÔÖÙÛÜŸ"
"""The accented letters of French names: a short first ``translate`` (its cost grows
with the length of its table), the whole table only for what is left."""


@functools.cache
def fold_first_sql(expression: str) -> str:
    """The first, cheap step of the SQL folding of ``expression``: ``lower`` (exact on
    ASCII), œ and æ, then the French accents. Enough for nearly every name; finish
    with :func:`fold_rest_sql`."""
    single, _multi = _folding_pairs()
    french = {c: single[c] for c in _FRENCH}
    lowered = f"replace(replace(lower({expression}), 'œ', 'oe'), 'æ', 'ae')"
    return (
        f"translate({lowered}, {_literal(''.join(french))}, {_literal(''.join(french.values()))})"
    )


@functools.cache
def fold_rest_sql(column: str) -> str:
    """The second step, on the first step's result: a text still not ASCII goes
    through every multi-character replacement and the whole table (upper and lower
    case, whatever ``lower`` made of them). What comes out still not ASCII is made
    of characters :func:`fold` decomposes: the writer folds those rows in Python."""
    single, multi = _folding_pairs()
    rest = column
    for char, replacement in multi.items():
        rest = f"replace({rest}, {_literal(char)}, {_literal(replacement)})"
    rest = f"translate({rest}, {_literal(''.join(single))}, {_literal(''.join(single.values()))})"
    return f"CASE WHEN {column} ~ {_literal(NOT_ASCII)} THEN {rest} ELSE {column} END"


def fold_sql(expression: str) -> str:
    """Both steps on ``expression`` (one scalar subquery: for tests and small reads)."""
    return f"(SELECT {fold_rest_sql('f.v')} FROM (SELECT {fold_first_sql(expression)} AS v) f)"


# --- the ranking statement, generated from the policy --------------------------------


@dataclass(frozen=True)
class RankingStatement:
    """The generated ``INSERT … SELECT`` and its parameters (but season and snapshot)."""

    sql: str
    params: dict[str, Any]


def _fraction(value: Any) -> tuple[int, int]:
    exact = Fraction(value)
    return exact.numerator, exact.denominator


def ranking_statement(
    policy: SeriesPolicy,
    *,
    select_only: bool = False,
    standings: str = STANDING,
    search_names: bool = True,
) -> RankingStatement:
    """The statement writing a snapshot's entries from the season's standings, for
    this policy. ``select_only``: the ``SELECT`` alone (tests, benchmarks, and the
    ranking read in place, ``rankings/season/statement_ranking.py``, which passes
    ``search_names=False``: the folded names left empty, searches use the players').
    ``standings``: the standings' table, or a subquery with its columns (the ranking
    as of a date, ``rankings/season/as_of.py``, sums the allocations homologated by then)."""
    policy.validate()
    ladder = policy.ladder
    codes = [step.code for step in ladder]
    index_of = {code: index for index, code in enumerate(codes)}
    lowest_of_series: dict[int, int] = {}
    for index, step in enumerate(ladder):  # lowest first
        lowest_of_series.setdefault(step.series, index)
    entry_index = index_of[policy.entry_step]

    # previous step → index in this ladder (rankings.season.snapshots._mapped_step)
    mapped = ["CASE WHEN s.previous_step = '' THEN NULL",
              "WHEN s.previous_step = ANY(%(codes)s) THEN array_position(%(codes)s, "
              "s.previous_step::text) - 1"]  # fmt: skip
    for series in SERIES_NUMBERS:
        if series in lowest_of_series:
            mapped.append(f"WHEN s.previous_series = {series} THEN {lowest_of_series[series]}")
    mapped.append(f"ELSE {entry_index} END")

    # carry-over coefficient of the previous step's series, as num/den by ladder index
    nums, dens = [], []
    for step in ladder:
        num, den = _fraction(policy.carry_over_for(step.series))
        nums.append(num)
        dens.append(den)

    def carried(column: str) -> str:
        return (
            f"CASE WHEN b.prev_idx IS NULL THEN 0 "
            f"WHEN b.missed_seasons = 0 THEN (b.{column}::bigint * b.num) / b.den "
            f"ELSE div(b.{column}::numeric * (b.num::numeric ^ (1 + b.missed_seasons)), "
            f"b.den::numeric ^ (1 + b.missed_seasons))::bigint END"
        )

    tie = "total_pcn DESC, total_pp DESC" if policy.pp_breaks_ties else "total_pcn DESC"
    folded_first = fold_first_sql("(p.last_name || ' ' || p.first_name)") if search_names else "''"
    folded_rest = fold_rest_sql("st.folded") if search_names else "''"

    # points step: the highest criterion met (national_ranking.compute_ranking, step 3)
    criteria = []
    for index in range(len(ladder) - 1, 0, -1):
        step = ladder[index]
        conditions = []
        if step.top_share is not None:
            num, den = _fraction(step.top_share)
            conditions += ["total_pcn >= 1", f"place <= ({num}::bigint * ranked_count) / {den}"]
        else:
            conditions.append(f"total_pcn >= {int(step.min_pcn or 0)}")
        if step.min_pp:
            conditions.append(f"total_pp >= {int(step.min_pp)}")
        criteria.append(f"WHEN {' AND '.join(conditions)} THEN {index}")
    points = f"CASE {' '.join(criteria)} ELSE 0 END" if criteria else "0"

    drop = int(policy.returning_drop_steps)
    season_idx = (
        f"CASE WHEN prev_idx IS NULL THEN {entry_index} "
        f"ELSE GREATEST(prev_idx - {drop} * missed_seasons, 0) END"
    )
    if policy.max_demotion_steps is None:
        computed = "points_idx"
        computed_source = f"'{StepSource.POINTS.value}'"
    else:
        limit = int(policy.max_demotion_steps)
        computed = f"GREATEST(points_idx, season_idx - {limit})"
        computed_source = (
            f"CASE WHEN season_idx - {limit} > points_idx "
            f"THEN '{StepSource.DEMOTION_LIMIT.value}' ELSE '{StepSource.POINTS.value}' END"
        )

    select = f"""
    WITH base AS (
        SELECT s.player_id, p.licence_number, s.committee_id, s.club_id, s.season_pcn,
               s.season_pp, s.tournaments, s.previous_step, s.previous_pcn, s.previous_pp,
               s.missed_seasons, m.prev_idx,
               (%(nums)s::bigint[])[m.prev_idx + 1] AS num,
               (%(dens)s::bigint[])[m.prev_idx + 1] AS den,
               {folded_first} AS folded
        FROM {standings} s
        JOIN {PLAYER} p ON p.id = s.player_id
        CROSS JOIN LATERAL (SELECT {" ".join(mapped)} AS prev_idx) m
        WHERE s.season_id = %(season)s
    ), totals AS (
        SELECT b.*, {carried("previous_pcn")} AS carried_pcn,
               {carried("previous_pp")} AS carried_pp
        FROM base b
    ), summed AS (
        SELECT t.*, t.season_pcn + t.carried_pcn AS total_pcn,
               t.season_pp + t.carried_pp AS total_pp
        FROM totals t
    ), ranked AS (
        SELECT x.*,
               ROW_NUMBER() OVER (ORDER BY {tie}, licence_number) AS rank_order,
               RANK() OVER (ORDER BY {tie}) AS place,
               RANK() OVER (PARTITION BY committee_id ORDER BY {tie}) AS place_in_committee,
               CASE WHEN club_id IS NOT NULL
                    THEN RANK() OVER (PARTITION BY club_id ORDER BY {tie}) END AS place_in_club,
               COUNT(*) FILTER (WHERE total_pcn > 0) OVER () AS ranked_count
        FROM summed x
    ), stepped AS (
        SELECT r.*, {points} AS points_idx, {season_idx} AS season_idx
        FROM ranked r
    )
    SELECT %(snapshot)s::bigint, st.rank_order, st.player_id, st.licence_number,
           st.committee_id, st.club_id, st.season_pcn, st.season_pp, st.tournaments,
           st.previous_step, st.carried_pcn, st.carried_pp, st.total_pcn, st.total_pp,
           st.place, st.place_in_committee, st.place_in_club,
           (%(codes)s::text[])[st.season_idx + 1], (%(codes)s::text[])[st.points_idx + 1],
           (%(codes)s::text[])[f.idx + 1], (%(series)s::int[])[f.idx + 1], f.source,
           COALESCE(mp.reason, ''), {folded_rest}
    FROM stepped st
    LEFT JOIN {PLACEMENT} mp ON mp.season_id = %(season)s AND mp.player_id = st.player_id
    CROSS JOIN LATERAL (
        SELECT CASE WHEN mp.id IS NOT NULL THEN array_position(%(codes)s, mp.step::text) - 1
                    ELSE {computed} END AS idx,
               CASE WHEN mp.id IS NOT NULL THEN '{StepSource.MANUAL.value}'
                    ELSE {computed_source} END AS source
    ) f
    """
    params = {
        "codes": codes,
        "series": [step.series for step in ladder],
        "nums": nums,
        "dens": dens,
    }
    if select_only:
        return RankingStatement(select, params)
    sql = f"INSERT INTO {ENTRY} ({', '.join(ENTRY_COLUMNS)}) {select}"
    return RankingStatement(sql, params)


# --- writing a snapshot -------------------------------------------------------------


def sql_ranking_possible(*, season: Season, policy: SeriesPolicy) -> bool:
    """Whether the SQL path applies: PostgreSQL, and no manual placement of a ranked
    player that the pure core would refuse (unknown step, blank reason): those take
    the Python path, which raises the core's located problems."""
    if connection.vendor != "postgresql":
        return False
    codes = [step.code for step in policy.ladder]
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT EXISTS (
                SELECT 1 FROM {PLACEMENT} mp
                JOIN {STANDING} s ON s.season_id = mp.season_id AND s.player_id = mp.player_id
                WHERE mp.season_id = %s AND (NOT mp.step = ANY(%s) OR btrim(mp.reason) = ''))
            """,
            [season.pk, codes],
        )
        (refused,) = cursor.fetchone()
    return not refused


def write_ranking_snapshot(
    *,
    season: Season,
    kind: str,
    policy_version: SeriesPolicyVersion,
    policy: SeriesPolicy,
    inputs_version: int,
    by: User | None = None,
    note: str = "",
    standings: str = STANDING,
    standings_params: dict[str, Any] | None = None,
    as_of: dt.date | None = None,
) -> RankingSnapshot:
    """Compute the season's ranking in the database and store it as a new snapshot
    (in the caller's transaction, which holds the season's writer lock so that the
    standings read are one consistent state). ``standings``, ``standings_params``
    and ``as_of``: the ranking as of a date (:func:`ranking_statement`)."""
    snapshot = RankingSnapshot.objects.create(
        season=season,
        kind=kind,
        policy=policy_version,
        inputs_version=inputs_version,
        computed_by=by,
        note=note[:300],
        as_of=as_of,
    )
    statement = ranking_statement(policy, standings=standings)
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL jit = off")
        cursor.execute("SET LOCAL work_mem = '64MB'")
        params = {
            **statement.params,
            **(standings_params or {}),
            "season": season.pk,
            "snapshot": snapshot.pk,
        }
        cursor.execute(statement.sql, params)
        cursor.execute(
            f"SELECT series, COUNT(*), COUNT(*) FILTER (WHERE total_pcn > 0), "
            f"COUNT(*) FILTER (WHERE search_name ~ %s) FROM {ENTRY} "
            "WHERE snapshot_id = %s GROUP BY series ORDER BY series",
            [NOT_ASCII, snapshot.pk],
        )
        counts = cursor.fetchall()
        if any(row[3] for row in counts):
            _fold_the_rest(cursor, snapshot.pk)
    ranked_count = sum(row[2] for row in counts)
    snapshot.player_count = sum(row[1] for row in counts)
    snapshot.ranked_count = ranked_count
    snapshot.series_counts = {str(series): count for series, count, _, _ in counts}
    snapshot.share_cutoffs = [
        {
            "step": step.code,
            "top_share": str(step.top_share),
            "last_place": share_cutoff(step.top_share, ranked_count),
        }
        for step in reversed(policy.ladder[1:])
        if step.top_share is not None
    ]
    snapshot.save(update_fields=["player_count", "ranked_count", "series_counts", "share_cutoffs"])
    return snapshot


def _fold_the_rest(cursor: Any, snapshot_id: int) -> None:
    """Fold in Python the few names the SQL table does not cover (a character outside
    the Latin blocks): the same :func:`fold` as the Python path."""
    cursor.execute(
        f"SELECT e.id, p.last_name, p.first_name FROM {ENTRY} e "
        f"JOIN {PLAYER} p ON p.id = e.player_id "
        f"WHERE e.snapshot_id = %s AND e.search_name ~ %s",
        [snapshot_id, NOT_ASCII],
    )
    rows = cursor.fetchall()
    if rows:
        cursor.executemany(
            f"UPDATE {ENTRY} SET search_name = %s WHERE id = %s",
            [(fold(f"{last} {first}"), pk) for pk, last, first in rows],
        )


# --- the two callers' paths: the live ranking of a full recompute, the official one ---


def live_ranking_by_sql(*, season: Season) -> RankingSnapshot | None:
    """The live-ranking step of a full recompute.

    With the Redis store on (``live_store.enabled()``) no provisional snapshot is
    written: this is ``live_ranking.live_ranking_refresh`` (the store brought to the
    new standings, a rebuild when they changed). Without it, on PostgreSQL, the
    provisional snapshot is computed in the database with the same protocol as
    ``live_ranking_refresh`` (one refresh at a time, registry drift repaired first,
    nothing written when the live snapshot already reflects the inputs, the superseded
    provisional snapshot deleted), but the read, the computation and the write are one
    transaction under the writer lock: the standings cannot change between them.
    SQLite, and inputs the pure core refuses, take the Python refresh."""
    if connection.vendor != "postgresql" or live_store.enabled():
        return live_ranking_refresh(season=season)
    with try_refresh_lock(season.pk) as acquired:
        if not acquired:
            return None  # the running refresh sees what changed
        with transaction.atomic():
            season_writer_lock(season.pk)
            drift = registry_drift(season=season)
            if drift.players:
                standings_write(season=season, player_ids=drift.players)
            registry_drift_repaired(season=season, drift=drift)
            state = SeasonRanking.objects.select_for_update(of=("self",)).get(
                pk=season_ranking(season.pk).pk
            )
            if state.live_id is not None and state.live_version >= state.inputs_version:
                return None
            policy_version, policy = series_policy_in_force(season=season)
            if not sql_ranking_possible(season=season, policy=policy):
                snapshot = None
            else:
                old = state.live_id
                snapshot = write_ranking_snapshot(
                    season=season,
                    kind=RankingKind.PROVISIONAL,
                    policy_version=policy_version,
                    policy=policy,
                    inputs_version=state.inputs_version,
                )
                state.live = snapshot
                state.live_version = max(state.live_version, state.inputs_version)
                state.save(update_fields=["live", "live_version"])
    if snapshot is None:
        return live_ranking_refresh(season=season)  # raises the core's problems
    if old is not None:
        discard_provisional(old)
    refresh_statistics()  # as in live_ranking: the new snapshot known to the planner
    return snapshot


def official_ranking_by_sql(
    *, season: Season, by: User | None, note: str
) -> tuple[RankingSnapshot, SeasonRanking] | None:
    """Compute and store the season's official ranking in the database, in the
    caller's transaction (which then flips the pointer): read, computed and written
    under the writer lock. ``None`` where the SQL path does not apply (SQLite, or
    inputs the pure core refuses): the caller takes the Python path."""
    if connection.vendor != "postgresql":
        return None
    season_writer_lock(season.pk)
    state = SeasonRanking.objects.select_for_update(of=("self",)).get(
        pk=season_ranking(season.pk).pk
    )
    policy_version, policy = series_policy_in_force(season=season)
    if not sql_ranking_possible(season=season, policy=policy):
        return None
    snapshot = write_ranking_snapshot(
        season=season,
        kind=RankingKind.OFFICIAL,
        policy_version=policy_version,
        policy=policy,
        inputs_version=state.inputs_version,
        by=by,
        note=note,
    )
    return snapshot, state
