"""The pure check of a stage's results against the championship's rules."""

from __future__ import annotations

import datetime as dt

from hypothesis import given
from hypothesis import strategies as st

from competitions.rules.championships.championship_rules import ChampionshipRules
from competitions.rules.championships.regional_rules import (
    FieldBracket,
    PositionCut,
    RegionalStage,
    SessionPlan,
)
from competitions.rules.championships.stage_compliance import (
    CutPlayed,
    EntryPlayed,
    RegisteredEntry,
    SessionPlayed,
    StageResults,
    stage_results_problems,
)
from core.vocabulary import ChampionshipKind, StageKind

KINDS = st.sampled_from(list(ChampionshipKind))
STAGES = st.sampled_from([StageKind.REGIONAL_STAGE, StageKind.REGIONAL_SEMI_FINAL,
                          StageKind.REGIONAL_FINAL])  # fmt: skip


def played(kind: ChampionshipKind, field: int, sessions: int, deals: int) -> StageResults:
    size = kind.team_size
    return StageResults(
        sessions=tuple(SessionPlayed(k + 1, 10, deals) for k in range(sessions)),
        entries=tuple(
            EntryPlayed(i + 1, i + 1, tuple(1000 * (i + 1) + j for j in range(size)))
            for i in range(field)
        ),
    )


def entered(results: StageResults) -> list[RegisteredEntry]:
    return [
        RegisteredEntry(e.number, frozenset(e.licence_numbers), "eligible") for e in results.entries
    ]


@given(KINDS, STAGES, st.integers(1, 40), st.integers(1, 4), st.integers(10, 30))
def test_the_minima_bind_the_regional_final_and_every_seniors_stage(
    kind, stage, field, sessions, deals
):
    rules = ChampionshipRules.current(kind)
    results = played(kind, field, sessions, deals)
    codes = {
        p.code
        for p in stage_results_problems(
            kind=kind, stage=stage, rules=rules, results=results, entries=entered(results)
        )
    }
    bound = stage is StageKind.REGIONAL_FINAL or kind is ChampionshipKind.SENIORS
    assert ("field_below_minimum" in codes) == (bound and field < rules.regional_final_min_field)
    assert ("too_few_sessions" in codes) == (bound and sessions < 2)
    assert ("too_few_deals" in codes) == (bound and deals < 20)
    assert codes <= {"field_below_minimum", "too_few_sessions", "too_few_deals"}


@given(KINDS, st.integers(1, 30), st.data())
def test_only_entered_entries_may_be_ranked(kind, field, data):
    rules = ChampionshipRules.current(kind)
    results = played(kind, field, 2, 20)
    registered = entered(results)
    missing = data.draw(st.sets(st.integers(0, field - 1)))
    kept = [e for i, e in enumerate(registered) if i not in missing]
    problems = stage_results_problems(
        kind=kind, stage=StageKind.REGIONAL_STAGE, rules=rules, results=results, entries=kept
    )
    assert sorted(p.field for p in problems if p.code == "not_entered") == sorted(
        f"entries[{i}].players" for i in missing
    )


def test_the_published_table_decides_sessions_and_deals():
    kind = ChampionshipKind.INDIVIDUAL
    plan = RegionalStage(
        "Finale",
        StageKind.REGIONAL_FINAL,
        dt.date(2027, 3, 1),
        dt.date(2027, 3, 31),
        (
            FieldBracket(20, 39, (SessionPlan(20), SessionPlan(20))),
            FieldBracket(40, None, (SessionPlan(24), SessionPlan(24), SessionPlan(24))),
        ),
    )
    results = played(kind, 44, 2, 24)
    problems = stage_results_problems(
        kind=kind,
        stage=StageKind.REGIONAL_FINAL,
        rules=ChampionshipRules.current(kind),
        results=results,
        entries=entered(results),
        plan=plan,
    )
    assert [(p.field, p.code) for p in problems] == [("sessions", "sessions_differ_from_plan")]
    fewer = played(kind, 24, 2, 20)
    assert (
        stage_results_problems(
            kind=kind,
            stage=StageKind.REGIONAL_FINAL,
            rules=ChampionshipRules.current(kind),
            results=fewer,
            entries=entered(fewer),
            plan=plan,
        )
        == []
    )


# ---------------------------------------------------------------------------------------------
# Cuts between positions (art. 3, 9, 15: « entre 2 séances ou 2 positions successives »)

DOWN_TO_FOUR = RegionalStage(
    "Finale",
    StageKind.REGIONAL_FINAL,
    dt.date(2027, 3, 1),
    dt.date(2027, 3, 31),
    (
        FieldBracket(
            20,
            24,
            (
                SessionPlan(20),
                SessionPlan(
                    20,
                    16,
                    2,
                    (PositionCut(1, 12, 2), PositionCut(2, 8), PositionCut(3, 4)),
                ),
            ),
        ),
    ),
)


def _cut_problems(cuts: tuple[CutPlayed, ...], plan: RegionalStage | None = DOWN_TO_FOUR):
    kind = ChampionshipKind.INDIVIDUAL
    base = played(kind, 20, 2, 20)
    results = StageResults(
        sessions=(base.sessions[0], SessionPlayed(2, 4, 20, 16, 2, cuts)),
        entries=base.entries,
    )
    problems = stage_results_problems(
        kind=kind,
        stage=StageKind.REGIONAL_FINAL,
        rules=ChampionshipRules.current(kind),
        results=results,
        entries=entered(results),
        plan=plan,
    )
    return [(p.field, p.code) for p in problems]


AS_PLANNED = (CutPlayed(1, 12, 2), CutPlayed(2, 8), CutPlayed(3, 4))


def test_cuts_between_positions_are_checked_against_the_published_table():
    assert _cut_problems(AS_PLANNED) == []
    assert _cut_problems(AS_PLANNED[:2]) == [("sessions[1].cuts", "cuts_differ_from_plan")]
    assert _cut_problems(()) == [("sessions[1].cuts", "cuts_differ_from_plan")]
    assert _cut_problems((CutPlayed(1, 13, 2), CutPlayed(2, 8), CutPlayed(3, 4, 2))) == [
        ("sessions[1].cuts[0].entries", "cut_field_differs_from_plan"),
        ("sessions[1].cuts[2].points_divisor", "cut_divisor_differs_from_plan"),
        ("sessions[1].cuts[0].points_divisor", "cut_divided_without_eliminations"),  # 3 of 16
    ]


def test_a_cut_divides_only_by_at_most_2_and_after_eliminating_a_fifth():
    # Without a table, the division rule of the texts still applies at each cut.
    assert _cut_problems((CutPlayed(1, 13, 2), CutPlayed(2, 8, 3)), plan=None) == [
        ("sessions[1].cuts[0].points_divisor", "cut_divided_without_eliminations"),
        ("sessions[1].cuts[1].points_divisor", "results_cut_division_too_large"),
    ]


@given(st.integers(2, 40), st.integers(1, 40))
def test_a_halving_cut_is_refused_exactly_when_under_a_fifth_is_eliminated(before, kept):
    kept = min(kept, before)
    kind = ChampionshipKind.INDIVIDUAL
    results = StageResults(
        sessions=(
            SessionPlayed(1, 10, 20, None, 1, (CutPlayed(2, before), CutPlayed(3, kept, 2))),
        ),
        entries=played(kind, 40, 1, 20).entries,
    )
    codes = [
        p.code
        for p in stage_results_problems(
            kind=kind,
            stage=StageKind.REGIONAL_STAGE,
            rules=ChampionshipRules.current(kind),
            results=results,
            entries=entered(results),
        )
    ]
    assert ("cut_divided_without_eliminations" in codes) == (5 * (before - kept) < before)
