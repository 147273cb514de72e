"""A championship stage's homologation guards the revision the staff member reviewed,
like a tournament's: a newer revision submitted in between is a 409."""

import pytest

from competitions.models import Allocation, Tournament
from tests.competitions.championships.results_documents import results

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(api):
    """These tests read the refusals' English developer text (French is the default)."""
    api.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"


def test_stage_homologation_of_a_stale_revision_is_409(api, as_user, finals, enter_all, players):
    stage = finals["individual"]
    tournament_id = (
        as_user("committee_staff")
        .get(f"/api/championships/stages/{stage}/")
        .json()["tournament"]["id"]
    )
    entered = players(24, 101)
    enter_all(api, stage, [[n] for n in entered])
    url = f"/api/tournaments/{tournament_id}/results/"
    assert api.post(url, results([[n] for n in entered]), format="json").status_code == 201
    swapped = [[n] for n in entered[1::-1] + entered[2:]]  # the first two places swapped
    assert api.post(url, results(swapped), format="json").status_code == 201
    homologate = f"/api/tournaments/{tournament_id}/homologate/"
    stale = api.post(homologate, {"revision": 1}, format="json")
    assert stale.status_code == 409, stale.json()
    assert stale.json()["errors"][0]["code"] == "stale_revision"
    assert "Revision 1" in stale.json()["errors"][0]["message"]
    assert "latest revision is 2" in stale.json()["errors"][0]["message"]
    assert Tournament.objects.get(pk=tournament_id).status == "results_submitted"
    assert not Allocation.objects.filter(tournament_id=tournament_id).exists()
    done = api.post(homologate, {"revision": 2}, format="json")
    assert done.status_code == 200, done.json()
    assert done.json()["status"] == "homologated"
