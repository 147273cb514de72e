"""The cost of a metrics scrape's gauges on a large outbox (docs/observability.md).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fft_bench_metrics \\
        .venv/bin/python benchmarks/metrics_scrape.py [--sent 1000000] [--unsent 1000] [--runs 50]

On a database of its own (created and migrated if absent), the outbox is filled once with
``--sent`` rows already sent (the week the sweep keeps) and ``--unsent`` rows waiting,
then analysed. This times each gauge source of ``config/metrics.py`` (median and p99 of
``--runs``) and the whole exposition, and prints the plans of the outbox's two queries:
both must read the partial index of unsent rows, never the sent ones.
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

from benchmarks.bench_db import create_database_if_absent  # noqa: E402
from config.metrics import SOURCES  # noqa: E402
from core.models import OutboxMessage  # noqa: E402
from core.observability.metrics import exposition  # noqa: E402
from core.tasks import BACKLOG_COUNT_CAP  # noqa: E402


def fill(sent: int, unsent: int) -> None:
    table = OutboxMessage._meta.db_table
    if OutboxMessage.objects.count() == sent + unsent:
        return
    with connection.cursor() as cursor:
        cursor.execute(f"TRUNCATE {table}")
        for count, sent_at in ((sent, "now()"), (unsent, "NULL")):
            cursor.execute(
                f"""INSERT INTO {table} (task, args, kwargs, created_at, sent_at, attempts,
                        last_error, request_id)
                    SELECT 'rankings.refresh_live_ranking', '[1]', '{{}}',
                           now() - (g || ' seconds')::interval, {sent_at}, 1, '', ''
                    FROM generate_series(1, %s) g""",
                [count],
            )
        cursor.execute(f"ANALYZE {table}")


def timed(function, runs: int) -> tuple[float, float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return statistics.median(samples), samples[min(len(samples) - 1, int(len(samples) * 0.99))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sent", type=int, default=1_000_000)
    parser.add_argument("--unsent", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()
    create_database_if_absent()
    fill(args.sent, args.unsent)
    print(f"outbox: {args.sent:,} sent rows, {args.unsent:,} unsent (count capped at "
          f"{BACKLOG_COUNT_CAP:,})")  # fmt: skip
    for name, source in SOURCES:
        median, p99 = timed(lambda source=source: list(source()), args.runs)
        print(f"  source {name:18} median {median:7.2f} ms   p99 {p99:7.2f} ms")
    median, p99 = timed(lambda: exposition(SOURCES), args.runs)
    print(f"  whole exposition          median {median:7.2f} ms   p99 {p99:7.2f} ms")
    unsent = OutboxMessage.objects.filter(sent_at__isnull=True)
    for label, queryset in (
        ("count", unsent.order_by()[:BACKLOG_COUNT_CAP]),
        ("oldest", unsent.order_by("created_at", "id")[:1]),
    ):
        print(f"plan of the {label} query:")
        print("    " + queryset.explain(analyze=True).replace("\n", "\n    "))


if __name__ == "__main__":
    main()
