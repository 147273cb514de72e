"""core/http/http_cache.py without a ranking: the reader's CSRF token of a stored page, and the
decorator around a public read: a stored answer sent before the view (who is answered
there, who is not), a miss built by the view and stored, a signed-in reader's answer never
stored."""

from __future__ import annotations

import pytest
from django.http import HttpResponse
from django.middleware.csrf import (
    CSRF_ALLOWED_CHARS,
    CSRF_SECRET_LENGTH,
    _unmask_cipher_token,
)
from django.test import RequestFactory
from hypothesis import given
from hypothesis import strategies as st

from core.http.http_cache import (
    CSRF_PLACEHOLDER,
    JSON,
    csrf_token,
    public_read,
    stored_page_context,
)

secrets_ = st.text(alphabet=CSRF_ALLOWED_CHARS, min_size=CSRF_SECRET_LENGTH,
                   max_size=CSRF_SECRET_LENGTH)  # fmt: skip


@given(secret=secrets_)
def test_a_token_is_the_readers_secret_masked(secret):
    request = RequestFactory().get("/")
    request.META["CSRF_COOKIE"] = secret
    token = csrf_token(request)
    assert len(token) == 2 * CSRF_SECRET_LENGTH
    assert set(token) <= set(CSRF_ALLOWED_CHARS)
    assert _unmask_cipher_token(token) == secret
    assert request.META["CSRF_COOKIE"] == secret  # their cookie is kept…
    assert request.META["CSRF_COOKIE_NEEDS_UPDATE"] is True  # … and sent again (as Django)


@pytest.mark.parametrize("cookie", [None, "", "short", "é" * CSRF_SECRET_LENGTH])
def test_a_reader_without_a_well_formed_secret_gets_a_new_one(cookie):
    request = RequestFactory().get("/")
    if cookie is not None:
        request.META["CSRF_COOKIE"] = cookie
    token = csrf_token(request)
    secret = request.META["CSRF_COOKIE"]
    assert len(secret) == CSRF_SECRET_LENGTH
    assert set(secret) <= set(CSRF_ALLOWED_CHARS)
    assert _unmask_cipher_token(token) == secret


def test_tokens_are_masked_afresh_and_secrets_are_random():
    request = RequestFactory().get("/")
    tokens = {csrf_token(request) for _ in range(50)}
    assert len(tokens) == 50  # a new mask every time (BREACH)
    secrets = set()
    for _ in range(200):
        fresh = RequestFactory().get("/")
        csrf_token(fresh)
        secrets.add(fresh.META["CSRF_COOKIE"])
    assert len(secrets) == 200
    used = {char for secret in secrets for char in secret}
    assert used == set(CSRF_ALLOWED_CHARS)  # 6,400 draws over 62 characters


class Calls:
    def __init__(self) -> None:
        self.view = 0
        self.built = 0


@pytest.fixture
def decorated():
    calls = Calls()

    def version_of(request, number):
        return None if number == 0 else (f"v{number}", None)

    @public_read("test-ns", version_of, params=("page",))
    def view(request, number):
        calls.view += 1
        calls.built += 1
        return HttpResponse(b'{"n": %d}' % number, content_type=JSON)

    return view, calls


def test_a_stored_answer_is_sent_before_the_view(decorated):
    view, calls = decorated
    factory = RequestFactory()
    first = view(factory.get("/x/"), 1)
    second = view(factory.get("/x/"), 1)
    assert (calls.view, calls.built) == (1, 1)  # the second never reached the view
    assert second.content == first.content == b'{"n": 1}'
    assert second["ETag"] == first["ETag"]
    not_modified = view(factory.get("/x/", HTTP_IF_NONE_MATCH=first["ETag"]), 1)
    assert not_modified.status_code == 304
    assert calls.view == 1
    view(factory.get("/x/", {"page": "2"}), 1)  # another query: another key, built
    assert (calls.view, calls.built) == (2, 2)


def test_a_parameter_the_view_does_not_read_is_the_same_key(decorated):
    """A random extra parameter is neither a miss nor a new entry, and the view never
    sees it (a link it builds from the request carries the canonical query only)."""
    view, calls = decorated
    factory = RequestFactory()
    first = view(factory.get("/x/", {"page": "2"}), 1)
    for n in range(5):
        again = view(factory.get("/x/", {"page": "2", f"cb{n}": str(n)}), 1)
        assert again.content == first.content
        assert again["ETag"] == first["ETag"]
    assert calls.view == 1
    seen = []

    @public_read("test-seen", lambda request: ("v1", None), params=("page",))
    def echo(request):
        seen.append((request.GET.dict(), request.get_full_path()))
        return HttpResponse(b"{}", content_type=JSON)

    echo(factory.get("/e/", {"utm": "x", "page": "3", "zz": "y"}))
    assert seen == [({"page": "3"}, "/e/?page=3")]


@pytest.mark.parametrize(
    "extra",
    [
        {"HTTP_AUTHORIZATION": "Token abc"},
        {"HTTP_COOKIE": "sessionid=abc"},
        {"HTTP_ACCEPT": "text/html,application/xhtml+xml"},  # DRF's browsable API
    ],
)
def test_who_is_not_answered_before_the_view(decorated, extra):
    view, calls = decorated
    factory = RequestFactory()
    view(factory.get("/x/"), 1)  # stored
    view(factory.get("/x/", **extra), 1)
    assert calls.view == 2  # the view decides (a signed-in reader's answer is theirs)
    view(factory.post("/x/"), 1)
    assert calls.view == 3


def test_no_version_goes_to_the_view(decorated):
    view, calls = decorated
    view(RequestFactory().get("/x/"), 0)
    view(RequestFactory().get("/x/"), 0)
    assert calls.view == 2


class Reader:
    def __init__(self, signed_in: bool) -> None:
        self.is_authenticated = signed_in


def test_a_reader_with_a_session_cookie_is_stored_for_unless_signed_in(decorated):
    """A session cookie that signs no one in (expired, say): stored and answered as
    anonymous; a signed-in reader: built for them, never stored nor answered from it."""
    view, calls = decorated
    factory = RequestFactory()
    expired = factory.get("/x/", HTTP_COOKIE="sessionid=old")
    expired.user = Reader(signed_in=False)
    first = view(expired, 1)
    assert first["ETag"]
    assert view(factory.get("/x/"), 1).content == first.content  # stored
    assert calls.view == 1
    signed_in = factory.get("/x/", HTTP_COOKIE="sessionid=abc")
    signed_in.user = Reader(signed_in=True)
    mine = view(signed_in, 1)
    assert calls.view == 2
    assert "ETag" not in mine
    token = factory.get("/x/", HTTP_AUTHORIZATION="Token abc")
    view(token, 2)  # DRF authenticates it (or refuses it): never stored
    view(factory.get("/x/"), 2)
    assert calls.view == 4


def test_only_a_200_is_stored():
    calls = []

    @public_read("test-missing", lambda request: ("v1", None), params=())
    def view(request):
        calls.append(1)
        return HttpResponse(b"nope", status=404)

    assert view(RequestFactory().get("/y/")).status_code == 404
    assert view(RequestFactory().get("/y/")).status_code == 404
    assert len(calls) == 2


def test_a_page_built_for_the_cache_carries_the_placeholder():
    from django.template import engines

    template = engines["django"].from_string("<p>{{ csrf_token }}</p>")
    seen = []

    @public_read("test-page", lambda request: ("v1", None), params=(), html=True)
    def page(request):
        seen.append(stored_page_context(request))
        return HttpResponse(template.render({}, request))

    request = RequestFactory().get("/p/")
    body = page(request).content.decode()
    assert seen == [{"csrf_token": CSRF_PLACEHOLDER}]  # stored with the placeholder…
    token = body.removeprefix("<p>").removesuffix("</p>")
    assert _unmask_cipher_token(token) == request.META["CSRF_COOKIE"]  # … sent with theirs
    assert stored_page_context(RequestFactory().get("/p/")) == {}
