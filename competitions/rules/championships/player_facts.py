"""What the championships need to know about a player (« licencié »).

The facts are given relative to one season: the licence for that season, whether the
player was licensed the season before, and the series in the current national ranking.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True, slots=True)
class SeasonLicence:
    """A player's licence for the season under consideration."""

    club: str
    committee: str
    since: date
    """The day the licence for the season took effect (« licence à jour » from this day)."""


@dataclass(frozen=True, slots=True)
class Suspension:
    """A suspension from play (chapter 4): from ``starts`` to ``ends``, both days included."""

    starts: date
    ends: date

    def covers(self, day: date) -> bool:
        return self.starts <= day <= self.ends


@dataclass(frozen=True, slots=True)
class PlayerFacts:
    """One player, as far as entry to a championship is concerned."""

    licence_number: str
    birth_date: date | None
    licence: SeasonLicence | None
    """The licence for the season under consideration; ``None``: not licensed."""
    licensed_previous_season: bool
    series: int | None
    """Series in the current national ranking (1 strongest … 4); ``None``: unranked."""
    suspensions: tuple[Suspension, ...] = ()
    """The player's suspensions that overlap the season."""
