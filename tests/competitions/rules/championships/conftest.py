"""Builders shared by the championship tests."""

from __future__ import annotations

from datetime import date

import pytest

from competitions.rules.championships.player_facts import PlayerFacts, SeasonLicence
from competitions.rules.championships.seasons import Season


@pytest.fixture
def season() -> Season:
    return Season.starting_in(2025)


def make_player(
    number: str = "100001",
    *,
    born: date | None = date(1980, 5, 17),
    club: str | None = "C01",
    committee: str = "R01",
    since: date = date(2025, 7, 1),
    previous: bool = True,
    series: int | None = 3,
) -> PlayerFacts:
    licence = None if club is None else SeasonLicence(club=club, committee=committee, since=since)
    return PlayerFacts(
        licence_number=number,
        birth_date=born,
        licence=licence,
        licensed_previous_season=previous,
        series=series,
    )


@pytest.fixture
def player():
    """A factory of PlayerFacts, licensed in club C01 of committee R01 by default."""
    return make_player
