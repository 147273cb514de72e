"""Rate limits of the API, and the one definition of "the client's address".

Three throttles, their rates in ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (set from
environment variables in settings):

- ``anon``: every anonymous request that reaches DRF, per client address (the public
  reads; a stored public read is answered before DRF and not counted:
  ``core.http.http_cache.public_read``);
- ``user_write``: writes (POST, PUT, PATCH, DELETE) of an authenticated user, per user;
- ``token_failures``: failed token authentications, per client address, counted by
  :class:`ThrottledTokenAuthentication`. Once over the rate, every request from that
  address carrying a token is refused with 429 until the window ends, right or wrong
  token: guessing tokens costs the window, not one request.

The counters live in the default cache: Redis in production (``CACHE_URL``), local
memory otherwise. The client address is ``REMOTE_ADDR``, or the address the trusted
proxies put in ``X-Forwarded-For`` when ``TRUSTED_PROXY_COUNT`` says how many there are
(DRF's ``NUM_PROXIES``); django-axes locks logins out by the same address.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from knox.auth import TokenAuthentication
from rest_framework import exceptions
from rest_framework.authentication import get_authorization_header
from rest_framework.request import Request
from rest_framework.throttling import AnonRateThrottle, BaseThrottle, UserRateThrottle

from core.http.throttles import rate

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def client_ip(request: HttpRequest | Request, *args: Any) -> str:
    """The client's address, as DRF's throttles see it (``NUM_PROXIES``); django-axes's
    ``AXES_CLIENT_IP_CALLABLE``."""
    return BaseThrottle().get_ident(request)  # type: ignore[arg-type]


class AnonReadThrottle(AnonRateThrottle):
    """Anonymous requests per client address (they may only read)."""

    scope = "anon"

    def get_rate(self) -> str | None:
        return rate(self.scope)


class UserWriteThrottle(UserRateThrottle):
    """Writes of an authenticated user, per user; their reads are not limited."""

    scope = "user_write"

    def get_rate(self) -> str | None:
        return rate(self.scope)

    def allow_request(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS or not request.user.is_authenticated:
            return True
        return super().allow_request(request, view)


def parse_rate(configured: str) -> tuple[int, int]:
    """``"20/hour"`` → (20, 3600), as DRF reads a rate."""
    num, period = configured.split("/")
    return int(num), {"s": 1, "m": 60, "h": 3600, "d": 86400}[period[0]]


class ThrottledTokenAuthentication(TokenAuthentication):
    """``Authorization: Token <key>`` checked against the stored digests (knox), with
    failed attempts counted per client address: over the ``token_failures`` rate, 429
    before any lookup."""

    scope = "token_failures"

    def authenticate(self, request: Request) -> Any:
        auth = get_authorization_header(request).split()
        if not auth or auth[0].lower() != self.authenticate_header(request).lower().encode():
            return None  # not a token: another authentication's business
        configured = rate(self.scope)
        if configured is None:
            return super().authenticate(request)
        allowed, window = parse_rate(configured)
        key = f"throttle_{self.scope}_{client_ip(request)}"
        window_end = cache.get(f"{key}_end")
        if window_end is not None and (cache.get(key) or 0) >= allowed:
            raise exceptions.Throttled(wait=max(0.0, window_end - time.time()))
        try:
            return super().authenticate(request)
        except exceptions.AuthenticationFailed:
            if cache.add(key, 0, timeout=window):
                cache.set(f"{key}_end", time.time() + window, timeout=window)
            try:
                cache.incr(key)
            except ValueError:  # the window ended between add and incr
                cache.set(key, 1, timeout=window)
            raise


class TokenScheme(OpenApiAuthenticationExtension):
    """The OpenAPI security scheme of :class:`ThrottledTokenAuthentication`: the same
    ``tokenAuth`` (``Authorization: Token <key>``) DRF's token authentication declared."""

    target_class = "config.throttling.ThrottledTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> Any:
        return build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix="Token"
        )
