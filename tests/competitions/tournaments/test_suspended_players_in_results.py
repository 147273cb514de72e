"""Chapter 4: results naming a player suspended on the tournament's day are not refused
(the tournament took place) but carry a warning, stored with the revision, that the staff
desk shows; the registry is still read in one query."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from competitions.models import ResultRevision
from competitions.rules.results.json_format import read_json
from competitions.tournaments.submission import registry_lookup
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


def test_a_suspended_player_is_flagged_in_french(
    api, registry, declare_tournament, twelve_players, twelve_results
):
    # Player 5003 (entry 3) suspended over the tournament's day, 5 December 2026; 5005's
    # suspension ended the day before, 5007's starts the day after.
    suspend(registry, twelve_players[2], dt.date(2026, 6, 1), dt.date(2027, 5, 31))
    suspend(registry, twelve_players[4], dt.date(2025, 12, 5), dt.date(2026, 12, 4))
    suspend(registry, twelve_players[6], dt.date(2026, 12, 6), dt.date(2027, 12, 5))
    tournament = declare_tournament()
    response = api.post(
        f"/api/tournaments/{tournament.pk}/results/", twelve_results(), format="json"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["warnings"] == [
        {
            "field": "entries[2].players[0].licence_number",
            "code": "suspended_player_in_results",
            "message": "Licence 5003 (inscrit 3)\xa0: le joueur était suspendu le jour du tournoi, "
            "jusqu’au 2027-05-31 inclus\xa0; un joueur suspendu ne peut pas jouer.",
        }
    ]
    assert REASON not in response.content.decode()
    (revision,) = ResultRevision.objects.filter(tournament=tournament)
    assert [(w["code"], w["params"]["licence"]) for w in revision.warnings] == [
        ("suspended_player_in_results", 5003)
    ]


def test_the_staff_desk_shows_the_warning(client, registry, twelve_players, submitted):
    suspend(registry, twelve_players[0], dt.date(2026, 6, 1), dt.date(2027, 5, 31))
    tournament = submitted("Open suspendu")
    client.force_login(registry.users["federation_staff"])
    html = client.get(f"/bureau/homologation/{tournament.pk}/").content.decode()
    assert "le joueur était suspendu le jour du tournoi" in html


def test_the_registry_is_read_in_one_query(registry, twelve_players, twelve_results):
    for player in twelve_players[:3]:
        suspend(registry, player, dt.date(2026, 6, 1), dt.date(2027, 5, 31))
    # Two suspensions of one player overlap: the latest end is the one named.
    suspend(registry, twelve_players[0], dt.date(2026, 11, 1), dt.date(2027, 10, 31))
    document = read_json(twelve_results()).document_or_raise()
    with CaptureQueriesContext(connection) as queries:
        registered = registry_lookup(
            document=document, season_id=registry.season.pk, day=dt.date(2026, 12, 5)
        )
    assert len(queries) == 1
    assert registered.suspended_until == {
        5001: dt.date(2027, 10, 31),
        5002: dt.date(2027, 5, 31),
        5003: dt.date(2027, 5, 31),
    }
