"""Chapter 4: a player suspended on a regional final's day is refused at entry, in French
by default, naming the end of the suspension and never its reason."""

from __future__ import annotations

import datetime as dt

import pytest

from competitions.models import ChampionshipEntry
from federation.models import SanctionKind
from federation.sanctions import sanction_record

pytestmark = pytest.mark.django_db

REASON = "A quitté le tournoi du 3 octobre sans l'accord de l'arbitre."


def suspend(registry, player, starts, ends):
    sanction_record(
        player=player,
        kind=SanctionKind.SUSPENSION,
        starts=starts,
        ends=ends,
        reason=REASON,
        by=registry.users["federation_staff"],
    )


def test_a_suspended_player_is_refused_in_french(api, registry, as_user, finals, new_player):
    player = new_player(102)
    # The individual regional final is on 13 March 2027: suspended until that very day.
    suspend(registry, player, dt.date(2026, 3, 14), dt.date(2027, 3, 13))
    response = as_user("committee_staff").post(
        f"/api/championships/stages/{finals['individual']}/entries/",
        {"licence_numbers": [player.licence_number]},
        format="json",
    )
    assert response.status_code == 400, response.json()
    n = player.licence_number
    assert response.json()["errors"] == [
        {
            "field": "entries[0].licence_numbers[0]",
            "code": "player_suspended",
            "message": f"Licence {n}\xa0: le joueur est suspendu jusqu’au 2027-03-13 inclus\xa0; "
            "un joueur suspendu ne peut pas participer le 2027-03-13.",
        }
    ]
    assert REASON not in response.content.decode()
    assert not ChampionshipEntry.objects.exists()


def test_a_suspension_over_before_the_stage_does_not_refuse(
    api, registry, as_user, finals, new_player
):
    player = new_player(102)
    suspend(registry, player, dt.date(2026, 3, 13), dt.date(2027, 3, 12))
    response = as_user("committee_staff").post(
        f"/api/championships/stages/{finals['individual']}/entries/",
        {"licence_numbers": [player.licence_number]},
        format="json",
    )
    assert response.status_code == 201, response.json()
