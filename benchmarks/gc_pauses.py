"""How long Python's full garbage collections stop a web process, with and without the
freezes of ``core/http/gc_freeze.py``, in process (no server, one client).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fft_read API_THROTTLE_ANON=100000000/minute \\
        .venv/bin/python benchmarks/gc_pauses.py [--requests 20000] [--freeze none|loaded|warm]

On the synthetic season of ``manage.py generate_ranking_season`` (2090-2091): reads 500
players' API records and 200 player pages once (stored in the read cache), then answers
``--requests`` of them again from the cache, timing every collection by generation
(``gc.callbacks``) and every request. ``--freeze``: ``none`` (the collector as Python sets
it), ``loaded`` (``gc.freeze()`` once the site is loaded, as ``config/wsgi.py`` does first)
or ``warm`` (once more after the first reads, as ``freeze_once_warm`` does). Prints the
requests' median, p99, p99.9 and maximum, and per generation the count, median and maximum
pause. Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchmarks.bench_settings")
os.environ.setdefault("DJANGO_DEBUG", "0")
os.environ.setdefault("DJANGO_SECRET_KEY", "benchmark-only-secret-key-never-used-in-production-0")
os.environ.setdefault("DJANGO_SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver")

import django  # noqa: E402

django.setup()

from django.test import Client  # noqa: E402

from benchmarks.bench_db import YEAR  # noqa: E402
from core.http.gc_freeze import freeze_loaded  # noqa: E402
from demo.management.commands.generate_ranking_season import season_names  # noqa: E402
from federation.models import Licence  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=20_000)
    parser.add_argument("--freeze", choices=("none", "loaded", "warm"), default="none")
    args = parser.parse_args()
    if args.freeze != "none":
        freeze_loaded()
    season = season_names(YEAR)[1]
    numbers = list(
        Licence.objects.filter(season__name=season).values_list(
            "player__licence_number", flat=True
        )[:500]
    )
    paths = [f"/api/pcn/ranking/players/{n}/?season={season}" for n in numbers]
    paths += [f"/classement/joueur/{n}/?saison={season}" for n in numbers[:200]]
    client = Client()
    for path in paths:  # built once, stored
        if client.get(path).status_code != 200:
            sys.exit(f"{path} did not answer 200 (API_THROTTLE_ANON high enough?)")
    if args.freeze == "warm":
        gc.collect()
        gc.freeze()
    pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
    started: list[float] = []

    def timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started.append(time.perf_counter())
        else:
            pauses[info["generation"]].append((time.perf_counter() - started.pop()) * 1000)

    gc.callbacks.append(timed)
    spent = []
    for index in range(args.requests):
        begun = time.perf_counter()
        client.get(paths[index % len(paths)])
        spent.append((time.perf_counter() - begun) * 1000)
    gc.callbacks.remove(timed)
    spent.sort()

    def at(share: float) -> float:
        return spent[min(len(spent) - 1, int(len(spent) * share))]

    print(f"freeze {args.freeze}: {len(spent)} requests, median {at(0.5):.2f} ms, "
          f"p99 {at(0.99):.2f} ms, p99.9 {at(0.999):.2f} ms, max {spent[-1]:.1f} ms")  # fmt: skip
    for generation, found in pauses.items():
        if found:
            print(f"  generation {generation}: {len(found)} collections, median "
                  f"{statistics.median(found):.2f} ms, max {max(found):.2f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
