"""Do a stage's results meet the championship's rules? Pure: no Django, no I/O.

Chapter 3 fixes what a regional final must be (articles 2, 8, 14: the minimum field at the
first session, at least two sessions of at least 20 deals; article 19: every seniors
qualifying tournament), the committee publishes the table of sessions by field (articles 3,
9, 15, 20), the national qualifier is played « en une séance » (articles 4, 10, 21), and
only entries checked at entry may be ranked. The arbiter's late-arrival penalties
(article 26) are recorded with the stage and must be in the submitted results.

The results are read either from a submitted document or from a stored revision, so this
module takes its own small description of them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from competitions.rules.championships.championship_rules import ChampionshipRules
from competitions.rules.championships.regional_rules import (
    FieldBracket,
    RegionalStage,
    SessionPlan,
)
from core.problems import Problem
from core.vocabulary import ChampionshipKind, StageKind, championship_stage


@dataclass(frozen=True, slots=True)
class CutPlayed:
    """A cut between two positions of a session, as the results give it."""

    after_position: int
    entries: int
    """Entries that played on after the cut."""
    points_divisor: int = 1
    """Divisor of the scores carried past the cut (1: not divided)."""


@dataclass(frozen=True, slots=True)
class SessionPlayed:
    number: int
    tables: int
    deals: int
    entries: int | None = None
    """Entries that played it, when the results list them (eliminations); ``None``: all."""
    points_divisor: int = 1
    """Divisor of the scores carried into it (1: not divided)."""
    cuts: tuple[CutPlayed, ...] = ()
    """Its cuts between positions, in order (eliminations within the session)."""


@dataclass(frozen=True, slots=True)
class EntryPlayed:
    number: int
    place: int
    licence_numbers: tuple[int | None, ...]
    abandoned: bool = False


@dataclass(frozen=True, slots=True)
class PenaltyPlayed:
    licence_number: int
    kind: str
    points: int


@dataclass(frozen=True, slots=True)
class StageResults:
    """What a stage's results say: sessions, the final ranking, the penalties."""

    sessions: tuple[SessionPlayed, ...]
    entries: tuple[EntryPlayed, ...]
    penalties: tuple[PenaltyPlayed, ...] = ()


@dataclass(frozen=True, slots=True)
class RegisteredEntry:
    """An entry of the stage as entered: its active players and its status."""

    number: int
    licence_numbers: frozenset[int]
    status: str
    """``eligible``, ``flagged``, ``forfeit`` or ``withdrawn``."""


@dataclass(frozen=True, slots=True)
class RecordedPenalty:
    """A late arrival recorded by the arbiter: points, or a forfeit."""

    licence_number: int
    points: int
    forfeit: bool


LATE_ARRIVAL = "late_arrival"


def is_bound(kind: ChampionshipKind, stage: StageKind, rules: ChampionshipRules) -> bool:
    """Whether the minima of a regional final apply to this stage."""
    return stage is StageKind.REGIONAL_FINAL or (
        stage.is_regional and rules.min_field_applies_to_every_stage
    )


def bracket_for(plan: RegionalStage, field: int) -> FieldBracket | None:
    """The row of the published table for ``field`` entries at the first session."""
    for bracket in plan.brackets:
        top = bracket.max_entries
        if bracket.min_entries <= field and (top is None or field <= top):
            return bracket
    return None


def stage_results_problems(
    *,
    kind: ChampionshipKind,
    stage: StageKind,
    rules: ChampionshipRules,
    results: StageResults,
    entries: Sequence[RegisteredEntry],
    plan: RegionalStage | None = None,
    penalties: Sequence[RecordedPenalty] = (),
) -> list[Problem]:
    """Every way the results break the championship's rules (empty list: they comply)."""
    kind, stage = ChampionshipKind(kind), championship_stage(stage)
    problems = _entry_problems(results, entries, penalties)
    field = len(results.entries)
    sessions = results.sessions
    if is_bound(kind, stage, rules):
        what = "regional final" if stage is StageKind.REGIONAL_FINAL else "seniors stage"
        if field < rules.regional_final_min_field:
            problems.append(
                Problem(
                    "entries",
                    "field_below_minimum",
                    f"{field} entries played the first session of this {what}; the {kind} "
                    f"championship requires at least {rules.regional_final_min_field}.",
                    {"field": field, "minimum": rules.regional_final_min_field},
                )
            )
        if len(sessions) < rules.min_sessions:
            problems.append(
                Problem(
                    "sessions",
                    "too_few_sessions",
                    f"{len(sessions)} session(s) played; a {what} has at least "
                    f"{rules.min_sessions}.",
                    {"sessions": len(sessions), "min_sessions": rules.min_sessions},
                )
            )
        for k, session in enumerate(sessions):
            if session.deals < rules.min_deals_per_session:
                problems.append(
                    Problem(
                        f"sessions[{k}].deals",
                        "too_few_deals",
                        f"session {session.number} was played in {session.deals} deals; each "
                        f"session of a {what} has at least {rules.min_deals_per_session}.",
                        {
                            "session": session.number,
                            "deals": session.deals,
                            "min_deals": rules.min_deals_per_session,
                        },
                    )
                )
    if stage is StageKind.NATIONAL_QUALIFIER and len(sessions) != 1:
        problems.append(
            Problem(
                "sessions",
                "qualifier_one_session",
                f"the national qualifier is played in one session, not {len(sessions)}.",
                {"sessions": len(sessions)},
            )
        )
    if plan is not None and plan.brackets:
        problems += _plan_problems(plan, field, sessions)
    problems += _division_problems(rules, field, sessions)
    return problems


def _division_problems(
    rules: ChampionshipRules, field: int, sessions: Sequence[SessionPlayed]
) -> list[Problem]:
    """Scores divided between two sessions, or two positions of a session: at most by the
    championship's maximum, and only when at least its share of the session's (or the
    position's) entries was eliminated (art. 3, 9, 15: « à condition d'éliminer au moins
    20 % des participants de la séance ou de la position »)."""
    problems: list[Problem] = []
    before = field
    for k, session in enumerate(sessions):
        playing = before if session.entries is None else session.entries
        problems += _cut_division_problems(rules, k, session, playing)
        if k and session.points_divisor != 1:
            if session.points_divisor > rules.max_points_divisor:
                problems.append(
                    Problem(
                        f"sessions[{k}].points_divisor",
                        "results_division_too_large",
                        f"the scores carried into session {session.number} are divided by "
                        f"{session.points_divisor}; they may be divided by at most "
                        f"{rules.max_points_divisor:g}.",
                        {
                            "session": session.number,
                            "divisor": session.points_divisor,
                            "maximum": f"{rules.max_points_divisor:g}",
                        },
                    )
                )
            eliminated = Fraction(before - playing, before) if before else Fraction(0)
            required = Fraction(str(rules.min_eliminated_share))
            if eliminated < required:
                problems.append(
                    Problem(
                        f"sessions[{k}].points_divisor",
                        "divided_without_eliminations",
                        f"the scores carried into session {session.number} are divided while "
                        f"{before - playing} of the {before} entries of the session before "
                        f"({float(eliminated):.0%}) were eliminated; dividing requires "
                        f"eliminating at least {float(required):.0%}.",
                        {
                            "session": session.number,
                            "eliminated": before - playing,
                            "field": before,
                            "share": f"{float(eliminated):.0%}",
                            "required": f"{float(required):.0%}",
                        },
                    )
                )
        before = playing
        for cut in session.cuts:
            before = cut.entries
    return problems


def _cut_division_problems(
    rules: ChampionshipRules, k: int, session: SessionPlayed, playing: int
) -> list[Problem]:
    """The divisions at the cuts of one session, ``playing`` entries at its start."""
    problems: list[Problem] = []
    before = playing
    required = Fraction(str(rules.min_eliminated_share))
    for c, cut in enumerate(session.cuts):
        where = f"sessions[{k}].cuts[{c}].points_divisor"
        said = {"session": session.number, "position": cut.after_position}
        if cut.points_divisor != 1:
            if cut.points_divisor > rules.max_points_divisor:
                problems.append(
                    Problem(
                        where,
                        "results_cut_division_too_large",
                        f"the scores carried past position {cut.after_position} of session "
                        f"{session.number} are divided by {cut.points_divisor}; they may be "
                        f"divided by at most {rules.max_points_divisor:g}.",
                        {
                            **said,
                            "divisor": cut.points_divisor,
                            "maximum": f"{rules.max_points_divisor:g}",
                        },
                    )
                )
            eliminated = Fraction(before - cut.entries, before) if before else Fraction(0)
            if eliminated < required:
                problems.append(
                    Problem(
                        where,
                        "cut_divided_without_eliminations",
                        f"the scores carried past position {cut.after_position} of session "
                        f"{session.number} are divided while {before - cut.entries} of the "
                        f"{before} entries of the position ({float(eliminated):.0%}) were "
                        f"eliminated; dividing requires eliminating at least "
                        f"{float(required):.0%}.",
                        {
                            **said,
                            "eliminated": before - cut.entries,
                            "field": before,
                            "share": f"{float(eliminated):.0%}",
                            "required": f"{float(required):.0%}",
                        },
                    )
                )
        before = cut.entries
    return problems


def _entry_problems(
    results: StageResults,
    entries: Sequence[RegisteredEntry],
    penalties: Sequence[RecordedPenalty],
) -> list[Problem]:
    problems: list[Problem] = []
    active = {e.licence_numbers: e for e in entries if e.status in ("eligible", "flagged")}
    inactive = {e.licence_numbers: e for e in entries if e.status not in ("eligible", "flagged")}
    entered_players = {n for e in active.values() for n in e.licence_numbers}
    forfeited = {p.licence_number for p in penalties if p.forfeit}
    for i, played in enumerate(results.entries):
        where = f"entries[{i}]"
        numbers = [n for n in played.licence_numbers if n is not None]
        for j, n in enumerate(played.licence_numbers):
            if n is None:
                problems.append(
                    Problem(
                        f"{where}.players[{j}].licence_number",
                        "player_without_licence",
                        f"entry {played.number}: a championship stage ranks only licensed "
                        "players entered in it; this player has no licence number.",
                        {"entry": played.number},
                    )
                )
            elif n in forfeited:
                problems.append(
                    Problem(
                        f"{where}.players[{j}].licence_number",
                        "forfeit_player_played",
                        f"licence {n} was declared forfeit by the arbiter (article 26) and "
                        "cannot be ranked.",
                        {"licence": n},
                    )
                )
        if len(numbers) != len(played.licence_numbers):
            continue
        key = frozenset(numbers)
        registered = active.get(key)
        if registered is not None:
            if registered.status == "flagged":
                problems.append(
                    Problem(
                        f"{where}.players",
                        "team_flagged",
                        f"entry {played.number} (licences {_listed(key)}) is entered as team "
                        f"{registered.number}, flagged: its composition is no longer valid. "
                        "Withdraw it or settle the flag before its results count.",
                        {
                            "entry": played.number,
                            "licences": _listed(key),
                            "team": registered.number,
                        },
                    )
                )
            continue
        if key in inactive:
            problems.append(
                Problem(
                    f"{where}.players",
                    f"entry_{inactive[key].status}",
                    f"entry {played.number} (licences {_listed(key)}) was {inactive[key].status}"
                    " in this stage and cannot be ranked.",
                    {"entry": played.number, "licences": _listed(key)},
                )
            )
        elif key & entered_players:
            problems.append(
                Problem(
                    f"{where}.players",
                    "composition_differs",
                    f"entry {played.number} (licences {_listed(key)}) is not an entry of this "
                    "stage: its players are entered in other compositions.",
                    {"entry": played.number, "licences": _listed(key)},
                )
            )
        else:
            problems.append(
                Problem(
                    f"{where}.players",
                    "not_entered",
                    f"entry {played.number} (licences {_listed(key)}) is not entered in this "
                    "stage; only entries checked for eligibility may be ranked.",
                    {"entry": played.number, "licences": _listed(key)},
                )
            )
    recorded = Counter(
        (p.licence_number, p.points) for p in penalties if not p.forfeit and p.points > 0
    )
    submitted = Counter(
        (p.licence_number, p.points) for p in results.penalties if p.kind == LATE_ARRIVAL
    )
    for (number, points), count in sorted(recorded.items()):
        if submitted[(number, points)] < count:
            problems.append(
                Problem(
                    "penalties",
                    "penalty_missing",
                    f"the arbiter recorded a late-arrival penalty of {points} points against "
                    f"licence {number} (article 26); the results must list it (kind "
                    "late_arrival) and count it in the totals.",
                    {"points": points, "licence": number},
                )
            )
    return problems


def _cut_plan_problems(
    k: int, session: SessionPlayed, planned: SessionPlan, field: int
) -> list[Problem]:
    """The cuts between positions of a session against the published table's: the same
    positions, the same fields kept, the same divisors."""
    played = [cut.after_position for cut in session.cuts]
    plan = [cut.after_position for cut in planned.position_cuts]
    if played != plan:
        shown = ", ".join(str(p) for p in plan) or "none"
        return [
            Problem(
                f"sessions[{k}].cuts",
                "cuts_differ_from_plan",
                f"session {session.number} was cut after position(s) "
                f"{', '.join(str(p) for p in played) or 'none'}; the published table cuts it "
                f"after {shown} for {field} entries.",
                {
                    "session": session.number,
                    "played": ", ".join(str(p) for p in played) or "–",
                    "planned": ", ".join(str(p) for p in plan) or "–",
                    "field": field,
                },
            )
        ]
    problems: list[Problem] = []
    for c, (cut, cut_plan) in enumerate(zip(session.cuts, planned.position_cuts, strict=True)):
        said = {"session": session.number, "position": cut.after_position, "field": field}
        if cut.entries != cut_plan.entries:
            problems.append(
                Problem(
                    f"sessions[{k}].cuts[{c}].entries",
                    "cut_field_differs_from_plan",
                    f"{cut.entries} entries played on after position {cut.after_position} of "
                    f"session {session.number}; the published table keeps {cut_plan.entries} "
                    f"for {field} entries.",
                    {**said, "entries": cut.entries, "planned": cut_plan.entries},
                )
            )
        if cut.points_divisor != cut_plan.points_divisor:
            problems.append(
                Problem(
                    f"sessions[{k}].cuts[{c}].points_divisor",
                    "cut_divisor_differs_from_plan",
                    f"the scores carried past position {cut.after_position} of session "
                    f"{session.number} are divided by {cut.points_divisor}; the published "
                    f"table divides them by {cut_plan.points_divisor:g}.",
                    {
                        **said,
                        "divisor": cut.points_divisor,
                        "planned": f"{cut_plan.points_divisor:g}",
                    },
                )
            )
    return problems


def _plan_problems(
    plan: RegionalStage, field: int, sessions: Sequence[SessionPlayed]
) -> list[Problem]:
    bracket = bracket_for(plan, field)
    if bracket is None:
        rows = ", ".join(
            f"{b.min_entries}–{'' if b.max_entries is None else b.max_entries}"
            for b in plan.brackets
        )
        return [
            Problem(
                "entries",
                "no_plan_for_field",
                f"{field} entries at the first session: the committee's published table for "
                f"stage {plan.name!r} has no row for that field (rows: {rows}).",
                {"field": field, "name": plan.name, "rows": rows},
            )
        ]
    problems: list[Problem] = []
    if len(sessions) != len(bracket.sessions):
        problems.append(
            Problem(
                "sessions",
                "sessions_differ_from_plan",
                f"{len(sessions)} session(s) played; the published table plans "
                f"{len(bracket.sessions)} for {field} entries.",
                {"sessions": len(sessions), "planned": len(bracket.sessions), "field": field},
            )
        )
    for k, (session, planned) in enumerate(zip(sessions, bracket.sessions, strict=False)):
        if (
            k
            and planned.entries is not None
            and session.entries is not None
            and session.entries != planned.entries
        ):
            problems.append(
                Problem(
                    f"sessions[{k}].entries",
                    "session_field_differs_from_plan",
                    f"{session.entries} entries played session {session.number}; the "
                    f"published table keeps {planned.entries} for {field} entries.",
                    {
                        "session": session.number,
                        "entries": session.entries,
                        "planned": planned.entries,
                        "field": field,
                    },
                )
            )
        if k and session.points_divisor != planned.points_divisor:
            problems.append(
                Problem(
                    f"sessions[{k}].points_divisor",
                    "points_divisor_differs_from_plan",
                    f"the scores carried into session {session.number} are divided by "
                    f"{session.points_divisor}; the published table divides them by "
                    f"{planned.points_divisor:g}.",
                    {
                        "session": session.number,
                        "divisor": session.points_divisor,
                        "planned": f"{planned.points_divisor:g}",
                    },
                )
            )
        problems += _cut_plan_problems(k, session, planned, field)
        if session.deals < planned.deals:
            problems.append(
                Problem(
                    f"sessions[{k}].deals",
                    "fewer_deals_than_plan",
                    f"session {session.number} was played in {session.deals} deals; the "
                    f"published table plans {planned.deals}.",
                    {"session": session.number, "deals": session.deals, "planned": planned.deals},
                )
            )
    return problems


def _listed(numbers: frozenset[int]) -> str:
    return ", ".join(str(n) for n in sorted(numbers))
