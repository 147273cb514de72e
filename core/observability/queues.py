"""The Celery queues' lengths, read from the Redis broker at scrape time.

The queues: ``settings.CELERY_QUEUES_BY_KIND`` (every queue the tasks are routed to,
the default one included) when the project defines it, else the default queue and the
queues named in ``CELERY_TASK_ROUTES``.

kombu's Redis transport keeps a queue as a list named after it, and a message sent
with a priority in a list per priority step (``<queue>\\x06\\x16<step>``); a message a
worker took and has not acknowledged yet (running, or prefetched) is kept in the
``unacked`` hash until it is. One pipelined round trip reads them all, at scrape time
(:func:`queue_gauges`): a few ``LLEN`` per queue and one ``HLEN``, each O(1). With no
broker (tasks run in-process) or a broker that is not Redis, there is nothing to read.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import redis
from django.conf import settings
from prometheus_client.core import Metric

from core.observability.metrics import gauge

PRIORITY_SEPARATOR = "\x06\x16"
PRIORITY_STEPS = (3, 6, 9)  # kombu's default steps above 0 (0 is the queue's own list)
UNACKED_KEY = "unacked"
TIMEOUT_S = 2.0


def _routed(routes: Any) -> Iterable[str]:
    """The queue names in ``CELERY_TASK_ROUTES`` (a mapping of task patterns to a queue
    name or to options with ``queue``, or a sequence of such mappings)."""
    if isinstance(routes, Mapping):
        for target in routes.values():
            if isinstance(target, str):
                yield target
            elif isinstance(target, Mapping) and isinstance(target.get("queue"), str):
                yield target["queue"]
    elif isinstance(routes, list | tuple):
        for item in routes:
            yield from _routed(item)


def queue_names() -> list[str]:
    by_kind = getattr(settings, "CELERY_QUEUES_BY_KIND", None)
    if by_kind:
        names = set(by_kind.values() if isinstance(by_kind, Mapping) else by_kind)
    else:
        names = {settings.CELERY_TASK_DEFAULT_QUEUE}
        names.update(_routed(getattr(settings, "CELERY_TASK_ROUTES", None)))
    return sorted(names)


@lru_cache(maxsize=4)
def _client(url: str) -> Any:
    return redis.Redis.from_url(url, socket_timeout=TIMEOUT_S, socket_connect_timeout=TIMEOUT_S)


@dataclass(frozen=True)
class Queues:
    waiting: dict[str, int]  # messages waiting in each queue
    unacked: int  # messages taken by a worker and not acknowledged yet


def read_queues() -> Queues | None:
    """The queues' lengths now; None when there is no Redis broker to read."""
    url = settings.CELERY_BROKER_URL
    if not url.startswith(("redis://", "rediss://", "unix://")):
        return None
    options = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", None) or {}
    prefix = str(options.get("global_keyprefix", ""))
    names = queue_names()
    pipe = _client(url).pipeline(transaction=False)
    for name in names:
        pipe.llen(prefix + name)
        for step in PRIORITY_STEPS:
            pipe.llen(f"{prefix}{name}{PRIORITY_SEPARATOR}{step}")
    pipe.hlen(prefix + UNACKED_KEY)
    counts = pipe.execute()
    per_queue = 1 + len(PRIORITY_STEPS)
    waiting = {
        name: sum(counts[i * per_queue : (i + 1) * per_queue]) for i, name in enumerate(names)
    }
    return Queues(waiting, counts[-1])


def queue_gauges() -> Iterator[Metric]:
    """The queues as gauges, read at scrape time (``config/metrics.py``)."""
    queues = read_queues()
    if queues is None:
        return
    waiting = gauge(
        "fft_celery_queue_length", "Messages waiting in a Celery queue of the broker.", ["queue"]
    )
    for name, length in queues.waiting.items():
        waiting.add_metric([name], length)
    yield waiting
    unacked = gauge(
        "fft_celery_unacked_messages",
        "Messages a worker took and has not acknowledged yet (running or prefetched).",
    )
    unacked.add_metric([], queues.unacked)
    yield unacked
