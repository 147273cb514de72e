"""PCN and PP of the national finals (*Attribution de PCN et PP au niveau national*).

National finals do not use a scale: each of the four finals (individual, duo,
teams of 4, seniors) has a fixed table of place ranges → (PCN, PP), held in
the season's :class:`~competitions.rules.rulebook.Rulebook`. A place beyond the
last range receives nothing. For duos and teams, each player of the entry
receives the entry's figures.

A national final is an official championship with its own tie-break rules
(article 29), so ties are not shared unless the caller states that they
survived those rules; they are then shared like everywhere else (total of the
occupied places' PCN and PP, divided equally, rounded up). There is no floor
here: a tie straddling the last range shares that range's figure with zeros.
"""

from __future__ import annotations

from collections.abc import Sequence

from competitions.rules.pcn.allocation import (
    Allocation,
    RankedEntry,
    award_places,
    ranking_problems,
    tie_problems,
)
from competitions.rules.rulebook import NationalFinal, PlaceRange, Rulebook
from core.problems import Problem, RuleViolation
from core.vocabulary import StageKind


def national_final_points(kind: NationalFinal, place: int, rulebook: Rulebook) -> tuple[int, int]:
    """(PCN, PP) of each player placed ``place`` in the national final ``kind``.

    (0, 0) beyond the table's last range.
    """
    if not isinstance(place, int) or isinstance(place, bool) or place < 1:
        raise RuleViolation.single(
            "place",
            "place_not_positive",
            f"Place {place!r} is not a place: places start at 1.",
            {"place": repr(place)},
        )
    row = _row_of(rulebook.national_finals.table(kind), place)
    return (row.pcn, row.pp) if row else (0, 0)


def places_with_points(kind: NationalFinal, rulebook: Rulebook) -> int:
    """The last place of the table: places after it receive nothing."""
    return rulebook.national_finals.table(kind)[-1].last


def allocate_national_final(
    ranking: Sequence[RankedEntry],
    kind: NationalFinal,
    rulebook: Rulebook,
    *,
    ties_after_tie_break: bool = False,
) -> Allocation:
    """Allocate the fixed PCN and PP of a national final to its "1224" ranking.

    Raises :class:`RuleViolation` listing every problem of the ranking, and every
    tie unless ``ties_after_tie_break`` states that it survived article 29.
    """
    rulebook.validate()
    if not isinstance(kind, NationalFinal):
        raise RuleViolation.single(
            "national_final",
            "unknown_national_final",
            f"{kind!r} is not a NationalFinal.",
            {"kind": repr(kind)},
        )
    tie_break_rules = rulebook.national_finals.tie_break_rules
    problems: list[Problem] = ranking_problems(ranking)
    if not problems:
        problems = tie_problems(
            ranking, tie_break_rules=tie_break_rules, ties_after_tie_break=ties_after_tie_break
        )
    if problems:
        raise RuleViolation(problems)

    paid = places_with_points(kind, rulebook)
    awards = award_places(
        ranking,
        points_at=lambda place: national_final_points(kind, place, rulebook),
        places_with_points=paid,
        floor_value=0,
        tie_break_rules=tie_break_rules,
        ties_after_tie_break=ties_after_tie_break,
    )
    return Allocation(
        format=kind.format,
        stage=StageKind.NATIONAL_FINAL,
        national_final=kind,
        players_per_entry=kind.format.team_size,
        places_with_points=paid,
        awards=awards,
    )


def _row_of(table: tuple[PlaceRange, ...], place: int) -> PlaceRange | None:
    for row in table:
        if row.first <= place <= row.last:
            return row
    return None


__all__ = ["allocate_national_final", "national_final_points", "places_with_points"]
