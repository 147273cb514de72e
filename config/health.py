"""Liveness and readiness for the container healthchecks and the load balancer.

``GET /healthz`` checks the database, the Celery broker, the cache's Redis and the live
ranking's store (the last three when configured: ``"not configured"`` otherwise) and says
which is down: ``{"status": "ok", "database": "ok", "broker": "ok", "cache": "ok",
"store": "ok"}``.

The status a load balancer acts on: **503 only when the database is down** (``"status":
"unavailable"``): then no process can answer (every read is a 503 with ``Retry-After``),
and taking it out of rotation is right. A Redis down is ``200`` with ``"status":
"degraded"`` and the role named ``"unavailable"``: the web still serves — reads come
from the database (a read cache miss is built, the live ranking falls back to the
database's), rate limits count per process, writes are accepted (their tasks wait in
the outbox), sessions live in the database — and taking every web process out of
rotation for a Redis outage would turn a degraded site into no site. Alert on
``degraded``; route on the status code.

The public body never carries a host, a port or an error text: those go to the log.
"""

from __future__ import annotations

import logging

import redis
from django.conf import settings
from django.core.cache import caches
from django.db import connection
from django.http import JsonResponse

from config.celery import app
from core.http.fallback_cache import available
from rankings.season import live_store

log = logging.getLogger(__name__)

OK, DEGRADED, UNAVAILABLE, NOT_CONFIGURED = "ok", "degraded", "unavailable", "not configured"
BROKER_TIMEOUT_S = 2.0
REDIS_TIMEOUT_S = 1.0


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception:  # any database failure means "not ready"
        log.warning("health: the database is unavailable", exc_info=True)
        return UNAVAILABLE
    return OK


def _broker() -> str:
    if app.conf.task_always_eager:
        return NOT_CONFIGURED
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(
                max_retries=1, interval_start=0, interval_step=0, timeout=BROKER_TIMEOUT_S
            )
    except Exception:  # any broker failure means "not ready"
        log.warning("health: the broker is unavailable", exc_info=True)
        return UNAVAILABLE
    return OK


def _cache() -> str:
    answers = available(caches[getattr(settings, "READ_CACHE_ALIAS", "default")])
    if answers is None:  # this process's memory: nothing to be down
        return NOT_CONFIGURED
    if not answers:
        log.warning("health: the cache's Redis is unavailable")
    return OK if answers else UNAVAILABLE


def _store() -> str:
    if not live_store.enabled():
        return NOT_CONFIGURED
    try:
        with redis.Redis.from_url(
            settings.RANKING_STORE_URL,
            socket_connect_timeout=REDIS_TIMEOUT_S,
            socket_timeout=REDIS_TIMEOUT_S,
        ) as store:
            store.ping()
    except redis.RedisError:
        log.warning("health: the live ranking's store is unavailable", exc_info=True)
        return UNAVAILABLE
    return OK


def health(request):
    """200 while the database answers (``degraded`` when a Redis role does not), 503 when
    it does not (module doc)."""
    checks = {"database": _database(), "broker": _broker(), "cache": _cache(), "store": _store()}
    if checks["database"] == UNAVAILABLE:
        status, code = UNAVAILABLE, 503
    elif UNAVAILABLE in checks.values():
        status, code = DEGRADED, 200
    else:
        status, code = OK, 200
    return JsonResponse({"status": status, **checks}, status=code)
