"""A committee's regional championship rules, and their check against chapter 3.

Each committee publishes, at the start of the season, its « règlement du championnat
régional »: its stages (« stades »), and for each a table giving, « en fonction du nombre
de joueurs présents à la première séance », the number of sessions, the field of each
session and « la division ou non des points entre chaque séance ou position ». The
service checks that table against the minima of articles 2, 8, 14 and 19 and the
division rule of articles 3, 9 and 15.

Fields are counted in entries: players (individual, seniors), duos or teams.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from itertools import pairwise
from typing import Any

from competitions.rules.championships.championship_rules import ChampionshipRules
from competitions.rules.championships.seasons import Season
from core.problems import Problem
from core.settings_reader import Codes, read_settings
from core.vocabulary import ChampionshipKind, StageKind, championship_stage


@dataclass(frozen=True, slots=True)
class PositionCut:
    """A cut between two positions of a session: entries kept and points divided."""

    after_position: int
    entries: int
    """Entries still playing after the cut."""
    points_divisor: float = 1.0
    """The points carried past the cut are divided by this (1: no division)."""


@dataclass(frozen=True, slots=True)
class SessionPlan:
    """One session (« séance ») of a plan."""

    deals: int
    entries: int | None = None
    """Entries playing this session; ``None``: everyone still in (no cut before it)."""
    points_divisor: float = 1.0
    """Divisor of the points carried in from the previous session (1: no division)."""
    position_cuts: tuple[PositionCut, ...] = ()


@dataclass(frozen=True, slots=True)
class FieldBracket:
    """One row of the table: the plan for a number of entries present at the first session."""

    min_entries: int
    max_entries: int | None
    """``None``: no upper bound."""
    sessions: tuple[SessionPlan, ...]


@dataclass(frozen=True, slots=True)
class RegionalStage:
    """One stage of the regional championship (« stade »)."""

    name: str
    kind: StageKind
    start: date
    end: date
    brackets: tuple[FieldBracket, ...] = ()


@dataclass(frozen=True, slots=True)
class RegionalRules:
    """The regional championship rules one committee publishes for one championship."""

    committee: str
    kind: ChampionshipKind
    stages: tuple[RegionalStage, ...]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (dates as ISO strings)."""
        return {
            "committee": self.committee,
            "kind": str(self.kind),
            "stages": [
                {
                    "name": s.name,
                    "kind": str(s.kind),
                    "start": s.start.isoformat(),
                    "end": s.end.isoformat(),
                    "brackets": [
                        {
                            "min_entries": b.min_entries,
                            "max_entries": b.max_entries,
                            "sessions": [
                                {
                                    "deals": p.deals,
                                    "entries": p.entries,
                                    "points_divisor": p.points_divisor,
                                    "position_cuts": [
                                        {
                                            "after_position": c.after_position,
                                            "entries": c.entries,
                                            "points_divisor": c.points_divisor,
                                        }
                                        for c in p.position_cuts
                                    ],
                                }
                                for p in b.sessions
                            ],
                        }
                        for b in s.brackets
                    ],
                }
                for s in self.stages
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RegionalRules:
        """Read rules published as :meth:`to_dict` produces them.

        Keys may be left out only where :data:`OPTIONAL_KEYS` says, with the value given
        there. Raises ``RuleViolation`` with every malformed value, each located (a missing
        key at the object that lacks it); the content is then checked with
        :func:`check_regional_rules`.
        """
        return read_settings(
            cls,
            data,
            codes=Codes.uniform("malformed", missing_at_object=True),
            root="regional_rules",
            optional=OPTIONAL_KEYS,
            parsers={StageKind: championship_stage},
        )


OPTIONAL_KEYS: Mapping[type, Mapping[str, Any]] = {
    RegionalStage: {"brackets": ()},
    FieldBracket: {"max_entries": None},
    SessionPlan: {"entries": None, "points_divisor": 1.0, "position_cuts": ()},
    PositionCut: {"points_divisor": 1.0},
}
"""The keys a committee may leave out, and what they then mean: no table for a stage, no
upper bound, everyone still in, no division of points, no cut within the session."""


def check_regional_rules(
    regional: RegionalRules, season: Season, rules: ChampionshipRules
) -> list[Problem]:
    """Every way the committee's rules break chapter 3 (empty list: they comply)."""
    if regional.kind != rules.kind:
        raise ValueError(f"rules for {rules.kind} given to check {regional.kind} regional rules")
    problems = list(_stage_order_problems(regional))
    for i, stage in enumerate(regional.stages):
        problems += _stage_problems(stage, f"stages[{i}]", season, rules)
    return problems


def _stage_order_problems(regional: RegionalRules) -> Iterator[Problem]:
    finals = [s for s in regional.stages if s.kind is StageKind.REGIONAL_FINAL]
    if not finals:
        yield Problem(
            "stages",
            "no_regional_final",
            f"committee {regional.committee}: the regional championship has no regional final.",
            {"committee": regional.committee},
        )
        return
    if len(finals) > 1:
        yield Problem(
            "stages",
            "several_regional_finals",
            f"committee {regional.committee}: {len(finals)} stages are flagged regional "
            "final; there is one.",
            {"committee": regional.committee, "count": len(finals)},
        )
        return
    final = finals[0]
    for i, stage in enumerate(regional.stages):
        if stage is not final and stage.end > final.start:
            yield Problem(
                f"stages[{i}].end",
                "after_regional_final",
                f"stage {stage.name!r} ends on {stage.end}, after the regional final starts "
                f"on {final.start}; the regional final is the last stage.",
                {"name": stage.name, "end": stage.end, "final_start": final.start},
            )


def _stage_problems(
    stage: RegionalStage, field: str, season: Season, rules: ChampionshipRules
) -> Iterator[Problem]:
    if not stage.kind.is_regional:
        yield Problem(
            f"{field}.kind",
            "not_a_regional_stage",
            f"stage {stage.name!r} is a {stage.kind}; a committee publishes only regional "
            "stages, semi-finals and its final.",
            {"name": stage.name, "kind": stage.kind},
        )
    if stage.end < stage.start:
        yield Problem(
            f"{field}.end",
            "ends_before_start",
            f"stage {stage.name!r} ends on {stage.end}, before it starts on {stage.start}.",
            {"name": stage.name, "start": stage.start, "end": stage.end},
        )
    yield from _date_problems(stage, field, season, rules)
    bound = stage.kind is StageKind.REGIONAL_FINAL or rules.min_field_applies_to_every_stage
    if bound and not stage.brackets:
        yield Problem(
            f"{field}.brackets",
            "missing_table",
            f"stage {stage.name!r} publishes no table of sessions by number of entries "
            "present at the first session.",
            {"name": stage.name},
        )
    yield from _bracket_overlap_problems(stage, field)
    for j, bracket in enumerate(stage.brackets):
        yield from _bracket_problems(bracket, f"{field}.brackets[{j}]", bound, rules)


def _date_problems(
    stage: RegionalStage, field: str, season: Season, rules: ChampionshipRules
) -> Iterator[Problem]:
    for name, day in (("start", stage.start), ("end", stage.end)):
        if not season.contains(day):
            yield Problem(
                f"{field}.{name}",
                "outside_season",
                f"stage {stage.name!r} {name}s on {day}, outside season {season.label}.",
                {"name": stage.name, "date": day, "season": season.label},
            )
    if rules.regional_window_start is not None:
        first = season.date_of(rules.regional_window_start)
        if stage.start < first:
            yield Problem(
                f"{field}.start",
                "before_window",
                f"stage {stage.name!r} starts on {stage.start}; the {rules.kind} regional "
                f"championship is held from {first}.",
                {"name": stage.name, "start": stage.start, "first": first},
            )
    if rules.regional_window_end is not None:
        last = season.date_of(rules.regional_window_end)
        if stage.end > last:
            yield Problem(
                f"{field}.end",
                "after_window",
                f"stage {stage.name!r} ends on {stage.end}; the {rules.kind} regional "
                f"championship must be over by {last}.",
                {"name": stage.name, "end": stage.end, "last": last},
            )


def _bracket_overlap_problems(stage: RegionalStage, field: str) -> Iterator[Problem]:
    ordered = sorted(enumerate(stage.brackets), key=lambda item: item[1].min_entries)
    for (_, lower), (j, upper) in pairwise(ordered):
        top = lower.max_entries
        if top is None or upper.min_entries <= top:
            yield Problem(
                f"{field}.brackets[{j}].min_entries",
                "overlapping_brackets",
                f"stage {stage.name!r}: the row from {upper.min_entries} entries overlaps the "
                f"row from {lower.min_entries}; each number of entries has one plan.",
                {"name": stage.name, "upper": upper.min_entries, "lower": lower.min_entries},
            )
        elif upper.min_entries > top + 1:
            yield Problem(
                f"{field}.brackets[{j}].min_entries",
                "gap_between_brackets",
                f"stage {stage.name!r}: no plan for {top + 1} to {upper.min_entries - 1} "
                "entries present at the first session.",
                {"name": stage.name, "low": top + 1, "high": upper.min_entries - 1},
            )


def _bracket_problems(
    bracket: FieldBracket, field: str, bound: bool, rules: ChampionshipRules
) -> Iterator[Problem]:
    low, high = bracket.min_entries, bracket.max_entries
    if low < 1 or (high is not None and high < low):
        yield Problem(
            f"{field}.max_entries",
            "invalid_range",
            f"the row covers {low} to {high} entries, which is no range of entries.",
            {"low": low, "high": high},
        )
        return
    if bound and low < rules.regional_final_min_field:
        yield Problem(
            f"{field}.min_entries",
            "field_below_minimum",
            f"the row starts at {low} entries; at least {rules.regional_final_min_field} "
            f"are required at the first session ({rules.kind}).",
            {"low": low, "minimum": rules.regional_final_min_field},
        )
    if bound and len(bracket.sessions) < rules.min_sessions:
        yield Problem(
            f"{field}.sessions",
            "too_few_sessions",
            f"{len(bracket.sessions)} session(s) planned; at least {rules.min_sessions} "
            "are required.",
            {"sessions": len(bracket.sessions), "min_sessions": rules.min_sessions},
        )
    if not bracket.sessions:
        return
    first = bracket.sessions[0]
    if first.entries is not None and not low == first.entries == high:
        yield Problem(
            f"{field}.sessions[0].entries",
            "first_session_field",
            "the first session is played by every entry present, the row's range; leave "
            "its entries empty.",
            {},
        )
    if first.points_divisor != 1:
        yield Problem(
            f"{field}.sessions[0].points_divisor",
            "nothing_to_divide",
            "no points are carried into the first session, so none can be divided.",
            {},
        )
    field_low = low
    for k, session in enumerate(bracket.sessions):
        where = f"{field}.sessions[{k}]"
        if bound and session.deals < rules.min_deals_per_session:
            yield Problem(
                f"{where}.deals",
                "too_few_deals",
                f"session {k + 1} has {session.deals} deals; at least "
                f"{rules.min_deals_per_session} are required.",
                {
                    "session": k + 1,
                    "deals": session.deals,
                    "min_deals": rules.min_deals_per_session,
                },
            )
        if k > 0:
            kept = field_low if session.entries is None else session.entries
            yield from _cut_problems(
                field_low, kept, session.points_divisor, where, f"before session {k + 1}", rules
            )
            field_low = min(field_low, kept)
        previous_position = 0
        for c, cut in enumerate(session.position_cuts):
            cut_where = f"{where}.position_cuts[{c}]"
            if cut.after_position <= previous_position:
                yield Problem(
                    f"{cut_where}.after_position",
                    "position_order",
                    f"cut after position {cut.after_position} does not follow the cut after "
                    f"position {previous_position}.",
                    {"position": cut.after_position, "previous": previous_position},
                )
            previous_position = max(previous_position, cut.after_position)
            yield from _cut_problems(
                field_low,
                cut.entries,
                cut.points_divisor,
                cut_where,
                f"after position {cut.after_position} of session {k + 1}",
                rules,
            )
            field_low = min(field_low, cut.entries)


def _cut_problems(
    field_low: int, kept: int, divisor: float, where: str, when: str, rules: ChampionshipRules
) -> Iterator[Problem]:
    """A cut from at least ``field_low`` entries down to ``kept``, dividing points by ``divisor``.

    With a range of fields before the cut, the share eliminated is smallest at the
    smallest field, so that is the case checked.
    """
    if kept < 1 or kept > field_low:
        yield Problem(
            f"{where}.entries",
            "field_exceeds_previous",
            f"{kept} entries {when}, but as few as {field_low} may be playing before it.",
            {"kept": kept, "low": field_low},
        )
        return
    if divisor < 1:
        yield Problem(
            f"{where}.points_divisor",
            "invalid_divisor",
            f"points are divided by {divisor} {when}; a divisor below 1 would multiply them.",
            {"divisor": divisor},
        )
    elif divisor > rules.max_points_divisor:
        yield Problem(
            f"{where}.points_divisor",
            "division_too_large",
            f"points are divided by {divisor} {when}; they may be divided by at most "
            f"{rules.max_points_divisor:g}.",
            {"divisor": divisor, "maximum": rules.max_points_divisor},
        )
    if divisor != 1:
        eliminated = Fraction(field_low - kept, field_low)
        required = Fraction(str(rules.min_eliminated_share))
        if eliminated < required:
            yield Problem(
                f"{where}.points_divisor",
                "too_few_eliminated",
                f"points are divided {when} while {field_low - kept} of {field_low} entries "
                f"({float(eliminated):.0%}) are eliminated; dividing requires eliminating at "
                f"least {float(required):.0%}.",
                {
                    "eliminated": field_low - kept,
                    "low": field_low,
                    "share": f"{float(eliminated):.0%}",
                    "required": f"{float(required):.0%}",
                },
            )
