"""The official ranking's publication, whatever the path (API, desk, a direct call): one
publication of a season at a time, and none before the season's end unless the request
says why (the reason kept with who and when).

The races run on real connections: two API requests at once from two threads, each with
its own connection to PostgreSQL, the run then executed by a real Celery worker; a
publication held by another connection's lock."""

from __future__ import annotations

import datetime as dt
import threading

import psycopg
import pytest
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from core.problems import RuleViolation
from rankings.models import RankingKind, RankingSnapshot, RecomputeRun, RunStatus, SeasonRanking
from rankings.season.locks import PUBLICATION, SeasonBusy
from rankings.season.official_ranking import official_ranking_publish
from rankings.season.recompute import recompute_request, recompute_run

REASON = "Assemblée générale avancée au 15 décembre"


@pytest.fixture
def open_season(registry):
    """The registry's current season, which has not ended (today is in it, whatever the
    day the suite runs)."""
    season = registry.season
    season.end_date = max(season.end_date, timezone.localdate() + dt.timedelta(days=30))
    season.save(update_fields=["end_date"])
    return season


def _post_at_once(registry, body: dict, count: int = 2) -> list:
    """``count`` staff API requests sent at the same instant, each from its own thread
    (its own database connection)."""
    start = threading.Barrier(count)
    answers: list = [None] * count

    def send(i: int) -> None:
        try:
            client = APIClient()
            client.force_authenticate(registry.users["federation_staff"])
            start.wait()
            answers[i] = client.post("/api/pcn/recomputes/", body, format="json")
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return answers


@pytest.mark.django_db(transaction=True)
def test_two_publications_asked_at_once_publish_once(registry, celery_worker_process, wait_for):
    answers = _post_at_once(registry, {"season": registry.previous.name, "kind": "official"})
    assert sorted(a.status_code for a in answers) == [202, 409]
    [refused] = [a.json() for a in answers if a.status_code == 409]
    assert refused["errors"][0]["code"] == "run_under_way"
    assert refused["errors"][0]["message"].startswith("Un calcul de la saison 2025-2026")
    [run] = RecomputeRun.objects.filter(season=registry.previous)
    assert wait_for(lambda: RecomputeRun.objects.get(pk=run.pk).status == RunStatus.DONE, 60)
    official = RankingSnapshot.objects.filter(season=registry.previous, kind=RankingKind.OFFICIAL)
    assert official.count() == 1
    assert SeasonRanking.objects.get(season=registry.previous).official_id == official.get().pk
    # once it has ended, the season may be published again
    api = APIClient()
    api.force_authenticate(registry.users["federation_staff"])
    again = api.post("/api/pcn/recomputes/", {"season": "2025-2026", "kind": "official"})
    assert again.status_code == 202


@pytest.mark.django_db(transaction=True)
def test_a_publication_under_way_elsewhere_refuses_a_second_one(registry):
    """A second publication of the season while another connection holds the season's
    publication (a run reclaimed, the nightly job...) is refused at once: busy."""
    db = connection.settings_dict
    other = psycopg.connect(
        host=db["HOST"] or "127.0.0.1", port=db["PORT"] or 5432, user=db["USER"],
        password=db["PASSWORD"] or None, dbname=db["NAME"], autocommit=True,
    )  # fmt: skip
    try:
        other.execute("SELECT pg_advisory_lock(%s, %s)", [PUBLICATION, registry.previous.pk])
        with pytest.raises(SeasonBusy):
            official_ranking_publish(season=registry.previous)
        assert not RankingSnapshot.objects.filter(kind=RankingKind.OFFICIAL).exists()
        other.execute("SELECT pg_advisory_unlock(%s, %s)", [PUBLICATION, registry.previous.pk])
        assert official_ranking_publish(season=registry.previous).kind == RankingKind.OFFICIAL
    finally:
        other.close()


# --- before the season's end -------------------------------------------------------------


@pytest.mark.django_db
def test_the_api_refuses_an_early_publication_without_a_reason(api, registry, open_season):
    api.force_authenticate(registry.users["federation_staff"])
    refused = api.post("/api/pcn/recomputes/", {"season": open_season.name, "kind": "official"})
    assert refused.status_code == 400
    [error] = refused.json()["errors"]
    assert error["field"] == "before_season_end_reason"
    assert error["code"] == "season_not_ended"
    ends = f"{open_season.end_date:%d/%m/%Y}"
    assert error["message"].startswith(f"La saison 2026-2027 se termine le {ends}")
    blank = {"season": open_season.name, "kind": "official", "before_season_end_reason": "  "}
    assert api.post("/api/pcn/recomputes/", blank, format="json").status_code == 400
    assert not RecomputeRun.objects.exists()
    # a full recompute needs no reason
    full = api.post("/api/pcn/recomputes/", {"season": open_season.name, "kind": "full"})
    assert full.status_code == 202


@pytest.mark.django_db
def test_an_early_publication_with_its_reason_is_recorded_with_who_and_when(
    api, registry, open_season
):
    staff = registry.users["federation_staff"]
    api.force_authenticate(staff)
    body = {"season": open_season.name, "kind": "official", "before_season_end_reason": REASON}
    queued = api.post("/api/pcn/recomputes/", body, format="json")
    assert queued.status_code == 202, queued.json()
    assert queued.json()["before_season_end_reason"] == REASON
    run = recompute_run(run_id=queued.json()["id"])
    assert run.status == RunStatus.DONE, run.error
    snapshot = run.snapshot
    assert snapshot.kind == RankingKind.OFFICIAL
    assert snapshot.before_season_end_reason == REASON
    assert snapshot.computed_by == staff
    assert snapshot.computed_at is not None


@pytest.mark.django_db
def test_every_path_goes_through_the_same_refusal(client, registry, open_season):
    staff = registry.users["federation_staff"]
    with pytest.raises(RuleViolation) as direct:  # the service itself
        official_ranking_publish(season=open_season, by=staff)
    assert direct.value.problems[0].code == "season_not_ended"
    with pytest.raises(RuleViolation):
        recompute_request(season=open_season, kind="official", by=staff)
    run = RecomputeRun.objects.create(season=open_season, kind="official", requested_by=staff)
    assert recompute_run(run_id=run.pk).status == RunStatus.FAILED  # a run made otherwise
    assert not RankingSnapshot.objects.filter(kind=RankingKind.OFFICIAL).exists()
    run.delete()

    staff.is_superuser = True
    staff.save()
    client.force_login(staff)  # the desk: the refusal on its field, in French
    url = "/bureau/classement/lancer/official/"
    page = client.get(url, {"season": open_season.name}).content.decode()
    assert 'name="before_season_end_reason"' in page
    refused = client.post(url, {"season": open_season.name, "note": "AG"})
    assert refused.status_code == 400
    html = refused.content.decode()
    assert 'id="early-error"' in html
    assert f"se termine le {open_season.end_date:%d/%m/%Y}" in html
    assert not RecomputeRun.objects.exists()
    queued = client.post(url, {"season": open_season.name, "before_season_end_reason": REASON})
    assert queued.status_code == 302
    assert RecomputeRun.objects.get().before_season_end_reason == REASON
    # an ended season needs no reason: its field is not offered
    ended = client.get(url, {"season": registry.previous.name}).content.decode()
    assert 'name="before_season_end_reason"' not in ended
