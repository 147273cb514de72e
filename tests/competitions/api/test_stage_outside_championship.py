"""A championship stage's index, cap and qualification come only through a stage of a
championship (fasc. 1040, « Les épreuves se déroulant sans son aval sont nulles »): a
tournament declared by itself at a stage kind is refused, and an existing row of that
kind that no championship stage plays is never homologated."""

from __future__ import annotations

import pytest

from competitions.models import Allocation, Tournament
from tests.competitions.api.test_results_homologation import (  # noqa: F401 (fixture)
    TOTALS,
    individual,
    players,
    submit,
)
from tests.competitions.api.test_tournament_declaration import URL, as_role, declaration

pytestmark = pytest.mark.django_db

STAGES = ["regional_stage", "regional_semi_final", "regional_final", "national_qualifier",
          "national_final"]  # fmt: skip


@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize(
    ("role", "organiser"),
    [
        ("club_manager", {}),
        ("committee_staff", {}),  # a club as organiser
        ("committee_staff", {"organizer_kind": "committee", "organizer_number": 1}),
        ("federation_staff", {"organizer_kind": "federation", "organizer_number": None}),
    ],
)
def test_a_stage_kind_declared_outside_a_championship_is_a_located_400(
    api, registry, stage, role, organiser
):
    response = as_role(api, registry, role).post(
        URL, declaration(stage=stage, **organiser), format="json"
    )
    assert response.status_code == 400, response.json()
    errors = response.json()["errors"]
    assert [(e["field"], e["code"]) for e in errors] == [("stage", "stage_outside_a_championship")]
    assert "Un tournoi déclaré seul est un tournoi ordinaire" in errors[0]["message"]
    assert not Tournament.objects.exists()


def test_an_ordinary_tournament_is_still_declared(api, registry):
    response = as_role(api, registry, "committee_staff").post(
        URL, declaration(stage="ordinary"), format="json"
    )
    assert response.status_code == 201, response.json()


@pytest.fixture
def stray_final(request, declare_tournament, api):
    """A tournament with submitted results whose row says regional final, though no
    championship stage plays it (a row from before the declaration refused it)."""
    request.getfixturevalue("players")  # twelve players licensed in club 101
    tournament = declare_tournament()
    assert submit(api, tournament, individual(TOTALS)).status_code == 201
    Tournament.objects.filter(pk=tournament.pk).update(stage="regional_final")
    return tournament


def test_the_door_never_homologates_a_stage_without_a_championship(api, registry, stray_final):
    api.force_authenticate(registry.users["committee_staff"])
    response = api.post(f"/api/tournaments/{stray_final.pk}/homologate/")
    assert response.status_code == 400, response.json()
    assert ("stage", "stage_without_championship") in {
        (e["field"], e["code"]) for e in response.json()["errors"]
    }
    assert Tournament.objects.get(pk=stray_final.pk).status == "results_submitted"
    assert not Allocation.objects.filter(tournament=stray_final).exists()


def test_the_door_takes_no_new_results_for_a_stage_without_a_championship(
    api, registry, stray_final
):
    api.force_authenticate(registry.users["committee_staff"])
    document = individual(TOTALS)
    document["entries"][0]["players"][0]["name"] = "Joueur Un"
    response = submit(api, stray_final, document)
    assert response.status_code == 400, response.json()
    assert response.json()["errors"][0]["code"] == "stage_without_championship"
