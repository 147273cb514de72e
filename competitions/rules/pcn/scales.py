"""The PCN scales (*tableaux d'attribution des PCN*) of chapter 5, computed.

A scale gives the PCN each player receives for each place with a right to
points. For T tables (summed over the sessions of a multi-session event):

- the first place receives 40 × T;
- each next place receives the previous place's *exact* value times the
  reduction coefficient (*abattement*) of T tables:
  c(T) = max(minimum, min(0.95, 0.69 + 0.01 × (T − 3)) ** exponent),
  exponent 1 individual, 2 duo, 4 teams of 4;
- the stage index (*indice*) multiplies the value; the value is truncated to a
  whole number, raised to the floor (50) and lowered to the stage's cap
  (1500 ordinary, 3000 regional championships), in the order the rulebook's
  ``index_order`` says;
- the entries with a right to points are half the entries of the (first)
  session, rounded as the format says.

Exact rational arithmetic is used, so no figure depends on floating point.
Every printed figure above the floor in chapter 5 is reproduced (see the tests
and ``docs/rankings-pcn.md``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_FLOOR, ROUND_HALF_UP, Decimal
from fractions import Fraction

from competitions.rules.rulebook import BeneficiaryRounding, CappedPlaces, IndexOrder, Rulebook
from core.problems import Problem, RuleViolation
from core.vocabulary import Format, StageKind

SEATS_PER_TABLE = (3, 4)
"""A homologable table plays at 3 or 4 players (the 5-player game is not homologable)."""

SEATS_WITH_A_MORT = 5
"""An individual tournament may seat 5 at a table where one player (*le mort*) sits out each
deal in turn and the four others play the 4-player game (chapter 1, fasc. 459): a table of
the scale like any other."""


@dataclass(frozen=True, slots=True)
class Scale:
    """A computed *grille d'attribution*: PCN per player for each paid place."""

    format: Format
    stage: StageKind
    tables: int
    """Tables counted: the sum of every session's tables."""
    entries: int
    """Entries (players, duos or teams) that took part in the first session."""
    beneficiaries: int
    """How many places have a right to points (*y ont droit*)."""
    coefficient: Fraction
    """The exact reduction coefficient (*abattement*) used between places."""
    index: Decimal
    cap: int
    floor_value: int
    """The least a place with a right to points receives (the floor, after the index
    when the rulebook applies the index after the bounds)."""
    values: tuple[int, ...]
    """``values[k - 1]`` is the PCN of each player of the entry placed k-th."""

    def value(self, place: int) -> int:
        """PCN per player at ``place``; 0 for a place without a right to points."""
        if place < 1:
            raise RuleViolation.single(
                "place",
                "place_not_positive",
                f"Place {place} is not a place: places start at 1.",
                {"place": repr(place)},
            )
        return self.values[place - 1] if place <= self.beneficiaries else 0


def reduction_coefficient(fmt: Format, tables: int, rulebook: Rulebook) -> Fraction:
    """The exact *abattement* of ``fmt`` for ``tables`` tables (total over sessions).

    0.69 at 3 tables, +0.01 a table, at most 0.95, raised to the format's exponent
    (0.95² = 0.9025 duo, 0.95⁴ = 0.81450625 teams of 4), then at least 0.5.
    """
    red = rulebook.reduction
    rules = rulebook.formats.of(fmt)
    base = Fraction(red.coefficient_at_reference) + Fraction(red.step_per_table) * (
        tables - red.reference_tables
    )
    base = max(Fraction(0), min(base, Fraction(red.maximum)))
    return max(base**rules.coefficient_exponent, Fraction(rules.minimum_coefficient))


def beneficiary_count(fmt: Format, entries: int, rulebook: Rulebook) -> int:
    """How many of ``entries`` (counted on the first session) have a right to points."""
    rules = rulebook.formats.of(fmt)
    exact = rules.beneficiary_fraction * entries
    rounding = (
        ROUND_FLOOR if rules.beneficiary_rounding is BeneficiaryRounding.DOWN else ROUND_HALF_UP
    )
    return int(exact.to_integral_value(rounding=rounding))


def scale(
    fmt: Format,
    tables: int | Sequence[int],
    stage: StageKind,
    rulebook: Rulebook,
    *,
    entries: int | None = None,
) -> Scale:
    """Compute the scale of a tournament.

    ``tables`` is the table count of a one-session event, or the table count of
    each session in order (the scale counts their sum; the first session decides
    who has a right to points). ``entries`` is the number of players (individual),
    duos or teams that took part in the first session; ``None`` means a full
    first session (4 players a table). Raises :class:`RuleViolation` listing
    every problem of the input.
    """
    rulebook.validate()
    problems: list[Problem] = []
    if not isinstance(fmt, Format):
        problems.append(Problem("format", "unknown_format", f"{fmt!r} is not a Format.", {}))
    if not isinstance(stage, StageKind):
        problems.append(
            Problem(
                "stage", "unknown_stage", f"{stage!r} is not a StageKind.", {"name": str(stage)}
            )
        )
    elif stage is StageKind.NATIONAL_FINAL:
        problems.append(
            Problem(
                "stage",
                "national_final_has_no_scale",
                "A national final allocates PCN and PP by its fixed table "
                "(national_finals.allocate_national_final), not by a scale.",
                {},
            )
        )
    sessions = _session_tables(tables, problems)
    if problems:
        raise RuleViolation(problems)

    total_tables = sum(sessions)
    team_size = fmt.team_size
    if entries is None:
        entries = SEATS_PER_TABLE[-1] * sessions[0] // team_size
    problems.extend(_entries_problems(fmt, entries, sessions[0], rulebook))
    if problems:
        raise RuleViolation(problems)

    stage_rules = rulebook.stages.of(stage)
    coefficient = reduction_coefficient(fmt, total_tables, rulebook)
    beneficiaries = beneficiary_count(fmt, entries, rulebook)

    def bounded(raw: Fraction) -> int:
        return _bounded(raw, stage_rules.index, stage_rules.cap, rulebook)

    floor_value = bounded(Fraction(0))
    values: list[int] = []
    raw = Fraction(rulebook.first_place_points_per_table * total_tables)
    if rulebook.awards.capped_places is CappedPlaces.REDUCE_FROM_CAPPED_FIRST:
        # The first place starts from the cap (as an index-1 value when the index comes
        # first) and the next places are reduced from it, not clamped one by one.
        capped_start = (
            Fraction(stage_rules.cap) / Fraction(stage_rules.index)
            if rulebook.index_order is IndexOrder.INDEX_BEFORE_BOUNDS
            else Fraction(stage_rules.cap)
        )
        raw = min(raw, capped_start)
    while len(values) < beneficiaries:
        value = bounded(raw)
        if value == floor_value:
            # The raw value only decreases and ``bounded`` is monotone: the floor from here on.
            values.extend([floor_value] * (beneficiaries - len(values)))
            break
        values.append(value)
        raw *= coefficient

    return Scale(
        format=fmt,
        stage=stage,
        tables=total_tables,
        entries=entries,
        beneficiaries=beneficiaries,
        coefficient=coefficient,
        index=stage_rules.index,
        cap=stage_rules.cap,
        floor_value=floor_value,
        values=tuple(values),
    )


def _bounded(raw: Fraction, index: Decimal, cap: int, rulebook: Rulebook) -> int:
    """Apply index, truncation, floor and cap to an exact index-1 value."""
    if rulebook.index_order is IndexOrder.INDEX_BEFORE_BOUNDS:
        return min(cap, max(rulebook.floor, math.floor(raw * Fraction(index))))
    return math.floor(min(cap, max(rulebook.floor, math.floor(raw))) * Fraction(index))


def _session_tables(tables: int | Sequence[int], problems: list[Problem]) -> list[int]:
    if isinstance(tables, int) and not isinstance(tables, bool):
        sessions, paths = [tables], ["tables"]
    elif isinstance(tables, Sequence) and not isinstance(tables, str):
        sessions, paths = list(tables), [f"tables[{i}]" for i in range(len(tables))]
        if not sessions:
            problems.append(
                Problem("tables", "no_session", "At least one session's table count is needed.", {})
            )
    else:
        problems.append(
            Problem(
                "tables",
                "wrong_type",
                "Tables must be a table count or a sequence of per-session table counts.",
                {},
            )
        )
        return []
    for path, count in zip(paths, sessions, strict=True):
        if not isinstance(count, int) or isinstance(count, bool):
            problems.append(
                Problem(path, "wrong_type", f"{count!r} is not a whole table count.", {})
            )
        elif count < 1:
            problems.append(
                Problem(
                    path,
                    "not_positive",
                    f"A session needs at least one table, not {count}.",
                    {"count": count},
                )
            )
    return sessions


def _entries_problems(
    fmt: Format, entries: int, first_tables: int, rulebook: Rulebook
) -> list[Problem]:
    if not isinstance(entries, int) or isinstance(entries, bool):
        return [
            Problem("entries", "wrong_type", f"{entries!r} is not a whole number of entries.", {})
        ]
    problems = []
    minimum = rulebook.formats.of(fmt).minimum_entries
    if entries < minimum:
        problems.append(
            Problem(
                "entries",
                "below_minimum_participation",
                f"{entries} {fmt.value} entries is below the minimum participation of {minimum}: "
                "such a tournament is not homologable and gives no PCN.",
                {"count": entries, "minimum": minimum},
            )
        )
    players = entries * fmt.team_size
    most = SEATS_WITH_A_MORT if fmt is Format.INDIVIDUAL else SEATS_PER_TABLE[-1]
    low, high = SEATS_PER_TABLE[0] * first_tables, most * first_tables
    if not low <= players <= high:
        problems.append(
            Problem(
                "entries",
                "entries_do_not_fit_tables",
                f"{entries} {fmt.value} entries ({players} players) cannot sit at "
                f"{first_tables} tables of 3 to {most} players in the first session "
                f"(between {low} and {high} players).",
                {
                    "entries": entries,
                    "players": players,
                    "tables": first_tables,
                    "low": low,
                    "high": high,
                    "most": most,
                },
            )
        )
    return problems


__all__ = [
    "SEATS_PER_TABLE",
    "SEATS_WITH_A_MORT",
    "Scale",
    "beneficiary_count",
    "reduction_coefficient",
    "scale",
]
