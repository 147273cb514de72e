"""``GET /metrics``: the Prometheus metrics, for the federation's scraper only.

Served only with ``Authorization: Bearer <METRICS_TOKEN>``. With no token configured the
URL does not exist (404, like any unknown address); with one, a request without it or
with another one gets 401 and nothing else: no metric, no hint of what is measured.
The comparison takes the same time whatever the token sent.

The counted metrics are :mod:`core.observability.metrics`'s; the gauges are read now,
from each source below (docs/observability.md lists them all).
"""

from __future__ import annotations

import hmac

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from core.messages import localize
from core.observability.metrics import GaugeSource, exposition
from core.observability.queues import queue_gauges
from core.tasks import outbox_gauges
from rankings.gauges import live_ranking_lag, official_publications

SOURCES: list[tuple[str, GaugeSource]] = [
    ("outbox", outbox_gauges),
    ("celery_queues", queue_gauges),
    ("live_ranking", live_ranking_lag),
    ("official_ranking", official_publications),
]


def _authorised(request: HttpRequest, token: str) -> bool:
    scheme, _, sent = request.headers.get("Authorization", "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(sent.strip().encode(), token.encode())


@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    token = settings.METRICS_TOKEN
    if not token:
        raise Http404
    if not _authorised(request, token):
        response = HttpResponse(
            localize("metrics_unauthorised", "A valid metrics token is required."),
            status=401,
            content_type="text/plain; charset=utf-8",
        )
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    body, content_type = exposition(SOURCES, accept=request.headers.get("Accept", ""))
    response = HttpResponse(body, content_type=content_type)
    response["Cache-Control"] = "no-store"
    return response
