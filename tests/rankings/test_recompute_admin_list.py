"""The admin's list of recompute runs shows the real phase and players, reloads itself
while a run is under way, and the rankings' published rows stay read-only."""

from __future__ import annotations

import pytest

from competitions.models import Allocation
from rankings.models import SeriesPolicyVersion
from rankings.season.official_ranking import official_ranking_publish
from rankings.season.progress import Progress
from rankings.season.recompute import recompute_request, recompute_run

pytestmark = pytest.mark.django_db

RUNS = "/admin/rankings/recomputerun/"


@pytest.fixture
def admin_client(client, registry, federation, add_tournament):
    staff = registry.users["federation_staff"]
    staff.is_superuser = True
    staff.save()
    client.force_login(staff)
    p = federation.players
    add_tournament(registry.season, {p[i]: (300 - 10 * i, 0) for i in range(10)},
                   club=registry.clubs[101], arbiter=p[20])  # fmt: skip
    return client


def test_a_finished_run_shows_done_and_its_players(admin_client, registry):
    run = recompute_request(season=registry.season, kind="official",
                            by=registry.users["federation_staff"], early_reason="AG")  # fmt: skip
    recompute_run(run_id=run.pk)
    run.refresh_from_db()
    html = admin_client.get(RUNS).content.decode()
    assert "terminé" in html
    assert f'<td class="field-players_ranked">{run.snapshot.player_count}</td>' in html
    assert run.snapshot.player_count > 0
    assert "data-run-live" not in html


def test_a_full_recompute_shows_the_players_of_its_snapshot(admin_client, registry):
    run = recompute_request(season=registry.season, kind="full",
                            by=registry.users["federation_staff"])  # fmt: skip
    recompute_run(run_id=run.pk)
    run.refresh_from_db()
    assert run.players == 0  # the service counts players only when publishing
    html = admin_client.get(RUNS).content.decode()
    assert f'<td class="field-players_ranked">{run.snapshot.player_count}</td>' in html


def test_a_running_run_shows_its_phase_in_words_and_the_list_reloads(admin_client, registry):
    run = recompute_request(season=registry.season, kind="full",
                            by=registry.users["federation_staff"])  # fmt: skip
    Progress(run, total=2).phase("standings")
    html = admin_client.get(RUNS).content.decode()
    assert "<span data-run-live>totaux de la saison et situation des joueurs</span>" in html
    assert "rankings/admin_runs_refresh.js" in html


def test_published_rows_are_read_only(admin_client, registry):
    snapshot = official_ranking_publish(season=registry.season, early_reason="AG")
    allocation = Allocation.objects.first()
    for url in [
        f"/admin/competitions/allocation/{allocation.pk}/change/",
        f"/admin/rankings/rankingsnapshot/{snapshot.pk}/change/",
        f"/admin/rankings/seriespolicyversion/{SeriesPolicyVersion.objects.get().pk}/change/",
    ]:
        assert admin_client.post(url, {"pcn": 9999, "note": "x"}).status_code == 403, url
    allocation.refresh_from_db()
    assert allocation.pcn != 9999
