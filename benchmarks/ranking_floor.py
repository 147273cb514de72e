"""The full recompute of the national ranking beside its honest SQL floor.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fft_bench_rsql \
        .venv/bin/python benchmarks/ranking_floor.py [--runs 3] [--players 150000]

Creates the database named in DATABASE_URL if absent, migrates it, generates the
synthetic season if absent (``manage.py generate_ranking_season``: 150,000 players
and 2,000,000 allocations by default; ``--players N`` scales both, 13⅓ allocations a
player), gives 100 players a manual placement, then prints, medians of ``--runs``
(wall clock, same run):

- **floor**: ONE hand-written statement (common table expressions and window
  functions, default policy written out) that computes every column of the ranking
  rows from the registry and the allocations — per-player sums of the current
  allocations, licence, committee and club, the last official entry, missed
  seasons, carry-over, totals, places overall / in committee / in club, the ranked
  count, each share step's last place, the points step, the step held during the
  season, the demotion limit, the manual placements, series, step source and the
  folded search name — and inserts them into the real ``rankings_rankingentry``
  table with its indexes (rolled back after each run);
- **project, nightly**: ``recompute.full_recompute`` as the nightly job runs it with
  the Redis live store off (``RANKING_STORE_URL`` forced empty here): standings
  rebuilt from the allocations (nothing changed since the last run), then the
  ranking written as a new live snapshot and the superseded one deleted);
- **project, from empty standings**: the same after deleting the season's totals
  and standings (every total and standing rewritten);
- **pure core**: the full recompute through the pure core instead of the ranking
  statement (nightly case): the standings, then the live refresh by the pure core
  (read the standings, ``compute_ranking``, ``COPY``);
- the same-run ratios, and the check: the floor's rows and the project's snapshot,
  compared with ``EXCEPT ALL`` both ways on every column.

Use a database of its own: the script writes to it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

from benchmarks.bench_db import YEAR, synthetic_season  # noqa: E402

# The measured path is the full recompute without the Redis live store (the SQL
# ranking writing the provisional snapshot); with the store it writes no snapshot.
settings.RANKING_STORE_URL = ""

from django.db import connection, transaction  # noqa: E402

from federation.models import Licence, Season  # noqa: E402
from rankings.live_ranking import live_ranking_refresh  # noqa: E402
from rankings.models import ManualPlacement, RankingEntry, SeasonRanking  # noqa: E402
from rankings.ranking_state import inputs_changed  # noqa: E402
from rankings.recompute import full_recompute  # noqa: E402
from rankings.snapshots import ENTRY_COLUMNS  # noqa: E402
from rankings.standings import T, standings_write  # noqa: E402

PLACEMENT = ManualPlacement._meta.db_table
FLOOR_SNAPSHOT = 2_000_000_000  # the floor's rows carry this snapshot id (rolled back)

# The default ladder written out (rankings-series.md): code, series, cumulative share
# as a fraction (numerator over 1000), minimum total PP.
LADDER = [("4T", 4, None, 0), ("4K", 4, 910, 0), ("4C", 4, 820, 0), ("4P", 4, 730, 0),
          ("4PR", 4, 640, 0), ("3T", 3, 550, 0), ("3K", 3, 482, 0), ("3C", 3, 414, 0),
          ("3P", 3, 346, 0), ("3PR", 3, 278, 0), ("2T", 2, 210, 0), ("2K", 2, 178, 0),
          ("2C", 2, 146, 0), ("2P", 2, 114, 0), ("2PR", 2, 82, 0), ("1T", 1, 50, 0),
          ("1K", 1, 40, 0), ("1C", 1, 30, 0), ("1P", 1, 20, 0), ("1N", 1, 10, 1)]  # fmt: skip
CODES = "ARRAY[" + ", ".join(f"'{code}'" for code, *_ in LADDER) + "]"
SERIES = "ARRAY[" + ", ".join(str(series) for _, series, *_ in LADDER) + "]"
POINTS_STEP = (
    "CASE "
    + " ".join(
        f"WHEN total_pcn >= 1 AND place <= ({share} * ranked_count) / 1000"
        + (f" AND total_pp >= {min_pp}" if min_pp else "")
        + f" THEN {index}"
        for index, (_code, _series, share, min_pp) in reversed(list(enumerate(LADDER)))
        if share is not None
    )
    + " ELSE 0 END"
)
FOLD = (
    "translate(replace(replace(lower(p.last_name || ' ' || p.first_name), 'œ', 'oe'), "
    "'æ', 'ae'), 'àáâãäåçèéêëìíîïñòóôõöùúûüýÿ', 'aaaaaaceeeeiiiinooooouuuuyy')"
)

FLOOR = f"""
INSERT INTO {T["entry"]} ({", ".join(ENTRY_COLUMNS)})
WITH sums AS (
    SELECT player_id, SUM(pcn) AS pcn, SUM(pp) AS pp, COUNT(*) AS n
    FROM {T["allocation"]} WHERE season_id = %(season)s AND "current" GROUP BY player_id
), previous AS (
    SELECT DISTINCT ON (e.player_id) e.player_id, e.total_pcn, e.total_pp, e.step,
           s.start_date
    FROM {T["entry"]} e JOIN {T["season_ranking"]} r ON r.official_id = e.snapshot_id
    JOIN {T["season"]} s ON s.id = r.season_id
    WHERE s.start_date < %(start)s
    ORDER BY e.player_id, s.start_date DESC
), base AS (
    SELECT l.player_id, c.committee_id, l.club_id, COALESCE(t.pcn, 0) AS season_pcn,
           COALESCE(t.pp, 0) AS season_pp, COALESCE(t.n, 0) AS tournaments,
           COALESCE(pr.step, '') AS previous_step,
           array_position({CODES}, pr.step::text) - 1 AS prev_idx,
           CASE WHEN pr.player_id IS NULL OR pr.start_date >= %(last_start)s THEN 0 ELSE (
               SELECT COUNT(*) FROM {T["season"]} x
               WHERE x.start_date > pr.start_date AND x.start_date < %(start)s
                 AND NOT EXISTS (SELECT 1 FROM {T["licence"]} l2
                                 WHERE l2.player_id = l.player_id AND l2.season_id = x.id)
           ) END AS missed,
           COALESCE(pr.total_pcn, 0) AS previous_pcn, COALESCE(pr.total_pp, 0) AS previous_pp
    FROM {T["licence"]} l
    JOIN {T["club"]} c ON c.id = l.club_id
    LEFT JOIN sums t ON t.player_id = l.player_id
    LEFT JOIN previous pr ON pr.player_id = l.player_id
    WHERE l.season_id = %(season)s
), totals AS (
    SELECT b.*, b.season_pcn + b.carried_pcn AS total_pcn, b.season_pp + b.carried_pp AS total_pp
    FROM (
        SELECT b0.*,
               CASE WHEN prev_idx IS NULL THEN 0 WHEN missed = 0 THEN previous_pcn * 4 / 5
                    ELSE div(previous_pcn * 4::numeric ^ (1 + missed), 5::numeric ^ (1 + missed))
               END::bigint AS carried_pcn,
               CASE WHEN prev_idx IS NULL THEN 0 WHEN missed = 0 THEN previous_pp * 4 / 5
                    ELSE div(previous_pp * 4::numeric ^ (1 + missed), 5::numeric ^ (1 + missed))
               END::bigint AS carried_pp
        FROM base b0
    ) b
), ranked AS (
    SELECT t.*,
           ROW_NUMBER() OVER (ORDER BY total_pcn DESC, total_pp DESC, licence_number)
               AS rank_order,
           RANK() OVER (ORDER BY total_pcn DESC, total_pp DESC) AS place,
           RANK() OVER (PARTITION BY committee_id ORDER BY total_pcn DESC, total_pp DESC)
               AS place_in_committee,
           RANK() OVER (PARTITION BY club_id ORDER BY total_pcn DESC, total_pp DESC)
               AS place_in_club,
           COUNT(*) FILTER (WHERE total_pcn > 0) OVER () AS ranked_count
    FROM (SELECT t0.*, p.licence_number, {FOLD} AS search_name
          FROM totals t0 JOIN federation_player p ON p.id = t0.player_id) t
), stepped AS (
    SELECT r.*, {POINTS_STEP} AS points_idx,
           CASE WHEN prev_idx IS NULL THEN 0 ELSE GREATEST(prev_idx - missed, 0) END
               AS season_idx
    FROM ranked r
), final AS (
    SELECT st.*, mp.reason,
           CASE WHEN mp.id IS NOT NULL THEN array_position({CODES}, mp.step::text) - 1
                ELSE GREATEST(points_idx, season_idx - 1) END AS idx,
           CASE WHEN mp.id IS NOT NULL THEN 'manual'
                WHEN season_idx - 1 > points_idx THEN 'demotion_limit'
                ELSE 'points' END AS source
    FROM stepped st
    LEFT JOIN {PLACEMENT} mp ON mp.season_id = %(season)s AND mp.player_id = st.player_id
)
SELECT {FLOOR_SNAPSHOT}, rank_order, player_id, licence_number, committee_id, club_id,
       season_pcn, season_pp, tournaments, previous_step, carried_pcn, carried_pp,
       total_pcn, total_pp, place, place_in_committee, place_in_club,
       ({CODES})[season_idx + 1], ({CODES})[points_idx + 1], ({CODES})[idx + 1],
       ({SERIES})[idx + 1], source, COALESCE(reason, ''), search_name
FROM final
"""

COMPARED = ", ".join(c for c in ENTRY_COLUMNS if c != "snapshot_id")


def floor_params(season: Season) -> dict[str, object]:
    before = Season.objects.filter(start_date__lt=season.start_date).order_by("-start_date")
    last = before.first()
    return {
        "season": season.pk,
        "start": season.start_date,
        "last_start": last.start_date if last else season.start_date,
    }


def run_floor(season: Season, snapshot_id: int | None) -> tuple[float, int, int]:
    """Time the floor (rolled back); with ``snapshot_id``, compare it with that
    snapshot's rows (EXCEPT ALL both ways) before rolling back."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL jit = off")
        cursor.execute("SET LOCAL work_mem = '64MB'")
        started = time.perf_counter()
        cursor.execute(FLOOR, floor_params(season))
        elapsed = time.perf_counter() - started
        missing = extra = -1
        if snapshot_id is not None:
            cursor.execute(
                f"SELECT COUNT(*) FROM (SELECT {COMPARED} FROM {T['entry']} WHERE snapshot_id = %s "
                f"EXCEPT ALL SELECT {COMPARED} FROM {T['entry']} WHERE snapshot_id = %s) d",
                [FLOOR_SNAPSHOT, snapshot_id],
            )
            (extra,) = cursor.fetchone()
            cursor.execute(
                f"SELECT COUNT(*) FROM (SELECT {COMPARED} FROM {T['entry']} WHERE snapshot_id = %s "
                f"EXCEPT ALL SELECT {COMPARED} FROM {T['entry']} WHERE snapshot_id = %s) d",
                [snapshot_id, FLOOR_SNAPSHOT],
            )
            (missing,) = cursor.fetchone()
        transaction.set_rollback(True)
    return elapsed, missing, extra


def timed(function) -> float:
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


def forced_full_recompute(season: Season) -> float:
    """The full recompute, its inputs marked changed so that it writes a snapshot."""
    with transaction.atomic():
        inputs_changed(season_id=season.pk)
    return timed(lambda: full_recompute(season=season))


def python_full_recompute(season: Season) -> float:
    """The full recompute through the pure core instead of the ranking statement: the
    standings, then the live refresh by the pure core."""
    with transaction.atomic():
        inputs_changed(season_id=season.pk)
    return timed(
        lambda: (
            standings_write(season=season, player_ids=None),
            live_ranking_refresh(season=season),
        )
    )


def empty_standings(season: Season) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {T['standing']} WHERE season_id = %s", [season.pk])
        cursor.execute(f"DELETE FROM {T['total']} WHERE season_id = %s", [season.pk])
        inputs_changed(season_id=season.pk)
    with connection.cursor() as cursor:
        cursor.execute(f"VACUUM ANALYZE {T['standing']}")
        cursor.execute(f"VACUUM ANALYZE {T['total']}")


def vacuum() -> None:
    """Between runs: the same table state (dead rows of the deleted snapshots reclaimed)
    for every measure."""
    with connection.cursor() as cursor:
        cursor.execute(f"VACUUM ANALYZE {T['entry']}")


def place_by_hand(season: Season) -> None:
    """100 manual placements (the generator writes none), once."""
    if ManualPlacement.objects.filter(season=season).exists():
        return
    players = Licence.objects.filter(season=season).order_by("player_id")
    count = players.count()
    ids = list(players.values_list("player_id", flat=True)[: count : max(1, count // 100)][:100])
    ManualPlacement.objects.bulk_create(
        ManualPlacement(season=season, player_id=pk, step=["2T", "4T", "1N", "3PR"][i % 4],
                        reason="Benchmark placement")
        for i, pk in enumerate(ids)
    )  # fmt: skip
    with transaction.atomic():
        inputs_changed(season_id=season.pk)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--players", type=int, default=150_000)
    parser.add_argument("--year", type=int, default=YEAR, help="a season of its own per size")
    args = parser.parse_args()

    season = synthetic_season(players=args.players, year=args.year)
    place_by_hand(season)
    full_recompute(season=season)
    players = Licence.objects.filter(season=season).count()
    print(f"season {season}: {players:,} licensees, 100 manual placements")

    floor, nightly, from_empty, python = [], [], [], []
    for _ in range(args.runs):
        vacuum()
        floor.append(run_floor(season, None)[0])
        vacuum()
        nightly.append(forced_full_recompute(season))
        vacuum()
        python.append(python_full_recompute(season))
        empty_standings(season)
        vacuum()
        from_empty.append(forced_full_recompute(season))

    live = SeasonRanking.objects.get(season=season).live_id
    _elapsed, missing, extra = run_floor(season, live)
    count = RankingEntry.objects.filter(snapshot_id=live).count()

    m = statistics.median
    print(f"floor: one statement into the entry table   {m(floor):7.2f} s")
    print(f"project full recompute, nightly             {m(nightly):7.2f} s   "
          f"ratio {m(nightly) / m(floor):.2f}  (target ≤ 1.5)")  # fmt: skip
    print(f"project full recompute, from empty standings{m(from_empty):7.2f} s   "
          f"ratio {m(from_empty) / m(floor):.2f}")  # fmt: skip
    print(f"pure core: standings + compute_ranking, nightly {m(python):7.2f} s   "
          f"ratio {m(python) / m(floor):.2f}")  # fmt: skip
    print(f"runs: floor {', '.join(f'{x:.2f}' for x in floor)}; nightly "
          f"{', '.join(f'{x:.2f}' for x in nightly)}; from empty "
          f"{', '.join(f'{x:.2f}' for x in from_empty)}")  # fmt: skip
    print(
        f"check: {count:,} rows; EXCEPT ALL floor−project {extra}, project−floor {missing} "
        f"({'identical' if extra == missing == 0 else 'DIFFERENT'})"
    )
    if extra or missing:
        sys.exit(1)


if __name__ == "__main__":
    main()
