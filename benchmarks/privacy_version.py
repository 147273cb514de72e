"""The cost of the privacy version in the public reads' version query (docs/privacy.md).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fft_bench_priv \\
        .venv/bin/python benchmarks/privacy_version.py [--players 150000] [--runs 300]

Every public read whose version is not memoised reads the seasons' state in one query
(``rankings/read_versions.py``); that query also reads the latest
``Player.name_hidden_changed_at`` (a scalar subquery on its index). On a database with
``--players`` synthetic players (created once, licence numbers from 90,000,000), a
hundred of them hidden, this times the query as it is and the same query without the
subquery (what the privacy version adds), alternating, and prints their medians and
p99s and the ratio of medians. Run ``manage.py migrate`` on the database first.
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

from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from federation.models import Player, Season  # noqa: E402
from rankings import read_versions  # noqa: E402

FIRST = 90_000_000


def ensure_players(count: int) -> None:
    have = Player.objects.filter(licence_number__gte=FIRST).count()
    batch = []
    for n in range(FIRST + have, FIRST + count):
        batch.append(Player(licence_number=n, last_name=f"Bench{n}", first_name="Camille"))
        if len(batch) == 5000:
            Player.objects.bulk_create(batch)
            batch = []
    Player.objects.bulk_create(batch)
    hidden = Player.objects.filter(licence_number__gte=FIRST, licence_number__lt=FIRST + 100)
    hidden.update(name_hidden=True, name_hidden_changed_at=timezone.now())
    if not Season.objects.exists():
        import datetime as dt

        for year in range(2016, 2027):
            Season.objects.create(name=f"{year}-{year + 1}", start_date=dt.date(year, 7, 1),
                                  end_date=dt.date(year + 1, 6, 30))  # fmt: skip


COLUMNS = (
    "pk", "name", "start_date", "end_date", "ranking__live_id", "ranking__live_version",
    "ranking__inputs_version", "ranking__official_id", "ranking__live__computed_at",
    "ranking__official__computed_at", "ranking__pk",
)  # fmt: skip


def before() -> list:
    """The seasons' state query without the privacy subquery."""
    return list(Season.objects.order_by("-start_date").values_list(*COLUMNS))


def timed(call) -> float:
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=150_000)
    parser.add_argument("--runs", type=int, default=300)
    args = parser.parse_args()
    ensure_players(args.players)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE federation_player")
    now, old = [], []
    for _ in range(20):  # warm
        read_versions._read_states()
        before()
    for _ in range(args.runs):
        now.append(timed(read_versions._read_states))
        old.append(timed(before))
    players = Player.objects.count()
    print(f"players {players}, seasons {Season.objects.count()}, runs {args.runs}")
    for name, times in (("with the privacy version", now), ("without it", old)):
        p99 = statistics.quantiles(times, n=100)[98]
        print(f"{name:26} median {statistics.median(times):.3f} ms   p99 {p99:.3f} ms")
    print(f"ratio of medians: {statistics.median(now) / statistics.median(old):.2f}")


if __name__ == "__main__":
    main()
