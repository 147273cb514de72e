"""The cached read path (core/http/http_cache.py, rankings/reads/read_versions.py): public ranking
reads are stored under the version they show, answered again without building them,
with ETag/Last-Modified and 304s; a new version is a new key; a player record costs at
most five queries; a signed-in reader's page is theirs."""

from __future__ import annotations

import time

import pytest

from rankings.reads import public_reads, read_versions
from rankings.season.official_ranking import official_ranking_publish
from rankings.season.recompute import full_recompute

pytestmark = pytest.mark.django_db

RANKING_API = "/api/pcn/ranking/"


@pytest.fixture
def ranked(registry, federation, add_tournament):
    p = federation.players
    add_tournament(registry.previous, {p[i]: (400 - 20 * i, 0) for i in range(10)},
                   club=registry.clubs[101], arbiter=p[20])  # fmt: skip
    official_ranking_publish(season=registry.previous)
    add_tournament(registry.season, {p[i]: (300 - 10 * i, 0) for i in range(0, 20, 2)},
                   club=registry.clubs[102], arbiter=p[21])  # fmt: skip
    full_recompute(season=registry.season)
    return federation


def test_a_hit_is_not_built_again(api, ranked, django_assert_max_num_queries):
    first = api.get(RANKING_API, {"page_size": 5})
    assert first.status_code == 200
    with django_assert_max_num_queries(1):  # the version only (READ_VERSION_MAX_AGE_MS = 0)
        again = api.get(RANKING_API, {"page_size": 5})
    assert again.content == first.content
    assert again["ETag"] == first["ETag"]
    assert again["Last-Modified"]
    assert again["Cache-Control"] == "public, no-cache"
    assert again.json()["results"][0]["last_name"]


def test_conditional_get_answers_304(api, client, ranked):
    first = api.get(RANKING_API)
    not_modified = api.get(RANKING_API, HTTP_IF_NONE_MATCH=first["ETag"])
    assert not_modified.status_code == 304
    assert not_modified.content == b""
    since = api.get(RANKING_API, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert since.status_code == 304
    other = api.get(RANKING_API, {"page": 2}, HTTP_IF_NONE_MATCH=first["ETag"])
    assert other.status_code == 200  # another query, another tag
    page = client.get("/classement/")
    assert client.get("/classement/", HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 304


def test_a_new_version_is_a_new_key(api, registry, ranked, add_tournament):
    """A homologation and the refresh that follows change what readers see at once:
    the key holds the version, nothing is deleted."""
    player = ranked.players[1]  # no tournament this season yet
    path = f"/api/pcn/ranking/players/{player.licence_number}/"
    before = api.get(path).json()
    assert before["tournaments"] == []
    etag = api.get(path)["ETag"]
    add_tournament(registry.season, {player: (900, 0)}, club=registry.clubs[101],
                   arbiter=ranked.players[21])  # fmt: skip
    full_recompute(season=registry.season)
    after = api.get(path, HTTP_IF_NONE_MATCH=etag)
    assert after.status_code == 200
    assert [t["pcn"] for t in after.json()["tournaments"]] == [900]
    assert after.json()["ranking"]["place"] == 1
    assert api.get(RANKING_API, {"page_size": 1}).json()["results"][0]["licence_number"] == (
        player.licence_number
    )


def test_refusals_are_not_stored(api, ranked):
    assert api.get(RANKING_API, {"page": 0}).status_code == 400
    assert api.get(RANKING_API, {"page": 0}).status_code == 400
    assert api.get(RANKING_API, {"season": "1900-1901"}).status_code == 404
    assert api.get("/api/pcn/ranking/players/999999/").status_code == 404
    assert api.get(RANKING_API, {"snapshot": 999999}).status_code == 404


def test_a_stored_page_carries_each_readers_own_csrf_token(ranked):
    from django.test import Client

    alice, bob = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    first = alice.get("/classement/")
    assert first.context is not None  # built
    second = bob.get("/classement/")
    assert second.context is None  # stored: not rendered again
    for reader, page in ((alice, first), (bob, second)):
        html = page.content.decode()
        assert "csrf-token-placeholder" not in html
        token = html.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
        switched = reader.post("/i18n/setlang/", {"language": "en", "next": "/classement/",
                                                  "csrfmiddlewaretoken": token})  # fmt: skip
        assert switched.status_code == 302  # the reader's token is accepted
    assert "Cookie" in second["Vary"]
    assert second["Cache-Control"] == "private, no-cache"


def test_languages_are_stored_apart(client, ranked):
    french = client.get("/classement/").content.decode()
    english = client.get("/classement/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Classement national" in french
    assert "National ranking" in english


def test_a_signed_in_readers_page_is_their_own(client, registry, ranked):
    client.get("/classement/")  # stored for anonymous readers
    client.force_login(registry.users["federation_staff"])
    page = client.get("/classement/")
    assert page.context is not None  # built for them
    assert "/api/pcn/ranking/export/" in page.content.decode()
    client.logout()
    assert "/api/pcn/ranking/export/" not in client.get("/classement/").content.decode()


def test_a_player_record_in_five_queries(registry, ranked, django_assert_max_num_queries):
    player = ranked.players[0]
    with django_assert_max_num_queries(5):
        season, record = public_reads.player_record(player.licence_number, None)
    assert season == registry.season
    assert record is not None
    assert record.entry is not None
    assert record.entry.place == 1
    assert record.held is not None  # the previous season's official ranking
    assert [e.snapshot.season for e in record.history] == [registry.previous]
    assert [a.pcn for a in record.tournaments] == [300]
    assert [t.season for t in record.season_totals] == [registry.previous, registry.season]


def test_player_pages_in_few_queries(api, client, ranked, django_assert_max_num_queries):
    number = ranked.players[0].licence_number
    with django_assert_max_num_queries(7):  # the version, the record (5), the policy
        assert api.get(f"/api/pcn/ranking/players/{number}/").status_code == 200
    # … the seasons for the season menu, the titles, the place over the season (the
    # policy, one statement in a transaction of its own: savepoint, settings, release)
    with django_assert_max_num_queries(14):
        assert client.get(f"/classement/joueur/{number}/").status_code == 200


def test_versions_follow_the_ranking(registry, ranked, add_tournament):
    live = read_versions.ranking_version(registry.season, "live")
    official = read_versions.ranking_version(registry.previous.name, None)
    assert live is not None
    assert live.kind == "live"
    assert live.snapshot_id
    assert official is not None
    assert official.kind == "official"
    assert official.token == f"o{official.snapshot_id}"
    assert read_versions.ranking_version("1900-1901", None) is None
    add_tournament(registry.season, {ranked.players[3]: (50, 0)}, club=registry.clubs[101],
                   arbiter=ranked.players[21])  # fmt: skip
    full_recompute(season=registry.season)
    assert read_versions.ranking_version(registry.season, "live").token != live.token


def test_versions_are_reused_for_a_moment(registry, ranked, settings, django_assert_num_queries):
    settings.READ_VERSION_MAX_AGE_MS = 60_000
    read_versions.ranking_version(registry.season, None)
    with django_assert_num_queries(0):
        read_versions.ranking_version(registry.season, None)
    settings.READ_VERSION_MAX_AGE_MS = 0
    with django_assert_num_queries(1):
        read_versions.ranking_version(registry.season, None)


def _inputs_changed(season) -> None:
    """What a homologation does to the versions: the season's inputs version goes up."""
    from django.db.models import F

    from rankings.models import SeasonRanking

    SeasonRanking.objects.filter(season=season).update(inputs_version=F("inputs_version") + 1)


@pytest.mark.django_db(transaction=True)  # the refresher reads in its own connection
def test_a_stale_version_is_served_while_the_refresher_reads_it_again(
    registry, ranked, settings, django_assert_num_queries
):
    settings.READ_VERSION_MAX_AGE_MS = 50
    settings.READ_VERSION_STALE_MS = 60_000
    try:
        first = read_versions.ranking_version(registry.season.name, "live")
        _inputs_changed(registry.season)
        time.sleep(0.06)  # older than its max age
        with django_assert_num_queries(0):  # the reader does not wait for the new state
            assert read_versions.ranking_version(registry.season.name, "live") == first
        deadline = time.monotonic() + 10
        while read_versions.ranking_version(registry.season.name, "live") == first:
            assert time.monotonic() < deadline, "the refresher never read the new version"
            time.sleep(0.01)
        with django_assert_num_queries(0):  # derived again by the refresher, as asked
            fresh = read_versions.ranking_version(registry.season.name, "live")
        assert fresh is not None
        assert first is not None
        assert fresh.token != first.token
    finally:
        read_versions.refresher.stop()


def test_a_memo_past_the_stale_limit_is_read_in_the_request(
    registry, ranked, settings, django_assert_num_queries
):
    settings.READ_VERSION_MAX_AGE_MS = 20
    settings.READ_VERSION_STALE_MS = 40
    first = read_versions.ranking_version(registry.season.name, "live")
    _inputs_changed(registry.season)
    time.sleep(0.05)  # past the stale limit: an idle process
    with django_assert_num_queries(1):
        again = read_versions.ranking_version(registry.season.name, "live")
    assert again is not None
    assert first is not None
    assert again.token != first.token


def test_the_cache_can_be_turned_off(api, ranked, settings, django_assert_max_num_queries):
    settings.READ_CACHE_TTL = 0
    first = api.get(RANKING_API)
    second = api.get(RANKING_API, HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 304  # the tags stay
    assert api.get(RANKING_API).content == first.content


def test_an_anonymous_hit_is_answered_before_drf(api, ranked, monkeypatch,
                                                 django_assert_max_num_queries):  # fmt: skip
    from rankings.api import ranking

    number = ranked.players[0].licence_number
    paths = (RANKING_API + "?page_size=5", f"/api/pcn/ranking/players/{number}/")
    first = {path: api.get(path) for path in paths}

    def not_reached(*args, **kwargs):
        raise AssertionError("a stored answer reached DRF")

    monkeypatch.setattr(ranking.RankingView, "get", not_reached)
    monkeypatch.setattr(ranking.PlayerRankingView, "get", not_reached)
    for path in paths:
        with django_assert_max_num_queries(1):  # the version (READ_VERSION_MAX_AGE_MS = 0)
            again = api.get(path)
        assert again.status_code == 200
        assert again.content == first[path].content
        assert again["ETag"] == first[path]["ETag"]
        assert again["Content-Type"] == "application/json"


def test_a_signed_in_api_reader_is_built_for_and_stores_nothing(api, registry, ranked,
                                                                monkeypatch):  # fmt: skip
    """A signed-in reader (session or token) may be shown more than the public: their
    answer is built for them, never taken from nor left in the public entries."""
    from rankings.api import ranking

    built = []
    payload = ranking.RankingView._payload
    monkeypatch.setattr(ranking.RankingView, "_payload",
                        lambda self: built.append(1) or payload(self))  # fmt: skip
    api.get(RANKING_API)  # stored for anonymous readers
    api.force_login(registry.users["federation_staff"])  # a session cookie
    api.get(RANKING_API)
    api.get(RANKING_API)
    assert len(built) == 3
    api.logout()
    signed_out = api.get(RANKING_API)
    assert len(built) == 3  # the anonymous entry, unchanged
    assert signed_out.status_code == 200


def test_a_licence_number_searched_still_leads_to_the_player(client, ranked):
    number = ranked.players[0].licence_number
    for _ in range(2):
        answer = client.get("/classement/", {"q": str(number)})
        assert answer.status_code == 302
        assert answer["Location"].endswith(f"/joueur/{number}/")


def test_a_snapshot_id_that_is_not_ascii_digits_is_a_400(api, ranked):
    answer = api.get(RANKING_API, {"snapshot": "²"})
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["field"] == "snapshot"


def test_a_reader_keeps_their_csrf_cookie_on_a_stored_page(ranked):
    from django.test import Client

    reader = Client(enforce_csrf_checks=True)
    reader.get("/classement/")  # built; their cookie is set
    secret = reader.cookies["csrftoken"].value
    page = reader.get("/classement/")
    assert page.context is None  # stored
    assert page.cookies["csrftoken"].value == secret  # the same secret, sent again
    token = page.content.decode().split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    assert token != secret  # masked
    switched = reader.post("/i18n/setlang/", {"language": "en", "next": "/classement/",
                                              "csrfmiddlewaretoken": token})  # fmt: skip
    assert switched.status_code == 302


def test_live_versions_are_reused_for_a_moment(registry, ranked, settings, live_store_redis,
                                               monkeypatch, django_assert_num_queries):  # fmt: skip
    """With the live ranking in Redis, the memo holds the live token too: no round trip."""
    from rankings.season import live_store

    full_recompute(season=registry.season)  # into the store
    settings.READ_VERSION_MAX_AGE_MS = 60_000
    first = read_versions.ranking_version(registry.season.name, "live")
    assert first is not None
    monkeypatch.setattr(live_store, "read_meta", lambda season_id: 1 / 0)
    with django_assert_num_queries(0):
        assert read_versions.ranking_version(registry.season.name, "live") == first
    monkeypatch.undo()
    settings.READ_VERSION_MAX_AGE_MS = 0
    add_token = read_versions.ranking_version(registry.season.name, "live")
    assert add_token == first  # nothing changed: the same version read again


def test_random_extra_parameters_are_neither_misses_nor_new_entries(api, client, ranked):
    """Cache busting: a parameter no view reads changes nothing in the answer, so it is
    answered from the stored entry (not built, not stored again) and never echoed."""
    from django.core.cache import cache

    number = ranked.players[0].licence_number
    reads = [
        (api, RANKING_API, {"page_size": 5}),
        (api, f"/api/pcn/ranking/players/{number}/", {}),
        (client, "/classement/", {"page": 1}),
        (client, "/classement/comite/1/", {}),
        (client, "/classement/club/102/", {}),
        (client, f"/classement/joueur/{number}/", {}),
    ]
    for reader, path, params in reads:
        first = reader.get(path, params)
        assert first.status_code == 200, path
        keys = len(cache._cache) if hasattr(cache, "_cache") else None
        for n in range(3):
            again = reader.get(path, {**params, f"x{n}": f"cache-buster-{n}"})
            assert again.status_code == 200, path
            assert getattr(again, "context", None) is None, path  # not rendered again
            assert again["ETag"] == first["ETag"], path
            assert b"cache-buster" not in again.content
        head = reader.head(path, {**params, "x": "cache-buster"})  # HEAD: the GET's, no body
        assert (head.status_code, head["ETag"]) == (200, first["ETag"]), path
        assert getattr(head, "context", None) is None, path
        if keys is not None:  # local memory (the suite's default): no new entry
            assert len(cache._cache) == keys, path


def test_a_page_number_past_the_last_is_sent_to_the_last(client, ranked):
    for asked in ("999", "123456", "0", "-4"):
        response = client.get("/classement/", {"page": asked, "serie": "9", "q": ""})
        assert response.status_code == 302, asked
        assert response["Location"] == "/classement/?page=1", asked
    assert client.get("/classement/comite/1/?page=50")["Location"] == (
        "/classement/comite/1/?page=1"
    )


def test_the_ranking_api_declares_every_parameter_its_serializer_reads():
    from rankings.api.ranking import RankingQuery
    from rankings.urls import RANKING_PARAMS

    assert set(RANKING_PARAMS) == {*RankingQuery().fields, "format"}


def test_spellings_of_one_value_are_one_entry(api, client, ranked):
    """A value the view reads alike, however written (repeated, zero-padded, spaced), is
    the stored answer: the canonical query is what the view reads and the key."""
    first = api.get(RANKING_API + "?page_size=5&page=1")
    for query in ("page_size=05&page=01", "page=9&page=1&page_size=5", "page_size=%2B5&page=+1",
                  "page_size=5.0&q=&page=1", "page_size=5&q=%20%20&page=1"):  # fmt: skip
        again = api.get(f"{RANKING_API}?{query}")
        assert again["ETag"] == first["ETag"], query
    same = {
        "": ("page=abc", "page=&q=%20", "serie=x", "q=++&au="),
        "page=1": ("page=01", "page=%201", "page=x&page=1", "serie=x&page=1.0"),
    }
    for plain, spellings in same.items():
        page = client.get(f"/classement/?{plain}")
        assert page.status_code == 200
        for query in spellings:
            again = client.get(f"/classement/?{query}")
            assert again.context is None, query  # stored: not rendered again
            assert again["ETag"] == page["ETag"], query


def test_an_address_building_too_many_pages_gets_429(client, ranked, settings):
    """Pages nobody asked for yet (each a miss) count against the reader's address, as the
    API's anonymous reads do; pages already stored are not counted, and another address
    is not held back."""
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "pages_anon": "3/minute"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    for query in ("a", "b", "c"):
        assert client.get("/classement/", {"q": query}).status_code == 200
    refused = client.get("/classement/", {"q": "d"})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) >= 1
    assert "Trop de demandes" in refused.content.decode()
    assert "Trop de pages demandées depuis votre adresse" in refused.content.decode()
    english = client.get("/classement/", {"q": "d"}, HTTP_ACCEPT_LANGUAGE="en")
    assert "Too many pages asked from your address" in english.content.decode()
    assert client.get("/classement/", {"q": "a"}).status_code == 200  # stored: not counted
    other = client.get("/classement/", {"q": "d"}, REMOTE_ADDR="10.1.2.3")
    assert other.status_code == 200
