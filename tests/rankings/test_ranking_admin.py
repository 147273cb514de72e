"""Admin of the rankings (and of the allocations and rulebooks it reads, in the competitions'
admin): read-only rulebooks, allocations and snapshots; policies, placements and recompute
runs written through their services."""

from __future__ import annotations

import json

import pytest

from rankings.models import (
    ManualPlacement,
    RankingSnapshot,
    RecomputeRun,
    RunStatus,
    SeriesPolicyVersion,
)
from rankings.official_ranking import official_ranking_publish
from rankings.recompute import full_recompute
from rankings.rules.series import SeriesPolicy

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client, registry, federation, add_tournament):
    registry.users["federation_staff"].is_superuser = True
    registry.users["federation_staff"].save()
    client.force_login(registry.users["federation_staff"])
    p = federation.players
    add_tournament(registry.previous, {p[0]: (300, 1), p[1]: (200, 0)}, club=registry.clubs[101],
                   arbiter=p[2])  # fmt: skip
    official_ranking_publish(season=registry.previous)
    full_recompute(season=registry.season)
    return client


@pytest.mark.parametrize(
    "model",
    ["competitions/rulebookversion", "competitions/allocation", "rankings/seriespolicyversion",
     "rankings/manualplacement", "rankings/rankingsnapshot", "rankings/seasonranking",
     "rankings/recomputerun"],
)  # fmt: skip
def test_lists_render_in_few_queries(admin_client, model, django_assert_max_num_queries):
    with django_assert_max_num_queries(12):
        response = admin_client.get(f"/admin/{model}/")
    assert response.status_code == 200


def test_allocations_search_by_licence_and_filter_by_tournament(admin_client):
    from competitions.models import Allocation

    allocation = Allocation.objects.select_related("player").first()
    response = admin_client.get(
        "/admin/competitions/allocation/",
        {"q": allocation.player.licence_number, "tournament": allocation.tournament_id},
    )
    assert response.status_code == 200
    assert list(response.context["cl"].result_list) == [allocation]


def test_snapshots_cannot_be_changed_or_deleted(admin_client):
    snapshot = RankingSnapshot.objects.filter(kind="official").first()
    page = admin_client.get(f"/admin/rankings/rankingsnapshot/{snapshot.pk}/change/")
    assert page.status_code == 200
    assert b'name="_save"' not in page.content
    assert admin_client.post(f"/admin/rankings/rankingsnapshot/{snapshot.pk}/delete/",
                             {"post": "yes"}).status_code == 403  # fmt: skip
    assert RankingSnapshot.objects.filter(pk=snapshot.pk).exists()


def test_request_a_recompute_from_the_admin(
    admin_client, registry, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            "/admin/rankings/recomputerun/add/",
            {"season": registry.season.pk, "kind": "full", "note": "à la demande"},
        )
    assert response.status_code == 302
    run = RecomputeRun.objects.get(note="à la demande")
    assert run.status == RunStatus.DONE
    assert run.requested_by == registry.users["federation_staff"]
    listing = admin_client.get("/admin/rankings/recomputerun/").content.decode()
    assert "<progress" in listing


def test_publish_a_policy_from_the_admin(admin_client, registry):
    bad = SeriesPolicy.default().to_dict() | {"entry_step": "9Z"}
    response = admin_client.post(
        "/admin/rankings/seriespolicyversion/add/",
        {"season": registry.season.pk, "data": json.dumps(bad), "note": "essai"},
    )
    assert response.status_code == 200  # the form again, with the problem
    assert "entry_step" in response.content.decode()
    good = SeriesPolicy.default().to_dict() | {"max_demotion_steps": 2}
    response = admin_client.post(
        "/admin/rankings/seriespolicyversion/add/",
        {"season": registry.season.pk, "data": json.dumps(good), "note": "descente de 2"},
    )
    assert response.status_code == 302
    latest = SeriesPolicyVersion.objects.filter(season=registry.season).order_by("-version")[0]
    assert (latest.version, latest.data["max_demotion_steps"]) == (2, 2)


def test_manual_placement_from_the_admin(admin_client, registry):
    response = admin_client.post(
        "/admin/rankings/manualplacement/add/",
        {"season": registry.season.pk, "licence_number": 1003, "step": "1T", "reason": ""},
    )
    assert response.status_code == 200
    assert not ManualPlacement.objects.exists()
    response = admin_client.post(
        "/admin/rankings/manualplacement/add/",
        {"season": registry.season.pk, "licence_number": 1003, "step": "1T",
         "reason": "Retour d'un joueur classé à l'étranger"},
    )  # fmt: skip
    assert response.status_code == 302
    placement = ManualPlacement.objects.get()
    assert (placement.player.licence_number, placement.step) == (1003, "1T")
    assert placement.history.count() == 1
