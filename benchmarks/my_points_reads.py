"""« Mes points » and « Et si… » at national scale: the cost of each read on a 150,000-player
live ranking, beside the player record they sit next to.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fft_pts_bench \
        .venv/bin/python benchmarks/my_points_reads.py [--players 150000] [--calls 200]

Creates the database named in DATABASE_URL if absent, migrates it, generates the
synthetic season if absent (``manage.py generate_ranking_season``, as
``benchmarks/ranking_recompute.py``) and its live ranking, then times, for random
players (wall clock, median and p95 of ``--calls``):

1. ``player_record`` (the player page's existing read: the baseline);
2. ``my_points`` given that record (the section: threshold line, state);
3. ``simulate`` with a licence number (a rulebook read, the scale, the player's line and
   the count of the players ahead of the new totals);
4. ``simulate`` without a licence number (the scale alone);

and the ratios 2/1 and 3/1 of this run. Use a database of its own: the script writes to it.
"""

from __future__ import annotations

import argparse
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


from benchmarks.bench_db import YEAR, synthetic_season  # noqa: E402
from core.vocabulary import Format  # noqa: E402
from rankings.models import RankingEntry  # noqa: E402
from rankings.reads import selectors  # noqa: E402
from rankings.reads.my_points import my_points  # noqa: E402
from rankings.reads.simulation import simulate  # noqa: E402
from rankings.rules.simulation import Event  # noqa: E402
from rankings.season.live_ranking import live_ranking_refresh  # noqa: E402


def timings(function, arguments) -> list[float]:
    spent = []
    for argument in arguments:
        started = time.perf_counter()
        function(argument)
        spent.append(time.perf_counter() - started)
    return spent


def line(name: str, spent: list[float]) -> float:
    median = statistics.median(spent)
    p95 = sorted(spent)[int(0.95 * (len(spent) - 1))]
    print(f"{name:<44} median {median * 1000:7.2f} ms   p95 {p95 * 1000:7.2f} ms")
    return median


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=150_000)
    parser.add_argument("--allocations", type=int, default=2_000_000)
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()

    season = synthetic_season(players=args.players, allocations=args.allocations)
    if selectors.ranking_for_season(season, selectors.LIVE) is None:
        live_ranking_refresh(season=season)
    ranking = selectors.ranking_for_season(season, selectors.LIVE)
    assert ranking is not None
    print(f"season {season}: live ranking of {ranking.player_count:,} players "
          f"({ranking.ranked_count:,} with points)")  # fmt: skip

    rng = random.Random(YEAR)
    licences = list(
        RankingEntry.objects.filter(snapshot_id=ranking.snapshot_id).values_list(
            "licence_number", flat=True
        )
    )
    sample = [rng.choice(licences) for _ in range(args.calls)]
    records = {n: selectors.player_record(n, season, selectors.LIVE) for n in sample}
    for n in sample[:5]:  # warm the caches (policy parsing, rulebook)
        my_points(records[n].player, season, record=records[n])  # type: ignore[union-attr]
        simulate(season=season, event=Event.ORDINARY, fmt=Format.INDIVIDUAL, tables=20,
                 place=3, licence_number=n)  # fmt: skip

    base = line(
        "1. player_record (baseline)",
        timings(lambda n: selectors.player_record(n, season, selectors.LIVE), sample),
    )
    mine = line(
        "2. my_points (with the record)",
        timings(lambda n: my_points(records[n].player, season, record=records[n]), sample),  # type: ignore[union-attr]
    )
    placed = line(
        "3. simulate, with a licence number",
        timings(
            lambda n: simulate(season=season, event=Event.REGIONAL_FINAL, fmt=Format.INDIVIDUAL,
                               tables=20, place=2, licence_number=n),
            sample,
        ),
    )  # fmt: skip
    line(
        "4. simulate, the award alone",
        timings(
            lambda n: simulate(season=season, event=Event.REGIONAL_FINAL, fmt=Format.INDIVIDUAL,
                               tables=20, place=2),
            sample,
        ),
    )  # fmt: skip
    print(f"ratios: my_points / player_record {mine / base:5.2f}; "
          f"simulate with a player / player_record {placed / base:5.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
