"""Fixtures of the public tournament pages: a season with one tournament of each public
status, results sent and homologated (or refused) through the services."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import pytest

TOTALS = [900, 700, 500, 300, 100, 50, 0, -50, -100, -300, -900, -1200]  # sums to 0


@dataclass
class PublicSeason:
    registry: Any
    homologated: Any  # club 101's, twelve players (one without a licence), homologated
    refused: Any  # club 102's, results refused
    submitted: Any  # club 201's, results awaiting homologation
    upcoming: Any  # committee 2's, declared, in the future
    zone: Any  # zone 1's, declared


def _results(first_licence: int) -> dict:
    entries = []
    for i, total in enumerate(TOTALS):
        player: dict[str, Any] = {
            "licence_number": first_licence + i,
            "name": f"Joueur{i + 1} Camille",
        }
        if i == 11:
            player = {"licence_number": None, "name": "Invité Paul"}
        entries.append({"number": i + 1, "place": i + 1, "total": total, "players": [player]})
    return {
        "format_version": 1,
        "sessions": [{"number": 1, "tables": 3, "tables_of_three": 0, "deals": 20}],
        "entries": entries,
    }


@pytest.fixture
def public_season(registry) -> PublicSeason:
    from competitions.homologation import results_submit, tournament_homologate, tournament_refuse
    from competitions.models import Tournament
    from federation.models import Licence, Player

    for i in range(11):
        player = Player.objects.create(
            licence_number=5001 + i, last_name=f"Joueur{i + 1}", first_name="Camille",
            email=f"joueur{i}@example.org", phone="0600000000", birth_date=dt.date(1970, 1, 1),
        )  # fmt: skip
        Licence.objects.create(player=player, season=registry.season, club=registry.clubs[101])
    staff = registry.users["federation_staff"]

    def declare(name, day, **organiser):
        return Tournament.objects.create(
            season=registry.season, name=name, date=day, venue="Salle des fêtes",
            format="individual", arbiter=registry.players[1002], **organiser,
        )  # fmt: skip

    homologated = declare("Open de Lyon", dt.date(2026, 11, 7), organizer_kind="club",
                          organizer_club=registry.clubs[101])  # fmt: skip
    results_submit(tournament=homologated, content=_results(5001), source="json", by=staff)
    homologated = tournament_homologate(tournament=homologated, by=staff)
    refused = declare("Tournoi refusé de Grenoble", dt.date(2026, 11, 14), organizer_kind="club",
                      organizer_club=registry.clubs[102])  # fmt: skip
    results_submit(tournament=refused, content=_results(5001), source="json", by=staff)
    refused = tournament_refuse(tournament=refused, reasons=["Arbitre absent"], by=staff)
    submitted = declare("Tournoi de Rennes", dt.date(2026, 11, 21), organizer_kind="club",
                        organizer_club=registry.clubs[201])  # fmt: skip
    results_submit(tournament=submitted, content=_results(5001), source="json", by=staff)
    upcoming = declare("Régional de Bretagne", dt.date(2099, 1, 9), organizer_kind="committee",
                       organizer_committee=registry.committees[2])  # fmt: skip
    zone = declare("Tournoi de zone", dt.date(2027, 1, 16), organizer_kind="zone",
                   organizer_zone=registry.zones[1])  # fmt: skip
    return PublicSeason(registry, homologated, refused, submitted, upcoming, zone)
