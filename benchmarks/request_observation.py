"""The cost of observing a request: its id, its metrics, its log line (docs/observability.md).

    .venv/bin/python benchmarks/request_observation.py [--requests 2000] [--rounds 7]

A trivial view (its URL resolved once) called directly, then through the middleware
``core.observability.requests.ObserveRequests``, alternating, ``--rounds`` times
``--requests`` requests; prints the medians per request of both and their difference,
with the log line written (``LOG_LEVEL=INFO``, the default) or not (``LOG_LEVEL=WARNING``)
in the format ``LOG_FORMAT`` chooses. No database: the view makes no query.
"""

from __future__ import annotations

import argparse
import io
import logging
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

from django.http import HttpResponse  # noqa: E402
from django.test import RequestFactory  # noqa: E402
from django.urls import resolve  # noqa: E402

from core.observability.requests import ObserveRequests  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    for handler in logging.getLogger().handlers:  # the lines are formatted, not printed
        if isinstance(handler, logging.StreamHandler):
            handler.setStream(io.StringIO())
    match = resolve("/healthz")

    def view(request):
        request.resolver_match = match
        return HttpResponse("x")

    observed = ObserveRequests(view)
    requests = [RequestFactory().get("/healthz") for _ in range(args.requests)]

    def per_request(handler) -> float:
        start = time.perf_counter()
        for request in requests:
            handler(request)
        return (time.perf_counter() - start) / len(requests) * 1e6

    bare, through = [], []
    for _ in range(args.rounds):
        bare.append(per_request(view))
        through.append(per_request(observed))
    level = logging.getLevelName(logging.getLogger().level)
    print(f"log level {level}, format {os.environ.get('LOG_FORMAT') or 'default'}:")
    print(f"  bare view        median {statistics.median(bare):7.1f} µs a request")
    print(f"  observed         median {statistics.median(through):7.1f} µs a request")
    print(f"  difference       {statistics.median(through) - statistics.median(bare):7.1f} µs")


if __name__ == "__main__":
    main()
