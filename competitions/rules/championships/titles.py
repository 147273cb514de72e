"""The titles a championship stage awards (fascicule 2, chapter 3).

- Articles 6, 12, 17 and 23: « Le vainqueur de la finale nationale reçoit le trophée et le
  titre de champion de France … Le deuxième reçoit le titre de vice-champion » (the duo,
  the interclubs team: championne, vice-championne).
- Articles 1, 7, 13 and 18: « Chaque comité organise son championnat régional qui attribue
  le titre de champion régional »: the winner of the committee's regional final.

Places are the stage's recorded places, after article 29. An entry placed 1st is champion,
an entry placed 2nd vice-champion. A tie that survived article 29 shares the place, so it
shares the title: two entries placed 1st are both champions, and nobody is placed 2nd
(the next place is 3rd: "1224"), so there is no vice-champion. Every player of a duo or
team holds the title. Other stages award no title.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from core.vocabulary import StageKind


class Title(StrEnum):
    NATIONAL_CHAMPION = "national_champion"
    """*Champion de France* (articles 6, 12, 17, 23)."""
    NATIONAL_VICE_CHAMPION = "national_vice_champion"
    """*Vice-champion de France*."""
    REGIONAL_CHAMPION = "regional_champion"
    """*Champion régional* (articles 1, 7, 13, 18)."""


@dataclass(frozen=True, slots=True)
class Placed:
    """An entry of a stage's recorded ranking."""

    key: str
    """The entry's identity (sorted licence numbers)."""
    players: tuple[int, ...]
    """The players' ids."""
    place: int


@dataclass(frozen=True, slots=True)
class Awarded:
    """A title held by one entry."""

    title: Title
    key: str
    players: tuple[int, ...]
    place: int


_TITLES: dict[StageKind, dict[int, Title]] = {
    StageKind.NATIONAL_FINAL: {1: Title.NATIONAL_CHAMPION, 2: Title.NATIONAL_VICE_CHAMPION},
    StageKind.REGIONAL_FINAL: {1: Title.REGIONAL_CHAMPION},
}


def stage_titles(stage: StageKind, ranking: Sequence[Placed]) -> tuple[Awarded, ...]:
    """The titles of a stage's recorded ranking, in place order (none for other stages)."""
    by_place = _TITLES.get(stage, {})
    return tuple(
        Awarded(by_place[entry.place], entry.key, entry.players, entry.place)
        for entry in sorted(ranking, key=lambda e: (e.place, e.key))
        if entry.place in by_place
    )
