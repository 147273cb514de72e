"""A championship stage submitted or homologated through the generic tournament
endpoints gets the championship's checks too (it cannot skip them)."""

import pytest

from tests.competitions.championships.results_documents import results

pytestmark = pytest.mark.django_db


def test_generic_results_endpoint_applies_the_stage_checks(
    api, registry, as_user, finals, enter_all, players
):
    stage = finals["individual"]
    tournament = as_user("committee_staff").get(f"/api/championships/stages/{stage}/").json()
    tournament_id = tournament["tournament"]["id"]
    entered = players(24, 101)
    enter_all(api, stage, [[n] for n in entered])
    intruder = players(1, 101)  # licensed, but never entered in the stage
    document = results([[n] for n in entered[:-1] + intruder])
    response = api.post(f"/api/tournaments/{tournament_id}/results/", document, format="json")
    assert response.status_code == 400, response.json()
    assert any(str(intruder[0]) in e["message"] for e in response.json()["errors"])
    good = api.post(f"/api/tournaments/{tournament_id}/results/", results([[n] for n in entered]),
                    format="json")  # fmt: skip
    assert good.status_code == 201, good.json()
    homologated = api.post(f"/api/tournaments/{tournament_id}/homologate/")
    assert homologated.status_code == 200, homologated.json()
    assert homologated.json()["status"] == "homologated"
