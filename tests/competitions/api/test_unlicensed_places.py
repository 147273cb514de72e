"""The season's choice for an entry without a licensed player (docs/rulebook-settings.md):
its place keeps its points (default) or they pass to the next entries."""

from __future__ import annotations

import pytest

from competitions.models import Allocation
from competitions.rulebooks import rulebook_in_force, rulebook_update
from tests.competitions.api.test_results_homologation import TOTALS, individual, players

pytestmark = pytest.mark.django_db
__all__ = ["players"]  # the fixture, used by name


@pytest.fixture
def tournament(declare_tournament):
    return declare_tournament()


def points_after_homologation(api, registry, tournament, document):
    submitted = api.post(f"/api/tournaments/{tournament.pk}/results/", document, format="json")
    assert submitted.status_code == 201, submitted.json()
    api.force_authenticate(registry.users["committee_staff"])
    assert api.post(f"/api/tournaments/{tournament.pk}/homologate/").status_code == 200
    return dict(
        Allocation.objects.filter(tournament=tournament).values_list(
            "player__licence_number", "pcn"
        )
    )


def unlicensed_first():
    """The non-licensee (5012 has no licence this season) wins the tournament."""
    document = individual(TOTALS)
    first, last = document["entries"][0]["players"][0], document["entries"][11]["players"][0]
    first["licence_number"], first["name"] = 5012, "Joueur 12"
    last["licence_number"], last["name"] = 5001, "Joueur 1"
    return document


def test_by_default_the_unlicensed_winners_points_go_to_nobody(api, registry, players, tournament):
    points = points_after_homologation(api, registry, tournament, unlicensed_first())
    assert points[5002] == 82  # 2nd place's value: the 120 of the 1st are given to nobody
    assert 5012 not in points


def test_the_federation_may_pass_them_to_the_next_players(api, registry, players, tournament):
    season = tournament.season
    data = rulebook_in_force(season=season)[1].to_dict()
    data["awards"]["unlicensed_places"] = "pass_to_next"
    rulebook_update(season=season, data=data, by=registry.users["federation_staff"])
    api.force_authenticate(registry.users["club_manager"])
    points = points_after_homologation(api, registry, tournament, unlicensed_first())
    assert (points[5002], points[5003], points[5004]) == (120, 82, 57)
    assert points[5001] == 0  # last: no right to points
    # still half of the 12 players who took part have a right: places 1–6 of the others
    assert sorted(points.values(), reverse=True)[:7] == [120, 82, 57, 50, 50, 50, 0]
