"""The read cache of public pages and API reads, and HTTP conditional GET.

A view says *what* it shows — a version token (the identity of the data: a snapshot id,
a live version…) — and how to build the body; this module does the rest:

- the cache key is the namespace, the version, the path with the query parameters the
  view reads (each decorated view declares them: ``params``; the others are dropped from
  the request before the view sees it, so a random extra parameter is the same key and
  never a new entry: :func:`canonical_query`), the language and the response type. A
  new version is a new key: nothing is ever deleted, so a write can never leave a stale
  entry behind (old keys expire after ``READ_CACHE_TTL`` seconds, a backstop for
  registry edits that carry no version, such as a club renamed);
- ``ETag`` (weak: the body of an HTML page carries the reader's own CSRF token) and
  ``Last-Modified`` are sent with every answer, and a request whose ``If-None-Match``
  (or ``If-Modified-Since``) matches gets a ``304 Not Modified`` without a body, without
  reading the cache;
- a miss builds the body once and stores it; only ``200`` answers are stored;
- HTML pages are stored with a placeholder where the CSRF token goes, replaced by the
  reader's own token on every answer (:data:`CSRF_PLACEHOLDER`).

:func:`public_read`, a view decorator, is the one place a public read meets the cache: the
view only builds its answer. An anonymous ``GET`` (no ``Authorization`` header, no session
cookie: :func:`anonymous`) whose answer is stored is answered before the view runs (no
DRF, no rate limit, no session); a reader who is not signed in and whose answer is not
stored yet gets the view's answer, stored under the same key when it is a 200; a
signed-in reader's answer is built for them and never stored (they may be shown more
than the public). While a stored page is built, its CSRF token is the placeholder
(:func:`stored_page_context`, a template context processor). An HTML page built for a
reader not signed in counts against their address's ``PAGES_THROTTLE_ANON``
(``core.http.throttles``), as a JSON read that reaches DRF counts against
``API_THROTTLE_ANON``: a reader who keeps asking for pages nobody asked for gets 429.

Two tiers: each process keeps the last ``READ_CACHE_LOCAL_ITEMS`` answers it sent in
memory (no round trip on a hit: as the key holds the version, a process can never serve
a stale version from it either), behind the ``READ_CACHE_ALIAS`` cache (Redis in
production, shared by every web process, its own instance with ``maxmemory`` and
``allkeys-lru``; local memory by default; while it does not answer, a miss is built:
``core.http.fallback_cache``). ``READ_CACHE_TTL = 0`` turns both off (every read is
built), keeping the ETags and 304s.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from urllib.parse import urlencode

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, QueryDict
from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH, get_token
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import http_date
from django.utils.translation import get_language

from core.db_router import public_reads
from core.http.throttles import page_miss_refused

CSRF_PLACEHOLDER = "csrf-token-placeholder-5b1f0e7c"
"""Rendered in place of the CSRF token in a stored page (the template context's
``csrf_token``), replaced by the reader's own token when the page is sent."""

JSON = "application/json"
HTML = "text/html; charset=utf-8"


@dataclass(frozen=True)
class Stored:
    content_type: str
    body: bytes


def _ttl() -> int:
    return int(getattr(settings, "READ_CACHE_TTL", 3600))


class _Recent:
    """The answers this process sent last (least recently used out), each until its TTL."""

    def __init__(self) -> None:
        self._items: OrderedDict[str, tuple[float, Stored]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> Stored | None:
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            if item[0] < time.monotonic():
                del self._items[key]
                return None
            self._items.move_to_end(key)
            return item[1]

    def put(self, key: str, stored: Stored, ttl: int) -> None:
        size = int(getattr(settings, "READ_CACHE_LOCAL_ITEMS", 2000))
        with self._lock:
            self._items[key] = (time.monotonic() + ttl, stored)
            self._items.move_to_end(key)
            while len(self._items) > size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


recent = _Recent()


Canonical = Callable[[str], str | None]
"""How a view reads one query parameter's value, as the text the cache keys on: two
values the view reads alike give the same text; None: the view reads it as absent."""


def _decimal(value: str) -> int | None:
    """The integer ``value`` is to DRF's ``IntegerField`` and to ``int()`` (``" 07"``,
    ``"7.0"``: 7), or None."""
    try:
        return int(re.sub(r"\.0*\s*$", "", value))
    except ValueError:
        return None


def number(value: str) -> str:
    """An integer parameter the view refuses unless it is one: its integer, else as is."""
    parsed = _decimal(value)
    return value if parsed is None else str(parsed)


def number_or_absent(value: str) -> str | None:
    """An integer parameter the view reads as absent unless it is one."""
    parsed = _decimal(value)
    return None if parsed is None else str(parsed)


def text(value: str) -> str | None:
    """A text parameter the view reads stripped of its surrounding spaces, and as absent
    when nothing is left."""
    return value.strip() or None


def canonical_query(request: HttpRequest, params: dict[str, Canonical | None]) -> None:
    """Keep only the query parameters in ``params`` (the ones the view reads), each once
    (the view reads the last value given) and written the one way the view reads it
    (``params[name]``: :func:`number`, :func:`number_or_absent`, :func:`text`; None: as
    given), in the request itself: the view, the cache key and any link the view builds
    from the request's address see the canonical query. A parameter the view does not
    read, or a second spelling of one it does, changes nothing in its answer: keyed on,
    it would make every random one a new entry (a cache miss, and one more stored
    answer)."""
    pairs = []
    for name in sorted(params):
        if name not in request.GET:
            continue
        value: str | None = request.GET[name]  # the last one given, as the view reads it
        canonical = params[name]
        if value is not None and canonical is not None:
            value = canonical(value)
        if value is not None:
            pairs.append((name, value))
    if len(pairs) == len(request.GET) and all(request.GET.getlist(n) == [v] for n, v in pairs):
        return  # canonical already (the plain address)
    query = urlencode(pairs)
    request.GET = QueryDict(query)
    request.META["QUERY_STRING"] = query


def cache_key(request: HttpRequest, namespace: str, version: str, variant: str = "") -> str:
    query = urlencode(sorted(request.GET.lists()), doseq=True)
    identity = "\x1f".join((namespace, version, request.path, query, get_language() or "", variant))
    return f"read:{namespace}:{hashlib.sha1(identity.encode()).hexdigest()}"


def _etag(key: str, version: str) -> str:
    digest = hashlib.sha1(f"{key}|{version}".encode()).hexdigest()[:24]
    return f'W/"{digest}"'


def anonymous(request: HttpRequest) -> bool:
    """Whether the request carries no credentials at all: no ``Authorization`` header, no
    session cookie. Only such a request is answered by :func:`public_read` before the
    view; any other goes through the view, which decides from ``request.user`` (a
    signed-in reader may see more than the public: their answer is built for them)."""
    return (
        "HTTP_AUTHORIZATION" not in request.META
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
    )


def stored_answer(
    request: HttpRequest,
    *,
    namespace: str,
    version: str,
    modified: dt.datetime | None = None,
    variant: str = "",
    html: bool = False,
) -> HttpResponse | None:
    """The answer to a public read of ``version`` without building it: 304 if the client
    has it, else the stored body; None when nothing is stored."""
    key = cache_key(request, namespace, version, variant)
    return _answer(request, key, version, modified, html)


def _answer(
    request: HttpRequest, key: str, version: str, modified: dt.datetime | None, html: bool
) -> HttpResponse | None:
    etag = _etag(key, version)
    last_modified = int(modified.timestamp()) if modified else None  # HTTP dates: seconds
    not_modified = get_conditional_response(request, etag=etag, last_modified=last_modified)
    if not_modified is not None:
        return _headers(not_modified, etag, modified, html)
    ttl = _ttl()
    if not ttl:
        return None
    stored = recent.get(key)
    if stored is None:
        stored = caches[getattr(settings, "READ_CACHE_ALIAS", "default")].get(key)
        if stored is None:
            return None
        recent.put(key, stored, ttl)
    return _send(request, stored, etag, modified, html)


def _send(
    request: HttpRequest, stored: Stored, etag: str, modified: dt.datetime | None, html: bool
) -> HttpResponse:
    body = stored.body
    if html and CSRF_PLACEHOLDER.encode() in body:
        body = body.replace(CSRF_PLACEHOLDER.encode(), csrf_token(request).encode())
    return _headers(HttpResponse(body, content_type=stored.content_type), etag, modified, html)


_CSRF_INDEX = {char: i for i, char in enumerate(CSRF_ALLOWED_CHARS)}
_UNBIASED = 256 - 256 % len(CSRF_ALLOWED_CHARS)  # bytes at or above it are dropped


def _random_chars(count: int) -> list[str]:
    """``count`` characters of ``CSRF_ALLOWED_CHARS`` from the OS's CSPRNG, uniformly
    (rejection sampling): Django's ``get_random_string`` asks the OS once per character,
    this once per call (a sixth of the time of a page answered from the cache)."""
    chars: list[str] = []
    size = len(CSRF_ALLOWED_CHARS)
    while len(chars) < count:
        chars += [CSRF_ALLOWED_CHARS[b % size] for b in secrets.token_bytes(2 * count)
                  if b < _UNBIASED]  # fmt: skip
    return chars[:count]


def csrf_token(request: HttpRequest) -> str:
    """What ``django.middleware.csrf.get_token`` gives — the reader's CSRF secret (a new
    one, sent as their cookie by the CSRF middleware, if they have none), masked with a
    fresh random mask — with the randomness drawn in one call (:func:`_random_chars`).
    With ``CSRF_USE_SESSIONS``, Django's own."""
    if getattr(settings, "CSRF_USE_SESSIONS", False):
        return get_token(request)
    secret = request.META.get("CSRF_COOKIE")
    if not (
        secret and len(secret) == CSRF_SECRET_LENGTH and all(char in _CSRF_INDEX for char in secret)
    ):  # none (the CSRF middleware puts only a well-formed secret there)
        secret = "".join(_random_chars(CSRF_SECRET_LENGTH))
        request.META["CSRF_COOKIE"] = secret
    request.META["CSRF_COOKIE_NEEDS_UPDATE"] = True  # as get_token: the cookie is (re)sent
    mask = _random_chars(CSRF_SECRET_LENGTH)
    size = len(CSRF_ALLOWED_CHARS)
    cipher = [CSRF_ALLOWED_CHARS[(_CSRF_INDEX[s] + _CSRF_INDEX[m]) % size]
              for s, m in zip(secret, mask, strict=True)]  # fmt: skip
    return "".join(mask) + "".join(cipher)


Version = tuple[str, dt.datetime | None]
"""What a public read shows: its version token, and when it last changed (or None)."""


def request_version(
    request: HttpRequest, version_of: Callable[..., Version | None], *args: object, **kwargs: object
) -> Version | None:
    """``version_of(request, *args, **kwargs)``, computed once per request: the decorator
    (:func:`public_read`) and the view it lets through ask the same question."""
    memo: dict[object, Version | None] = request.__dict__.setdefault("_read_versions", {})
    if version_of not in memo:
        memo[version_of] = version_of(request, *args, **kwargs)
    return memo[version_of]


BUILDING = "_read_cache_building"
"""Set on a request while its answer is built to be stored (:func:`stored_page_context`)."""


def stored_page_context(request: HttpRequest) -> dict[str, str]:
    """A template context processor: while a page is built to be stored, its CSRF token
    is :data:`CSRF_PLACEHOLDER` (each reader gets their own when it is sent)."""
    return {"csrf_token": CSRF_PLACEHOLDER} if getattr(request, BUILDING, False) else {}


def public_read(
    namespace: str,
    version_of: Callable[..., Version | None],
    *,
    params: Iterable[str] | Mapping[str, Canonical | None],
    html: bool = False,
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A view decorator: the read cache of a public read (see the module doc), keyed by
    ``namespace``, the version ``version_of(request, *args, **kwargs)`` gives (asked
    through :func:`request_version`: one lookup per request; None: no version, the view
    answers from where the version was looked for, and nothing is stored) and the query
    parameters in ``params``, every one the view (and ``version_of``) reads, each with
    how it is read when a mapping (:data:`Canonical`; names only: as given): the others
    are dropped from the request of a ``GET``, the values written the one way the view
    reads them (:func:`canonical_query`).

    - an anonymous ``GET`` whose answer is stored is answered here, before the view — no
      DRF, no rate limit, no session, no query when the version is memoised
      (``rankings/reads/read_versions.py``); a JSON read (``html=False``) only when the client
      accepts JSON first (no ``Accept``, ``*/*`` or ``application/json``): a browser gets
      DRF's browsable page from the view;
    - a reader not signed in: 304 if they have the version, else the stored answer, else
      the view's answer (built inside ``core.db_router.public_reads``), stored when it is
      a 200 — for a JSON read, when the view answered in JSON (DRF's renderer), its data
      stored as ``JSONRenderer`` renders it; a page (``html``) is built only within the
      address's ``PAGES_THROTTLE_ANON`` (else 429: ``core.http.throttles``), a JSON read
      within DRF's own throttles;
    - a signed-in reader (a session, or an ``Authorization`` header on a JSON read: DRF
      authenticates or refuses it), or any other method: the view, nothing stored."""

    read_params = dict(params) if isinstance(params, Mapping) else dict.fromkeys(params)

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def read(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
            if request.method not in ("GET", "HEAD"):  # HEAD: the GET's answer, no body
                return view(request, *args, **kwargs)
            canonical_query(request, read_params)
            json_first, anon = html or _json_first(request), anonymous(request)
            if not anon and _signed_in(request, html):
                return view(request, *args, **kwargs)
            version = request_version(request, version_of, *args, **kwargs)
            if version is None:  # read where the version was looked for, not stored
                if html and (refused := page_miss_refused(request)) is not None:
                    return refused
                with public_reads():
                    return view(request, *args, **kwargs)
            if anon and json_first:
                answer = stored_answer(request, namespace=namespace, version=version[0],
                                       modified=version[1], html=html)  # fmt: skip
                if answer is not None:
                    return answer
            token, modified = version
            key = cache_key(request, namespace, token)
            if json_first and not anon:  # not looked up above
                answer = _answer(request, key, token, modified, html)
                if answer is not None:
                    return answer
            # a page built for a reader not signed in: within their address's budget
            if html and (refused := page_miss_refused(request)) is not None:
                return refused
            setattr(request, BUILDING, True)
            try:
                with public_reads():
                    response = view(request, *args, **kwargs)
            finally:
                setattr(request, BUILDING, False)
            stored = _storable(response, html)
            if stored is None:
                return response
            _store(key, stored)
            return _send(request, stored, _etag(key, token), modified, html)

        return read

    return decorate


def _signed_in(request: HttpRequest, html: bool) -> bool:
    if anonymous(request):
        return False
    if not html and "HTTP_AUTHORIZATION" in request.META:
        return True  # DRF authenticates the token, or refuses it
    user = getattr(request, "user", None)
    if user is None:  # no authentication middleware to tell: the view decides
        return True
    return bool(user.is_authenticated)


def _storable(response: HttpResponse, html: bool) -> Stored | None:
    """What is stored of a view's answer: a 200 only; a JSON read only when DRF answered
    in JSON (a browser's browsable page is not), its data rendered without the request's
    rendering context (a client's ``indent`` is not what the next reader asked)."""
    if response.status_code != 200 or response.streaming:
        return None
    if html:
        return Stored(response.get("Content-Type", HTML), response.content)
    renderer = getattr(response, "accepted_renderer", None)
    if renderer is None:  # a plain Django answer
        return Stored(response.get("Content-Type", JSON), response.content)
    if renderer.format != "json":
        return None
    return Stored(JSON, renderer.render(getattr(response, "data", None)))


def _store(key: str, stored: Stored) -> None:
    ttl = _ttl()
    if ttl:
        caches[getattr(settings, "READ_CACHE_ALIAS", "default")].set(key, stored, ttl)
        recent.put(key, stored, ttl)


def _json_first(request: HttpRequest) -> bool:
    accept = request.META.get("HTTP_ACCEPT", "").strip()
    return accept in ("", "*/*") or accept.startswith("application/json")


def _headers(
    response: HttpResponse, etag: str, modified: dt.datetime | None, html: bool
) -> HttpResponse:
    response["ETag"] = etag
    if modified is not None:
        response["Last-Modified"] = http_date(modified.timestamp())
    # Revalidate every time (a new homologation is a new version); a page carries the
    # reader's CSRF token, so only their own browser may keep it.
    response["Cache-Control"] = "private, no-cache" if html else "public, no-cache"
    # A JSON read's answer depends on Accept too: a browser asking for HTML gets DRF's page.
    patch_vary_headers(
        response, ("Accept-Language", "Cookie") if html else ("Accept", "Accept-Language")
    )
    return response
