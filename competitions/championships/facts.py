"""What the championship rules need to know about players, read from the registry.

``players_facts`` builds ``PlayerFacts`` for one season in a fixed number of queries: the
season's licence (club, committee, the day it took effect), whether the player held a
licence the season before, the birth date, the series of the current national ranking and
the suspensions that overlap the season.

The series come from the national ranking through :func:`series_for_players`, the one
place that asks ``rankings`` for them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from competitions.rules.championships.player_facts import PlayerFacts, SeasonLicence, Suspension
from federation.models import Licence, Player, Sanction, SanctionKind, Season
from rankings.reads import selectors as ranking_selectors


def series_for_players(season: Season, licence_numbers: Iterable[int]) -> dict[int, int | None]:
    """Each player's series (1–4) this season, from the previous season's official ranking;
    ``None`` for a player without one (``rankings.reads.selectors.series_for_players``)."""
    numbers = list(licence_numbers)
    found = ranking_selectors.series_for_players(season, numbers)
    return {n: found.get(n) for n in numbers}


def previous_season(season: Season) -> Season | None:
    """The season just before ``season`` (the latest one ending before it starts)."""
    return Season.objects.filter(end_date__lt=season.start_date).order_by("-end_date").first()


@dataclass(frozen=True)
class RegistryFacts:
    """Facts of some players for one season, with the registry rows they came from."""

    facts: Mapping[int, PlayerFacts]
    """By licence number."""
    licences: Mapping[int, Licence]
    """This season's licence of each licensed player, club and committee loaded."""
    players: Mapping[int, Player]


def players_facts(*, season: Season, licence_numbers: Iterable[int]) -> RegistryFacts:
    """``PlayerFacts`` for the season of every known licence number (five queries)."""
    numbers = sorted(set(licence_numbers))
    players = {p.licence_number: p for p in Player.objects.filter(licence_number__in=numbers)}
    licences = {
        licence.player.licence_number: licence
        for licence in Licence.objects.filter(
            season=season, player__licence_number__in=numbers
        ).select_related("player", "club__committee__zone")
    }
    before = previous_season(season)
    previously = (
        set(
            Licence.objects.filter(season=before, player__licence_number__in=numbers).values_list(
                "player__licence_number", flat=True
            )
        )
        if before is not None
        else set()
    )
    series = series_for_players(season, list(players))
    suspensions = suspensions_in_season(season, numbers)
    facts = {}
    for number, player in players.items():
        licence = licences.get(number)
        facts[number] = PlayerFacts(
            licence_number=str(number),
            birth_date=player.birth_date,
            licence=None
            if licence is None
            else SeasonLicence(
                club=str(licence.club.number),
                committee=str(licence.club.committee.number),
                since=licence_since(licence, season),
            ),
            licensed_previous_season=number in previously,
            series=series.get(number),
            suspensions=suspensions.get(number, ()),
        )
    return RegistryFacts(facts, licences, players)


def suspensions_in_season(
    season: Season, licence_numbers: Iterable[int]
) -> dict[int, tuple[Suspension, ...]]:
    """The suspensions (chapter 4) of these players that overlap ``season``, by licence
    number (one query)."""
    found: dict[int, list[Suspension]] = {}
    for number, starts, ends in Sanction.objects.filter(
        player__licence_number__in=list(licence_numbers),
        kind=SanctionKind.SUSPENSION,
        starts__lte=season.end_date,
        ends__gte=season.start_date,
    ).values_list("player__licence_number", "starts", "ends"):
        if ends is not None:  # always, for a suspension (the constraint suspension_has_end)
            found.setdefault(number, []).append(Suspension(starts, ends))
    return {number: tuple(periods) for number, periods in found.items()}


def licence_since(licence: Licence, season: Season) -> dt.date:
    """The day a licence took effect: its issue day, not before the season starts."""
    if licence.issued_on is None:
        return season.start_date
    return max(licence.issued_on, season.start_date)


def facts_to_json(facts: PlayerFacts) -> dict:
    """The snapshot of an entry's facts, stored with it."""
    licence = facts.licence
    return {
        "licence_number": int(facts.licence_number),
        "birth_date": facts.birth_date.isoformat() if facts.birth_date else None,
        "club": int(licence.club) if licence else None,
        "committee": int(licence.committee) if licence else None,
        "licence_since": licence.since.isoformat() if licence else None,
        "licensed_previous_season": facts.licensed_previous_season,
        "series": facts.series,
    }
