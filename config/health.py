"""Liveness and readiness for the container healthchecks.

``GET /healthz`` checks the database and, when one is configured, the Celery broker:
``{"status": "ok", "database": "ok", "broker": "ok"}``, or 503 with ``"unavailable"``
for whichever is down (``"broker": "not configured"`` when tasks run in-process). The
public body never carries a host, a port or an error text: those go to the log.
"""

from __future__ import annotations

import logging

from django.db import connection
from django.http import JsonResponse

from config.celery import app

log = logging.getLogger(__name__)

OK, UNAVAILABLE = "ok", "unavailable"
BROKER_TIMEOUT_S = 2.0


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
        return "not configured"
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(
                max_retries=1, interval_start=0, interval_step=0, timeout=BROKER_TIMEOUT_S
            )
    except Exception:  # any broker failure means "not ready"
        log.warning("health: the broker is unavailable", exc_info=True)
        return UNAVAILABLE
    return OK


def health(request):
    """200 when the database and the broker (if any) answer, 503 otherwise."""
    checks = {"database": _database(), "broker": _broker()}
    down = UNAVAILABLE in checks.values()
    return JsonResponse(
        {"status": UNAVAILABLE if down else OK, **checks}, status=503 if down else 200
    )
