"""What the refresh after homologations spends looking for registry drift, with and
without a registry write its last look could not see
(``rankings/standings.py::registry_drift``, ``federation.RegistryWrite``).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fft_bench_live \\
        .venv/bin/python benchmarks/registry_drift.py [--runs 5]

On the synthetic season of ``manage.py generate_ranking_season`` (its standings built
first if empty), while a second connection holds a transaction open for the whole run
(with a transaction id and the oldest snapshot, as a backup or a report would),
``--runs`` times each, alternating:

- **no registry write** since the last look (a burst of homologations): the look is
  skipped after one indexed query (the newest registry write against the recorded
  snapshot's ``xmax``, and the writes of its in-progress transactions);
- **one licence moved** to another club just before (committed): the anti-join over the
  season's licences and standings runs and finds that player;

each followed by the repair's record (one ``UPDATE`` after a look, none after a skip),
as the refresh does. The moved
licence is put back after each run (and that write is looked at before the next run).
Prints the medians and their ratio.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

import psycopg  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from benchmarks.bench_db import generated_season_with_standings  # noqa: E402
from federation.models import Club, Licence, Season  # noqa: E402
from rankings.ranking_state import season_ranking  # noqa: E402
from rankings.standings import (  # noqa: E402
    RegistryDrift,
    registry_drift,
    registry_drift_repaired,
)


def look(season: Season) -> tuple[float, RegistryDrift]:
    started = time.perf_counter()
    drift = registry_drift(season=season)
    with transaction.atomic():
        registry_drift_repaired(season=season, drift=drift)
    return time.perf_counter() - started, drift


@contextlib.contextmanager
def transaction_held_open() -> Iterator[None]:
    """A second connection's transaction, open (with a transaction id) until the end."""
    db = connection.settings_dict
    with psycopg.connect(host=db["HOST"], port=db["PORT"] or 5432, user=db["USER"],
                         password=db["PASSWORD"] or None, dbname=db["NAME"]) as other:  # fmt: skip
        other.execute("SELECT txid_current()")
        yield
        other.rollback()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    season = generated_season_with_standings()
    season_ranking(season.pk)
    with transaction_held_open():
        skipped, looked = runs(season, args.runs)
    players = Licence.objects.filter(season=season).count()
    m = statistics.median
    print(f"season {season}: {players:,} licences, {args.runs} runs, a transaction held open")
    print(f"no registry write since the last look: {m(skipped) * 1000:8.2f} ms (median)")
    print(f"one licence moved before the look:     {m(looked) * 1000:8.2f} ms (median)")
    print(f"ratio: {m(looked) / m(skipped):,.0f}×")


def runs(season: Season, count: int) -> tuple[list[float], list[float]]:
    licence = Licence.objects.filter(season=season).select_related("club").order_by("pk").first()
    home = licence.club
    away = Club.objects.exclude(pk=home.pk).order_by("pk").first()
    look(season)  # the first look records its snapshot
    skipped, looked = [], []
    for _run in range(count):
        seconds, drift = look(season)
        assert drift == RegistryDrift([]), drift  # skipped: no anti-join, nothing to record
        skipped.append(seconds)
        Licence.objects.filter(pk=licence.pk).update(club=away)
        seconds, drift = look(season)
        assert drift.players == [licence.player_id], drift.players
        looked.append(seconds)
        Licence.objects.filter(pk=licence.pk).update(club=home)
        look(season)  # sees the licence back home
    return skipped, looked


if __name__ == "__main__":
    main()
