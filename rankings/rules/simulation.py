"""« Et si… »: the PCN and PP a result would award, and the step it would give.

Nothing here is new regulation: a hypothetical result is priced by the same
core as a homologated one (:func:`competitions.rules.pcn.scales.scale` for every
kind of tournament that uses a scale,
:func:`competitions.rules.pcn.national_finals.national_final_points` for the national
finals), and the player's line in the live ranking after it
by the same step rules (:func:`rankings.rules.national_ranking.entry_for`).

Readings (``docs/rankings-pcn.md``, « Et si… »):

- the result is one place, not tied (a tie shares points, see allocation);
- the tournament is full (4 players a table) unless the number of entries of
  the first session is given; the place must be one of those entries;
- a national final's figures depend on the place only; its format is the
  final's (seniors: individual), the table count only bounds the place;
- in the live ranking, every other player stays where they are; the player
  joins the ranked players (the base of the shares) if the result gives them
  their first point.

No Django, no I/O, no clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from competitions.rules.pcn.national_finals import national_final_points, places_with_points
from competitions.rules.pcn.scales import SEATS_PER_TABLE, SEATS_WITH_A_MORT, scale
from competitions.rules.rulebook import NationalFinal, Rulebook
from core.problems import Problem, RuleViolation
from core.vocabulary import Format, StageKind
from rankings.rules.national_ranking import (
    Places,
    PlayerStanding,
    entry_for,
    is_ranked,
    step_criteria,
)
from rankings.rules.series import ManualPlacement, SeriesPolicy

MAX_TABLES = 1000
"""The most tables a simulated tournament may have (as the scale endpoint)."""


class Event(StrEnum):
    """The kinds of tournament a result can be simulated in."""

    ORDINARY = "ordinary"
    REGIONAL_STAGE = "regional_stage"
    REGIONAL_SEMI_FINAL = "regional_semi_final"
    REGIONAL_FINAL = "regional_final"
    NATIONAL_QUALIFIER = "national_qualifier"
    NATIONAL_FINAL_INDIVIDUAL = "national_final_individual"
    NATIONAL_FINAL_DUO = "national_final_duo"
    NATIONAL_FINAL_TEAM4 = "national_final_team4"
    NATIONAL_FINAL_SENIORS = "national_final_seniors"

    @property
    def national_final(self) -> NationalFinal | None:
        """The national final of this kind, or ``None`` for a kind priced by a scale."""
        prefix = "national_final_"
        return NationalFinal(self.value[len(prefix) :]) if self.value.startswith(prefix) else None

    @property
    def stage(self) -> StageKind:
        return StageKind.NATIONAL_FINAL if self.national_final else StageKind(self.value)


@dataclass(frozen=True, slots=True)
class SimulatedAward:
    """What one player of the entry placed ``place`` would receive."""

    event: Event
    format: Format
    stage: StageKind
    tables: int
    entries: int
    place: int
    pcn: int
    pp: int
    has_right: bool
    """The place has a right to points."""
    places_with_points: int
    index: Decimal | None
    """The stage's index (*indice*), ``None`` for a national final."""
    cap: int | None


def simulate_award(
    event: Event,
    fmt: Format,
    tables: int,
    place: int,
    rulebook: Rulebook,
    *,
    entries: int | None = None,
) -> SimulatedAward:
    """The PCN and PP of ``place`` in a tournament of ``tables`` tables.

    ``fmt`` is ignored for a national final (the final has its format).
    Raises :class:`RuleViolation` with every problem of the input.
    """
    problems: list[Problem] = []
    if not isinstance(event, Event):
        raise RuleViolation.single(
            "event", "unknown_event", f"{event!r} is not a kind of tournament.", {}
        )
    final = event.national_final
    fmt = final.format if final is not None else fmt
    if not isinstance(fmt, Format):
        problems.append(Problem("format", "unknown_format", f"{fmt!r} is not a Format.", {}))
    if not isinstance(tables, int) or isinstance(tables, bool) or not 1 <= tables <= MAX_TABLES:
        problems.append(
            Problem(
                "tables",
                "tables_out_of_range",
                f"{tables!r} tables: a tournament has 1 to {MAX_TABLES} tables.",
                {"tables": repr(tables), "maximum": MAX_TABLES},
            )
        )
    if not isinstance(place, int) or isinstance(place, bool) or place < 1:
        problems.append(
            Problem(
                "place",
                "place_not_positive",
                f"Place {place!r} is not a place: places start at 1.",
                {"place": repr(place)},
            )
        )
    if problems:
        raise RuleViolation(problems)
    team_size = fmt.team_size
    if entries is None:
        entries = SEATS_PER_TABLE[-1] * tables // team_size
    elif final is not None:  # the same seating rule as a scale's (scales.py)
        most = SEATS_WITH_A_MORT if fmt is Format.INDIVIDUAL else SEATS_PER_TABLE[-1]
        low, high = SEATS_PER_TABLE[0] * tables, most * tables
        if not low <= entries * team_size <= high:
            problems.append(
                Problem(
                    "entries",
                    "entries_do_not_fit_tables",
                    f"{entries} entries cannot sit at {tables} tables of 3 to {most} players.",
                    {
                        "entries": entries,
                        "players": entries * team_size,
                        "tables": tables,
                        "most": most,
                        "low": low,
                        "high": high,
                    },
                )
            )
    if place > entries:
        problems.append(
            Problem(
                "place",
                "place_beyond_entries",
                f"Place {place} is beyond the {entries} entries of the tournament.",
                {"place": place, "entries": entries},
            )
        )
    if final is not None:
        if problems:
            raise RuleViolation(problems)
        pcn, pp = national_final_points(final, place, rulebook)
        paid = places_with_points(final, rulebook)
        return SimulatedAward(
            event, fmt, event.stage, tables, entries, place, pcn, pp, place <= paid, paid,
            None, None,
        )  # fmt: skip
    try:
        grid = scale(fmt, tables, event.stage, rulebook, entries=entries)
    except RuleViolation as refusal:
        problems.extend(refusal.problems)
    if problems:
        raise RuleViolation(problems)
    return SimulatedAward(
        event, fmt, event.stage, tables, entries, place, grid.value(place), 0,
        place <= grid.beneficiaries, grid.beneficiaries, grid.index, grid.cap,
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class LiveLine:
    """A player's line in the live ranking, as the simulation needs it."""

    player: int
    season_pcn: int
    season_pp: int
    carried_pcn: int
    carried_pp: int
    season_step: str
    """The step held during the season (from the last official ranking)."""
    manual_step: str | None
    """A step placed by the CCN, which no result changes."""
    ranked_count: int
    player_count: int


@dataclass(frozen=True, slots=True)
class SimulatedLine:
    total_pcn: int
    total_pp: int
    place: int
    step: str
    series: int
    step_source: str


def simulated_totals(line: LiveLine, award: SimulatedAward) -> tuple[int, int]:
    """(total PCN, total PP) after the result."""
    return (
        line.season_pcn + line.carried_pcn + award.pcn,
        line.season_pp + line.carried_pp + award.pp,
    )


def simulated_line(
    policy: SeriesPolicy, line: LiveLine, award: SimulatedAward, place: int
) -> SimulatedLine:
    """The player's line after the result, given the place their new totals would have
    (1 + the players strictly ahead, everyone else unchanged)."""
    was_ranked = is_ranked(line.season_pcn + line.carried_pcn)
    total_pcn, _total_pp = simulated_totals(line, award)
    ranked = line.ranked_count + (1 if is_ranked(total_pcn) and not was_ranked else 0)
    criteria = step_criteria(policy, ranked, line.player_count)
    standing = PlayerStanding(
        player=line.player,
        committee=0,
        club=None,
        season_pcn=line.season_pcn + award.pcn,
        season_pp=line.season_pp + award.pp,
        previous_step=line.season_step,  # so the season's step is the one held
    )
    placement = (
        ManualPlacement(line.player, line.manual_step, "CCN")
        if line.manual_step is not None
        else None
    )
    entry = entry_for(
        standing,
        Places(place, place, None),
        criteria,
        placement,
        (line.carried_pcn, line.carried_pp),
    )
    return SimulatedLine(
        entry.total_pcn, entry.total_pp, place, entry.step, entry.series, entry.step_source.value
    )


__all__ = [
    "MAX_TABLES",
    "Event",
    "LiveLine",
    "SimulatedAward",
    "SimulatedLine",
    "simulate_award",
    "simulated_line",
    "simulated_totals",
]
