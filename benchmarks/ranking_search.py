"""The search by name or licence number on the 150,000-player ranking, uncached: what a
reader waits for when nobody asked that search since the ranking last changed.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fft_bench_read \\
        .venv/bin/python benchmarks/ranking_search.py [--queries 400]

On the synthetic season of ``manage.py generate_ranking_season`` and its live ranking,
times (one process, sequential) the first page of 50 matches plus the capped count
(``rankings/season/search.py``), for four kinds of query: a player's full name (one match), a
common last name (thousands of matches: the count stops at 1,000), two letters (a
prefix) and a licence number. Prints the median and p99 of each kind, and the same run's
plain search (``search_name LIKE '%word%'`` on the snapshot's entries, exact count) on
the same queries for the ratio. With ``RANKING_STORE_URL`` set (Redis: the live ranking's
store, as in production), the same searches on the live store too (players matched by
name, ordered by the store; its lines computed for the page only), and in the same run
the live store scoring every match (``live_reads.WIDE_SEARCH`` out of reach), where a name
many share is otherwise found by walking the ranking (``live_reads.named_in_order``).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

from benchmarks.bench_db import YEAR  # noqa: E402
from core.folding import fold  # noqa: E402
from demo.management.commands.generate_ranking_season import (  # noqa: E402
    LAST_NAMES,
    season_names,
)
from federation.models import Season  # noqa: E402
from rankings.models import RankingEntry, SeasonRanking  # noqa: E402
from rankings.season import live_reads, live_store  # noqa: E402
from rankings.season.ranking import Ranking, RankingFilter  # noqa: E402
from rankings.season.snapshot_ranking import SnapshotRanking  # noqa: E402


def new_search(ranking: Ranking, text: str) -> int:
    entries = ranking.entries(RankingFilter(query=text))
    rows = entries.rows(0, 50)
    entries.count()
    return len(rows)


def like_search(snapshot, text: str) -> int:
    """The plain search: words in the snapshot's names (``LIKE``), exact count."""
    entries = RankingEntry.objects.filter(snapshot=snapshot).order_by("rank_order")
    if text.isdigit():
        entries = entries.filter(licence_number=int(text))
    else:
        for word in fold(text).split():
            entries = entries.filter(search_name__contains=word)
    rows = list(entries.values("licence_number", "player__last_name")[:50])
    entries.count()
    return len(rows)


def timed(search, snapshot, queries: list[str]) -> list[float]:
    times = []
    for text in queries:
        started = time.perf_counter()
        search(snapshot, text)
        times.append((time.perf_counter() - started) * 1000)
    return sorted(times)


def p99(times: list[float]) -> float:
    return times[min(len(times) - 1, int(len(times) * 0.99))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=400, help="queries of each kind")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("Run this benchmark on PostgreSQL (DATABASE_URL=postgres://…).")
    season = Season.objects.filter(name=season_names(YEAR)[1]).first()
    state = SeasonRanking.objects.filter(season=season).select_related("live").first()
    if state is None or state.live is None:
        sys.exit("No synthetic season with a live ranking: run generate_ranking_season.")
    snapshot = state.live
    rng = random.Random(15)
    entries = list(
        RankingEntry.objects.filter(snapshot=snapshot).values_list("licence_number", "search_name")
    )
    picked = rng.sample(entries, args.queries)
    kinds = {
        "full name": [name for _, name in picked],
        "common name": [fold(rng.choice(LAST_NAMES)).split()[0] for _ in range(args.queries)],
        "two letters": [fold(rng.choice(LAST_NAMES))[:2] for _ in range(args.queries)],
        "licence": [str(number) for number, _ in picked],
    }
    # What a web process holds when it answers (core/http/gc_freeze.py): this script's own
    # sample of every entry freed, the rest frozen out of the collector's reach. Kept,
    # the sample made each full collection a pause of tens of ms in the p99.
    del entries
    gc.collect()
    gc.freeze()
    print(f"{snapshot.player_count} players in the live ranking; {args.queries} queries a kind; "
          f"load average {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")  # fmt: skip
    live = live_reads.live_ranking(season) if live_store.enabled() else None
    print(f"{'query':12s} {'median':>8s} {'p99':>8s}   {'LIKE median':>11s} {'LIKE p99':>8s}"
          + (f"   {'store median':>12s} {'store p99':>9s}   {'scored median':>13s}"
             f" {'scored p99':>10s}" if live else ""))  # fmt: skip
    stored = SnapshotRanking(snapshot)
    for kind, queries in kinds.items():
        new = timed(new_search, stored, queries)
        old = timed(like_search, snapshot, queries[: max(20, args.queries // 10)])
        line = (f"{kind:12s} {statistics.median(new):6.1f}ms {p99(new):6.1f}ms   "
                f"{statistics.median(old):9.1f}ms {p99(old):6.1f}ms")  # fmt: skip
        if live is not None:
            store = timed(new_search, live, queries)
            line += f"   {statistics.median(store):10.1f}ms {p99(store):7.1f}ms"
            wide, live_reads.WIDE_SEARCH = live_reads.WIDE_SEARCH, 10**12
            scored = timed(new_search, live, queries)
            live_reads.WIDE_SEARCH = wide
            line += f"   {statistics.median(scored):11.1f}ms {p99(scored):8.1f}ms"
        print(line, flush=True)


if __name__ == "__main__":
    main()
