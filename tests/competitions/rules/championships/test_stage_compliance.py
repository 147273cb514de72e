"""The pure check of a stage's results against the championship's rules."""

from __future__ import annotations

import datetime as dt

from hypothesis import given
from hypothesis import strategies as st

from competitions.rules.championships.championship_rules import ChampionshipRules
from competitions.rules.championships.regional_rules import (
    FieldBracket,
    RegionalStage,
    SessionPlan,
)
from competitions.rules.championships.stage_compliance import (
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
