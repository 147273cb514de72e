"""Tournaments with results sent, for the staff desk's and the admin's tests."""

from __future__ import annotations

import datetime as dt

import pytest

from competitions.models import Tournament
from competitions.tournaments.submission import results_submit
from federation.models import Licence, Player

TOTALS = [900, 700, 500, 300, 100, 50, 0, -50, -100, -300, -900, -1200]


def results(totals=TOTALS, *, unnamed: int | None = None) -> dict:
    """A one-session individual results document of twelve players (licences 5001…);
    ``unnamed``: that entry's player has no licence number (a warning)."""
    order = sorted(range(len(totals)), key=lambda i: -totals[i])
    return {
        "format_version": 1,
        "sessions": [{"number": 1, "tables": 3, "tables_of_three": 0, "deals": 20}],
        "entries": [
            {"number": i + 1, "place": order.index(i) + 1, "total": total,
             "players": [{"licence_number": None if i == unnamed else 5001 + i,
                          "name": f"Joueur {i + 1}", "total": total}]}
            for i, total in enumerate(totals)
        ],
    }  # fmt: skip


@pytest.fixture
def results_document():
    """The factory of results documents above (``results(totals, unnamed=…)``)."""
    return results


@pytest.fixture
def submitted(registry):
    """A factory: a tournament of ``club`` (a number of the registry) declared and its
    results sent by federation staff through the submission service."""
    for i in range(12):
        player = Player.objects.create(licence_number=5001 + i, last_name=f"Nom{i}", first_name="P")
        Licence.objects.create(player=player, season=registry.season, club=registry.clubs[101])

    def submit(name: str, club: int = 101, *, day: int = 5, document=None) -> Tournament:
        tournament = Tournament.objects.create(
            season=registry.season, name=name, date=dt.date(2026, 12, day), venue="Salle",
            format="individual", organizer_kind="club", organizer_club=registry.clubs[club],
            arbiter=registry.players[1002],
        )  # fmt: skip
        results_submit(
            tournament=tournament,
            content=document or results(),
            source="json",
            by=registry.users["federation_staff"],
        )
        tournament.refresh_from_db()
        return tournament

    return submit
