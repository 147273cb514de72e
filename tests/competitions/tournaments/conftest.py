"""Fixtures of the club space's tests: twelve licensed players and their results."""

from __future__ import annotations

import pytest

TOTALS = [900, 700, 500, 300, 100, 50, 0, -50, -100, -300, -900, -1200]  # sums to 0


@pytest.fixture
def twelve_players(registry):
    """Players 5001…5012, licensed in club 101 this season."""
    from federation.models import Licence, Player

    players = []
    for i in range(12):
        player = Player.objects.create(
            licence_number=5001 + i, last_name=f"Joueur{i + 1}", first_name="Camille"
        )
        Licence.objects.create(player=player, season=registry.season, club=registry.clubs[101])
        players.append(player)
    return players


@pytest.fixture
def twelve_results():
    """A factory: the JSON results of the twelve players (3 tables, one session), in
    ranking order of ``totals``."""

    def results(totals=TOTALS):
        return {
            "format_version": 1,
            "sessions": [{"number": 1, "tables": 3, "tables_of_three": 0, "deals": 20}],
            "entries": [
                {
                    "number": i + 1,
                    "place": 1 + sum(1 for other in totals if other > total),
                    "total": total,
                    "players": [{"licence_number": 5001 + i, "name": f"Joueur{i + 1} Camille"}],
                }
                for i, total in enumerate(totals)
            ],
        }

    return results


@pytest.fixture
def submitted_tournament(api, declare_tournament, twelve_players, twelve_results):
    """Club 101's "Open de Lyon", its twelve results sent through the API."""
    tournament = declare_tournament()
    response = api.post(
        f"/api/tournaments/{tournament.pk}/results/", twelve_results(), format="json"
    )
    assert response.status_code == 201, response.json()
    return tournament


@pytest.fixture
def submitted(registry, twelve_players, twelve_results):
    """A factory: a tournament of ``club`` (a number of the registry) declared, and its
    results (``document``, else the twelve players') sent by federation staff through
    the submission service (the staff desk's and the admin's tests)."""
    import datetime as dt

    from competitions.homologation import results_submit
    from competitions.models import Tournament

    def submit(name: str, club: int = 101, *, day: int = 5, document=None) -> Tournament:
        tournament = Tournament.objects.create(
            season=registry.season, name=name, date=dt.date(2026, 12, day), venue="Salle",
            format="individual", organizer_kind="club", organizer_club=registry.clubs[club],
            arbiter=registry.players[1002],
        )  # fmt: skip
        results_submit(
            tournament=tournament,
            content=document or twelve_results(),
            source="json",
            by=registry.users["federation_staff"],
        )
        tournament.refresh_from_db()
        return tournament

    return submit
