"""The rate of a throttle scope, and the rate limit of the public pages' cache misses.

The API's throttles (``config/throttling.py``) and :class:`PageMissThrottle` read their
rates from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` at call time (:func:`rate`: a
test's settings override applies), and key on the same client address (DRF's
``get_ident``, ``NUM_PROXIES``: ``config.throttling.client_ip``).

A public page answered from the read cache costs next to nothing; one built costs a
database read and a render. An address that keeps asking for pages nobody asked for
(every new query is a miss) is held to ``PAGES_THROTTLE_ANON`` page builds per period,
as the API holds an anonymous client to ``API_THROTTLE_ANON`` requests that reach DRF:
:func:`page_miss_refused` is asked by ``core.http.http_cache.public_read`` before it builds
a page for a reader who is not signed in, and answers 429 with ``Retry-After``, in the
reader's language.
"""

from __future__ import annotations

import math

from django.http import HttpRequest, HttpResponse
from django.template import loader
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from core.messages import localize

PAGES_SCOPE = "pages_anon"


def rate(scope: str) -> str | None:
    """The rate of ``scope``, read at call time (so a test's settings override applies)."""
    configured = api_settings.DEFAULT_THROTTLE_RATES.get(scope)
    return None if configured is None else str(configured)


class PageMissThrottle(SimpleRateThrottle):
    """Pages built for readers not signed in, per client address."""

    scope = PAGES_SCOPE

    def get_rate(self) -> str | None:
        return rate(self.scope)

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


def page_miss_refused(request: HttpRequest) -> HttpResponse | None:
    """None when this address may have one more page built; else the 429 page."""
    throttle = PageMissThrottle()
    if throttle.allow_request(request, None):  # type: ignore[arg-type]
        return None
    wait = max(1, math.ceil(throttle.wait() or 1))
    message = localize(
        "too_many_pages",
        f"Too many pages asked from your address: try again in {wait} seconds.",
        {"wait": wait},
    )
    page = loader.render_to_string("429.html", {"message": message})
    response = HttpResponse(page, status=429, content_type="text/html; charset=utf-8")
    response["Retry-After"] = str(wait)
    return response
