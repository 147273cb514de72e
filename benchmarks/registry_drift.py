"""What the refresh after homologations spends looking for registry drift, with and
without a registry write since its last look (``rankings/season/standings.py::registry_drift``,
``federation.RegistryWrite``).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fft_bench_live_1m \\
        .venv/bin/python benchmarks/registry_drift.py [--runs 5]

On the synthetic season of ``manage.py generate_ranking_season`` (its standings built
first if empty), ``--runs`` times each, alternating:

- **no registry write** since the last look (a burst of homologations): the look is
  skipped after one indexed ``EXISTS``;
- **one licence moved** to another club just before (committed): the anti-join over the
  season's licences and standings runs and finds that player;

each followed by the repair's record (one ``UPDATE``), as the refresh does. The moved
licence is put back after each run (and that write is looked at before the next run).
Prints the medians and their ratio.
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

from django.db import transaction  # noqa: E402

from benchmarks.bench_db import generated_season_with_standings  # noqa: E402
from federation.models import Club, Licence, Season  # noqa: E402
from rankings.season.ranking_state import season_ranking  # noqa: E402
from rankings.season.standings import registry_drift, registry_drift_repaired  # noqa: E402


def look(season: Season) -> tuple[float, list[int]]:
    started = time.perf_counter()
    drift = registry_drift(season=season)
    with transaction.atomic():
        registry_drift_repaired(season=season, drift=drift)
    return time.perf_counter() - started, drift.players


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    season = generated_season_with_standings()
    season_ranking(season.pk)
    licence = Licence.objects.filter(season=season).select_related("club").order_by("pk").first()
    home = licence.club
    away = Club.objects.exclude(pk=home.pk).order_by("pk").first()
    look(season)  # the first look records its horizon
    skipped, looked = [], []
    for _run in range(args.runs):
        seconds, found = look(season)
        assert found == [], found
        skipped.append(seconds)
        Licence.objects.filter(pk=licence.pk).update(club=away)
        seconds, found = look(season)
        assert found == [licence.player_id], found
        looked.append(seconds)
        Licence.objects.filter(pk=licence.pk).update(club=home)
        look(season)  # sees the licence back home
    players = Licence.objects.filter(season=season).count()
    m = statistics.median
    print(f"season {season}: {players:,} licences, {args.runs} runs")
    print(f"no registry write since the last look: {m(skipped) * 1000:8.2f} ms (median)")
    print(f"one licence moved before the look:     {m(looked) * 1000:8.2f} ms (median)")
    print(f"ratio: {m(looked) / m(skipped):,.0f}×")


if __name__ == "__main__":
    main()
