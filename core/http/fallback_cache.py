"""The cache's Redis (``CACHE_URL``), and this process's own memory while it does not answer.

The cache holds what a request may do without: the stored public reads
(``core.http.http_cache``), the rate-limit counters (``config/throttling.py``,
``federation/login_limits.py``) and a few "asked already" markers. A Redis stopped or
unreachable must not turn a read or a login into a 500. :class:`FallbackRedisCache` is
Django's ``RedisCache`` that, when Redis fails (any ``redis.RedisError``: a refused
connection, a timeout…), logs it once and answers from a local-memory cache of this
process instead for ``RETRY_AFTER_S`` seconds (default 5), then tries Redis again:

- a read cache miss falls through to the view (the per-process tier keeps serving what
  this process sent);
- the rate limits fall back to a per-process limit (each web process counts alone:
  at most the number of processes times the rate, never no limit at all);
- nothing a request writes is lost: the database holds every write, sessions included
  (``SESSION_ENGINE`` is the database's).

The local memory keeps at most 1,000 entries (a stored answer is 3–45 kB; the oldest
third is dropped when full).

Redis is asked with short socket timeouts (``OPTIONS`` in ``config/settings.py``), so an
unreachable host costs a request at most that once per ``RETRY_AFTER_S``.
:func:`available` says whether the cache's Redis answers (``/healthz``).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis import RedisError

log = logging.getLogger(__name__)

DEFAULT_RETRY_AFTER_S = 5.0


class FallbackRedisCache(RedisCache):
    """``RedisCache`` falling back to this process's memory while Redis fails (module doc)."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self.retry_after = float(params.get("RETRY_AFTER_S", DEFAULT_RETRY_AFTER_S))
        self.local = LocMemCache(
            f"fallback:{server}",
            {"TIMEOUT": params.get("TIMEOUT", 300), "KEY_PREFIX": self.key_prefix,
             "VERSION": self.version, "OPTIONS": {"MAX_ENTRIES": 1_000}},
        )  # fmt: skip
        self._down_until = 0.0
        self._lock = threading.Lock()

    def down(self) -> bool:
        """Whether Redis failed less than ``RETRY_AFTER_S`` ago (the local memory answers)."""
        return time.monotonic() < self._down_until

    def _failed(self, operation: str, error: RedisError) -> None:
        with self._lock:
            first = not self.down()
            self._down_until = time.monotonic() + self.retry_after
        if first:  # once per outage window, not once per request
            log.warning(
                "cache: Redis failed on %s (%s); this process's memory answers for %ss",
                operation, error, self.retry_after,
            )  # fmt: skip

    def _either(self, operation: str, *args: Any, **kwargs: Any) -> Any:
        if not self.down():
            try:
                return getattr(super(), operation)(*args, **kwargs)
            except RedisError as error:
                self._failed(operation, error)
        return getattr(self.local, operation)(*args, **kwargs)

    def add(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("add", *args, **kwargs)

    def get(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("get", *args, **kwargs)

    def set(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("set", *args, **kwargs)

    def touch(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("touch", *args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("delete", *args, **kwargs)

    def get_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("get_many", *args, **kwargs)

    def has_key(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("has_key", *args, **kwargs)

    def incr(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("incr", *args, **kwargs)

    def set_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("set_many", *args, **kwargs)

    def delete_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("delete_many", *args, **kwargs)

    def clear(self) -> Any:
        self.local.clear()
        return self._either("clear")


def available(cache: Any) -> bool | None:
    """Whether this cache's Redis answers a ``PING`` now (None: not a Redis cache)."""
    if not isinstance(cache, RedisCache):
        return None
    try:
        return bool(cache._cache.get_client(write=False).ping())
    except RedisError:
        return False
