"""PlayerFacts for the championship rules tests: licensed in club C01 of committee
R01 since the season began, born in 1980, third series, unless told otherwise."""

from __future__ import annotations

from datetime import date

from competitions.rules.championships.player_facts import PlayerFacts, SeasonLicence


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
