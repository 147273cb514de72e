"""The live ranking's reads that used to grow with the season: a series of the whole
country after a homologation, and the ranking while the store is lost.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fft_bench_live \\
        RANKING_STORE_URL=redis://127.0.0.1:6379/7 \\
        .venv/bin/python benchmarks/live_store_reads.py [--runs 3]

On the synthetic season of ``manage.py generate_ranking_season`` (its standings written
if absent) and its live store (rebuilt first), each run:

1. homologates a 100-player tournament (``benchmarks/bench_db.py``, the incremental
   update applied to the store as the worker does), then times the **first**
   series-filtered read of each series after it — what a reader waits for, through the
   selectors as the API reads it: the series' page 1 of 50 and its count
   (``rankings/season/live_series.py``), then a deep page (the middle of the series);
   beside it, same run, the yardstick of the former way: every standing read from the
   store and the whole ranking computed by the pure core (what a web process did once per
   version, and kept);
2. forgets the store (as a flush does) and times the reads while it is lost: the
   ranking computed in place by the database (``rankings/season/statement_ranking.py``),
   page 1 of the whole ranking and of the 4th series; then the rebuild a worker runs
   (``live_store.restore``).

Prints the medians of ``--runs``. Use a database of its own: the script writes to it.
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
from django.db import transaction  # noqa: E402

from benchmarks.bench_db import generated_season_with_standings, tournament_write  # noqa: E402
from rankings.models import ManualPlacement, SeasonStanding  # noqa: E402
from rankings.reads import selectors  # noqa: E402
from rankings.rules.live_order import licence_of  # noqa: E402
from rankings.rules.national_ranking import compute_ranking  # noqa: E402
from rankings.rules.series import ManualPlacement as Placement  # noqa: E402
from rankings.season import live_store  # noqa: E402
from rankings.season.live_ranking import live_totals_update  # noqa: E402
from rankings.season.live_store import StoredPlayer  # noqa: E402
from rankings.season.ranking import RankingFilter  # noqa: E402
from rankings.season.statement_ranking import StatementRanking  # noqa: E402

NAME = "Bench série"


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


def timed(function) -> tuple[float, object]:
    started = time.perf_counter()
    value = function()
    return time.perf_counter() - started, value


def read(ranking, series: int | None, start: int) -> int:
    entries = ranking.entries(RankingFilter(series=series))
    entries.rows(start, 50)
    return entries.count().value


def former_way(ranking) -> int:
    """What a web process did for a series filter: every line from the store, the core."""
    raw = live_store.client().hgetall(ranking.meta.key("p"))
    standings = [StoredPlayer.decode(licence_of(m), r).standing for m, r in raw.items()]
    placements = [
        Placement(n, step, reason)
        for n, step, reason in ManualPlacement.objects.filter(
            season_id=ranking.season.pk
        ).values_list("player__licence_number", "step", "reason")
    ]
    return len(compute_ranking(standings, ranking.rules(), placements).entries)


def homologate(season, run: int) -> None:
    players = list(
        SeasonStanding.objects.filter(season=season)
        .order_by("?")
        .values_list("player_id", flat=True)[:100]
    )
    with transaction.atomic():
        tournament_write(season, players, name=f"{NAME} {run}", first_pcn=2000 + run)
    live_totals_update(season=season, player_ids=players)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if not settings.RANKING_STORE_URL:
        sys.exit("Set RANKING_STORE_URL (a Redis database of the benchmark's own).")
    season = generated_season_with_standings()
    with transaction.atomic():
        live_store.restore(season=season)
    figures: dict[str, list[float]] = {}

    def keep(name: str, seconds: float) -> None:
        figures.setdefault(name, []).append(seconds)

    for run in range(args.runs):
        homologate(season, run)
        ranking = selectors.ranking_for_season(season, selectors.LIVE)
        for series in (1, 2, 3, 4):
            seconds, count = timed(lambda s=series, r=ranking: read(r, s, 0))
            keep(f"series {series}: first read after a homologation (page 1 + count)", seconds)
            seconds, _ = timed(lambda s=series, c=count, r=ranking: read(r, s, c // 2))
            keep(f"series {series}: a page in its middle", seconds)
        yardstick = timed(lambda r=ranking: former_way(r))[0]
        keep("the former way: the whole ranking by the core", yardstick)
        live_store.clear(season.pk)  # the store lost; its rebuild asked of a worker (timed below)
        live_store.client().set(live_store.rebuild_asked_key(season.pk), "1", ex=600)
        ranking = selectors.ranking_for_season(season, selectors.LIVE)
        assert isinstance(ranking, StatementRanking)
        keep("store lost: page 1 of the ranking from the database (first read)",
             timed(lambda r=ranking: read(r, None, 0))[0])  # fmt: skip
        keep("store lost: page 2 of the ranking from the database",
             timed(lambda r=ranking: read(r, None, 50))[0])  # fmt: skip
        keep("store lost: page 1 of the 4th series from the database",
             timed(lambda r=ranking: read(r, 4, 0))[0])  # fmt: skip

        def rebuild() -> None:
            with transaction.atomic():
                live_store.restore(season=season)

        keep("store lost: its rebuild by a worker", timed(rebuild)[0])
    players = SeasonStanding.objects.filter(season=season).count()
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    print(f"{players} players; {args.runs} runs; load average {load}")
    for name, spent in figures.items():
        print(f"{name:66s} median {ms(statistics.median(spent))}"
              f"   ({' · '.join(ms(s).strip() for s in spent)})")  # fmt: skip


if __name__ == "__main__":
    main()
