"""The federation's season (« saison »): 1 July to 30 June by default.

The texts speak of « la saison en cours »: the seniors' age is counted on « le 31
décembre de la saison en cours », the DUO regional championship is held « du 1er octobre
au 20 décembre », the interclubs one ends « au 30 juin ». A calendar day (month, day) is
therefore resolved to the one date inside a given season.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

DEFAULT_START = (7, 1)
"""(month, day) on which a season starts, per the public sources quoted in NOTES.md."""

MonthDay = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Season:
    """One season, both days included."""

    start: date
    end: date

    def __post_init__(self) -> None:
        if self.end < self.start:
            raise ValueError(f"season ends ({self.end}) before it starts ({self.start})")

    @classmethod
    def starting_in(cls, year: int, start: MonthDay = DEFAULT_START) -> Season:
        """The season that starts in ``year`` (1 July ``year`` – 30 June ``year + 1``)."""
        first = date(year, *start)
        return cls(first, date(year + 1, *start) - timedelta(days=1))

    @classmethod
    def containing(cls, day: date, start: MonthDay = DEFAULT_START) -> Season:
        """The season a day belongs to."""
        year = day.year if (day.month, day.day) >= start else day.year - 1
        return cls.starting_in(year, start)

    @property
    def label(self) -> str:
        return f"{self.start.year}-{self.end.year}"

    def contains(self, day: date) -> bool:
        return self.start <= day <= self.end

    def date_of(self, month_day: MonthDay) -> date:
        """The date inside this season that falls on ``month_day`` (e.g. (12, 31)).

        Raises ``ValueError`` if the season holds no such day (29 February in a common year).
        """
        month, day = month_day
        for year in range(self.start.year, self.end.year + 1):
            try:
                candidate = date(year, month, day)
            except ValueError:
                continue
            if self.contains(candidate):
                return candidate
        raise ValueError(f"season {self.label} has no day {month:02d}-{day:02d}")

    @property
    def december_31(self) -> date:
        """« Le 31 décembre de la saison en cours »."""
        return self.date_of((12, 31))

    def following(self) -> Season:
        """The next season (a season is taken to last one year from its start day)."""
        return Season.starting_in(self.start.year + 1, (self.start.month, self.start.day))
