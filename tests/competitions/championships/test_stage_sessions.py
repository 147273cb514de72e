"""A championship stage over two afternoons (chapter 3 art. 19, « 2 séances, sur 2
après-midi »): its sessions carry their own day, and a stage is an official championship,
which the season lets span days; never two places (chapter 5, « sur le même lieu »)."""

from __future__ import annotations

import pytest

from competitions.models import ChampionshipStage, DeclaredSession

pytestmark = pytest.mark.django_db


def create(as_user, championships, sessions, **more):
    return as_user("committee_staff").post(
        f"/api/championships/{championships['seniors']}/stages/",
        {
            "kind": "regional_final",
            "date": "2027-03-16",
            "venue": "Lyon",
            "arbiter_licence_number": 1002,
            "committee": 1,
            "sessions": sessions,
            **more,
        },
        format="json",
    )


def test_a_seniors_final_over_two_afternoons(as_user, championships, published):
    response = create(as_user, championships, [{"date": "2027-03-16"}, {"date": "2027-03-18"}])
    assert response.status_code == 201, response.json()
    stage = ChampionshipStage.objects.select_related("tournament").get(pk=response.json()["id"])
    assert stage.tournament.planned_sessions == 2
    assert list(
        DeclaredSession.objects.filter(tournament=stage.tournament).values_list("date", "venue")
    ) == [
        (stage.tournament.date, "Lyon"),
        (stage.tournament.date.replace(day=18), "Lyon"),
    ]


def test_a_stage_at_two_places_is_refused_on_the_session(as_user, championships, published):
    response = create(
        as_user,
        championships,
        [{"date": "2027-03-16"}, {"date": "2027-03-18", "venue": "Grenoble"}],
    )
    assert response.status_code == 400, response.json()
    errors = response.json()["errors"]
    assert [(e["field"], e["code"]) for e in errors] == [
        ("sessions[1].venue", "session_at_another_venue")
    ]
    assert "«\u00a0simultanément sur le même lieu\u00a0»" in errors[0]["message"]
    assert not ChampionshipStage.objects.exists()
