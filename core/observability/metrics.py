"""The Prometheus metrics: counted by each web process, exposed with gauges read at scrape time.

Counted as requests are served (:func:`request_observed`, from the request middleware),
labelled by the view's name, never the raw path, so the number of series stays bounded
by the URLconf: ``fft_http_requests_total`` (view, method, status),
``fft_http_request_duration_seconds`` (view, method), ``fft_http_request_db_queries``
and ``fft_http_request_db_seconds`` (view).

Gunicorn runs several worker processes and a scrape reaches one of them. With
``PROMETHEUS_MULTIPROC_DIR`` set (a directory, empty when gunicorn starts:
``config/gunicorn.py``), prometheus-client keeps each process's values in files there
and :func:`exposition` sums every process's files; unset (``runserver``, the tests), one
process counts in memory. The variable must be in the environment before
prometheus-client is imported: it chooses where values live at import time.

Gauges are not counted but read when scraped, by the process answering the scrape:
each *source* is a function returning metric families (the outbox's in ``core/tasks.py``,
the queues', the live ranking's…, wired by ``config/metrics.py``). A source that fails (the broker
down, say) is left out of that scrape and ``fft_metrics_source_up{source}`` says 0.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache

from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import choose_encoder
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

log = logging.getLogger(__name__)

MULTIPROCESS_DIR_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})

REQUESTS = Counter(
    "fft_http_requests",
    "HTTP requests answered, by view name, method and status code.",
    ["view", "method", "status"],
)
REQUEST_SECONDS = Histogram(
    "fft_http_request_duration_seconds",
    "Time from the request reaching the application to its response, by view and method.",
    ["view", "method"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0),
)
DB_QUERIES = Histogram(
    "fft_http_request_db_queries",
    "Database queries made by one request, by view.",
    ["view"],
    buckets=(0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377),
)
DB_SECONDS = Histogram(
    "fft_http_request_db_seconds",
    "Time one request spent in database queries, by view.",
    ["view"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)

GaugeSource = Callable[[], Iterable[Metric]]


def method_label(method: str | None) -> str:
    """The method as a label: the standard ones, else ``other`` (a client chooses it)."""
    return method if method in METHODS else "other"


@lru_cache(maxsize=4096)  # the labels' series, looked up once (a few µs a request saved)
def _series(view: str, method: str, status: int) -> tuple[Counter, Histogram, Histogram, Histogram]:
    return (
        REQUESTS.labels(view, method, str(status)),
        REQUEST_SECONDS.labels(view, method),
        DB_QUERIES.labels(view),
        DB_SECONDS.labels(view),
    )


def request_observed(
    *, view: str, method: str, status: int, seconds: float, queries: int, db_seconds: float
) -> None:
    requests, duration, db_queries, db_time = _series(view, method, status)
    requests.inc()
    duration.observe(seconds)
    db_queries.observe(queries)
    db_time.observe(db_seconds)


def multiprocess() -> bool:
    return bool(os.environ.get(MULTIPROCESS_DIR_VARIABLE))


def gauge(name: str, documentation: str, labels: Sequence[str] = ()) -> GaugeMetricFamily:
    """A gauge family for a source to fill (``add_metric(label values, value)``)."""
    return GaugeMetricFamily(name, documentation, labels=list(labels))


class _Scrape(Collector):
    """What one scrape shows: the counted metrics (this process's, or every process's
    files) and the gauges of each source, read now."""

    def __init__(self, sources: Sequence[tuple[str, GaugeSource]]) -> None:
        self.sources = sources

    def collect(self) -> Iterator[Metric]:
        if multiprocess():
            registry = CollectorRegistry()
            MultiProcessCollector(registry)
            yield from registry.collect()
        else:
            yield from REGISTRY.collect()
        up = gauge(
            "fft_metrics_source_up",
            "1 when the gauges of this source could be read at this scrape, 0 when it failed.",
            ["source"],
        )
        for name, source in self.sources:
            try:
                families = list(source())
            except Exception:  # one source down must not hide the others
                log.warning("metrics: the source %s could not be read", name, exc_info=True)
                up.add_metric([name], 0)
                continue
            up.add_metric([name], 1)
            yield from families
        yield up


def exposition(
    sources: Sequence[tuple[str, GaugeSource]], *, accept: str = ""
) -> tuple[bytes, str]:
    """The scrape's body and content type, in the format the scraper accepts."""
    encoder, content_type = choose_encoder(accept)
    return encoder(_Scrape(sources)), content_type
