"""``GET /api/pcn/ranking/?as_of=…``: the ranking as it stood at the end of a past day,
with the ranking's filters and pages; a bad or out-of-season day is a 400 naming
``as_of``. Places checked by hand against the tournaments homologated by then."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
import redis
from django.db import connection, connections, transaction

from config.celery import app as celery_app
from core.models import OutboxMessage
from core.tasks import send_on_commit
from federation.models import Season
from rankings.models import AsOfAsk
from rankings.season.as_of import PARIS
from rankings.season.locks import AS_OF
from rankings.season.recompute import full_recompute

pytestmark = pytest.mark.django_db


def _paris(day: str, hour: int = 12) -> dt.datetime:
    return dt.datetime.combine(dt.date.fromisoformat(day), dt.time(hour), tzinfo=PARIS)


@pytest.fixture
def dated(registry, federation, add_tournament):
    """No carry-over (no official ranking before): a player's total is their season's
    points. Homologated on 10 August and 20 September (played on 1 August: it counts
    from its homologation, not from its date)."""
    p = federation.players
    add_tournament(registry.season, {p[0]: (300, 0), p[1]: (200, 0), p[6]: (100, 0)},
                   club=registry.clubs[101], arbiter=p[20],
                   homologated_at=_paris("2026-08-10"))  # fmt: skip
    late = add_tournament(registry.season, {p[1]: (500, 2), p[7]: (50, 0)},
                          club=registry.clubs[201], arbiter=p[20],
                          homologated_at=_paris("2026-09-20", 23))  # fmt: skip
    late.date = dt.date(2026, 8, 1)
    late.save(update_fields=["date"])
    full_recompute(season=registry.season)
    return federation


def _line(body, licence: int) -> dict:
    return next(r for r in body["results"] if r["licence_number"] == licence)


def test_the_ranking_as_of_a_day_places_players_by_what_was_homologated(
    api, dated, django_assert_max_num_queries
):
    p = dated.players
    with django_assert_max_num_queries(26):  # key, computed and stored: a fixed count
        body = api.get("/api/pcn/ranking/?as_of=2026-09-15&page_size=200").json()
    assert body["snapshot"]["kind"] == "as_of"
    assert body["snapshot"]["as_of"] == "2026-09-15"
    assert body["count"] == 25
    # by hand: 300, 200, 100, then everyone at 0 (shared place 4)
    first = _line(body, p[0].licence_number)
    assert (first["place"], first["total_pcn"]) == (1, 300)
    assert _line(body, p[1].licence_number)["place"] == 2
    assert _line(body, p[6].licence_number)["place"] == 3
    assert _line(body, p[7].licence_number)["place"] == 4
    assert _line(body, p[7].licence_number)["tournaments"] == 0
    # homologated at 23:00 in Paris on the 20th: counts at the end of the 20th
    after = api.get("/api/pcn/ranking/?as_of=2026-09-20&page_size=200").json()
    line = _line(after, p[1].licence_number)
    assert (line["place"], line["total_pcn"], line["total_pp"], line["tournaments"]) == (
        1,
        700,
        2,
        2,
    )
    assert _line(after, p[0].licence_number)["place"] == 2
    before = api.get("/api/pcn/ranking/?as_of=2026-08-09").json()
    assert {r["total_pcn"] for r in before["results"]} == {0}
    # a second read of the same day: the stored snapshot, no computation
    with django_assert_max_num_queries(8):
        again = api.get("/api/pcn/ranking/?as_of=2026-09-15&page_size=200&committee=1").json()
    assert {r["committee"] for r in again["results"]} == {1}


def test_pages_and_filters_of_a_ranking_as_of_a_day(api, dated):
    page = api.get("/api/pcn/ranking/?as_of=2026-09-15&page_size=10&page=3").json()
    assert (page["count"], page["pages"], len(page["results"])) == (25, 3, 5)
    club = api.get("/api/pcn/ranking/?as_of=2026-09-15&club=101").json()
    assert {r["club"] for r in club["results"]} == {101}
    assert club["results"][0]["place_in_club"] == 1
    assert club["count"] == len(club["results"])
    series = api.get("/api/pcn/ranking/?as_of=2026-09-15&series=4").json()
    assert {r["series"] for r in series["results"]} == {4}
    found = api.get("/api/pcn/ranking/", {"as_of": "2026-09-15", "q": "joueur00"}).json()
    assert [r["licence_number"] for r in found["results"]] == [3001]
    assert api.get("/api/pcn/ranking/?as_of=2026-09-15&club=999").status_code == 404


@pytest.mark.parametrize(
    ("value", "field", "code"),
    [
        ("2026-13-01", "as_of", "invalid"),
        ("15/09/2026", "as_of", "invalid"),
        ("", "as_of", "invalid"),
        ("2026-06-30", "as_of", "as_of_outside_season"),  # the previous season's last day
        ("2099-01-01", "as_of", "as_of_in_future"),
    ],
)
def test_a_bad_day_is_a_400_naming_as_of(api, dated, value, field, code):
    response = api.get("/api/pcn/ranking/", {"as_of": value})
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert (error["field"], error["code"]) == (field, code)
    assert error["message"]


def test_today_is_refused_and_kind_does_not_combine(api, dated):
    today = dt.datetime.now(PARIS).date().isoformat()
    assert api.get("/api/pcn/ranking/", {"as_of": today}).json()["errors"][0]["code"] == (
        "as_of_in_future"
    )
    response = api.get("/api/pcn/ranking/?as_of=2026-09-15&kind=official")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "kind"


def test_as_of_snapshots_are_not_listed_nor_read_by_id(api, dated):
    body = api.get("/api/pcn/ranking/?as_of=2026-09-15").json()
    snapshots = api.get("/api/pcn/ranking/snapshots/").json()
    assert body["snapshot"]["id"] not in [s["id"] for s in snapshots]
    assert api.get(f"/api/pcn/ranking/?snapshot={body['snapshot']['id']}").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_a_first_read_with_a_broker_is_a_202_then_the_worker_stores_it(
    celery_worker_process, api, client, dated, wait_for
):
    """With workers, a web process never computes a day: the first read answers 202 with
    Retry-After (the page too, reloading itself), a worker computes it, and a later read
    is the ranking."""
    first = api.get("/api/pcn/ranking/?as_of=2026-09-15")
    assert first.status_code == 202
    assert first["Retry-After"] == "15"
    assert first.json() == {"status": "computing", "as_of": "2026-09-15", "retry_after": 15}
    page = client.get("/classement/?au=2026-09-15")
    assert page.status_code == 202
    assert 'http-equiv="refresh"' in page.content.decode()
    assert "en cours de calcul" in page.content.decode()

    def stored():
        response = api.get("/api/pcn/ranking/?as_of=2026-09-15")
        return response if response.status_code == 200 else None

    body = wait_for(stored, timeout=60).json()
    assert _line(body, dated.players[0].licence_number)["place"] == 1
    assert client.get("/classement/?au=2026-09-15").status_code == 200


# Anonymous readers asking many days: bounded, and never in the way of a homologation ------


class AsOfLockHolder:
    """The season's as-of computation lock held by another thread (its own connection)
    until released: a worker computing a day of the season waits for it."""

    def __init__(self, season_id: int) -> None:
        self.held, self.release = threading.Event(), threading.Event()
        self.thread = threading.Thread(target=self._hold, args=(season_id,), daemon=True)
        self.thread.start()
        assert self.held.wait(30)

    def _hold(self, season_id: int) -> None:
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [AS_OF, season_id])
                self.held.set()
                self.release.wait(120)
        finally:
            connections.close_all()

    def stop(self) -> None:
        self.release.set()
        self.thread.join(30)


def _asof_messages(prefix: str) -> int:
    """The ``rankings.as_of_days`` messages in Redis: queued in any of this run's queues, or
    taken and unacknowledged."""
    client = redis.Redis.from_url(celery_app.conf.broker_url)
    raw = list(client.hvals("unacked"))
    for key in client.keys(f"{prefix}*"):  # this run's queues
        if client.type(key) == b"list":
            raw += client.lrange(key, 0, -1)
    return sum(b'"rankings.as_of_days"' in item for item in raw)


DAYS = [dt.date(2026, 8, 1) + dt.timedelta(days=3 * n) for n in range(12)]


@pytest.mark.django_db(transaction=True)
def test_anonymous_readers_of_unstored_days_never_queue_more_than_the_bound(
    celery_worker_process, api, client, dated, wait_for, settings
):
    """Twelve anonymous requests for twelve days (the API and the page's ``au``), the
    worker stuck on the first: AS_OF_QUEUED_MAX days are queued, the others answered 503
    with Retry-After and nothing queued; asking a queued day again queues nothing; once
    the worker has stored them, a new day is queued again."""
    bound = settings.AS_OF_QUEUED_MAX
    assert bound == 2  # the default
    holder = AsOfLockHolder(Season.objects.get(name="2026-2027").pk)
    try:
        answers = []
        for n, day in enumerate(DAYS):
            if n % 2:
                answers.append(client.get(f"/classement/?au={day.isoformat()}"))
            else:
                answers.append(api.get(f"/api/pcn/ranking/?as_of={day.isoformat()}"))
        statuses = [a.status_code for a in answers]
        assert statuses == [202] * bound + [503] * (len(DAYS) - bound)
        refused = answers[-2]  # the API's
        assert refused["Retry-After"] == "60"
        error = refused.json()["errors"][0]
        assert (error["field"], error["code"]) == ("as_of", "as_of_queue_full")
        assert "sont déjà en cours de calcul" in error["message"]
        assert "déjà en cours de calcul" in answers[-1].content.decode()  # the page's
        asked = OutboxMessage.objects.filter(task="rankings.as_of_days")
        assert asked.count() == bound
        assert AsOfAsk.objects.count() == bound
        assert api.get(f"/api/pcn/ranking/?as_of={DAYS[0].isoformat()}").status_code == 202
        assert asked.count() == bound  # a queued day asked again: nothing more
        assert wait_for(lambda: _asof_messages(celery_worker_process.prefix) == bound)
    finally:
        holder.stop()

    def stored(day):
        return api.get(f"/api/pcn/ranking/?as_of={day.isoformat()}").status_code == 200

    assert wait_for(lambda: all(stored(day) for day in DAYS[:bound]), timeout=60)
    assert wait_for(lambda: not AsOfAsk.objects.exists())  # the worker's done with them
    assert api.get(f"/api/pcn/ranking/?as_of={DAYS[-1].isoformat()}").status_code == 202
    assert OutboxMessage.objects.filter(task="rankings.as_of_days").count() == bound + 1


@pytest.mark.django_db(transaction=True)
def test_a_homologation_never_waits_behind_the_rankings_as_of_a_day(
    celery_broker, start_worker, api, registry, dated, add_tournament, wait_for
):
    """One worker per queue kind, as deployed: the as-of worker stuck on a day of the
    season, a homologation's refresh (``rankings.refresh_season_totals``, as the
    homologation sends it) still reaches the live ranking."""
    from django.conf import settings

    start_worker("asof", ("asof",))
    own = settings.CELERY_QUEUE_PREFIX
    others = tuple(q[len(own) :] for q in settings.CELERY_QUEUES_BY_KIND if q != own + "asof")
    start_worker("others", others)
    season = Season.objects.get(name="2026-2027")
    holder = AsOfLockHolder(season.pk)
    try:
        for day in DAYS[:2]:
            assert api.get(f"/api/pcn/ranking/?as_of={day.isoformat()}").status_code == 202
        assert wait_for(lambda: _asof_messages(celery_broker) == 2)
        p = dated.players
        winner = p[9]
        add_tournament(season, {winner: (5000, 0)}, club=registry.clubs[101], arbiter=p[20])
        with transaction.atomic():
            send_on_commit("rankings.refresh_season_totals", season.pk, [winner.pk])

        def first():
            body = api.get("/api/pcn/ranking/?page_size=1").json()
            return body["results"][0]["licence_number"] == winner.licence_number

        assert wait_for(first, timeout=60)
        assert _asof_messages(celery_broker) == 2  # the as-of worker is still stuck
    finally:
        holder.stop()
