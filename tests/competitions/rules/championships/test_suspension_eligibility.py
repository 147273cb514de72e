"""Chapter 4: a player suspended on the stage's day may not enter it (both ends included),
and the refusal names the end of the suspension, never its reason."""

from __future__ import annotations

import dataclasses
from datetime import date

import pytest

from competitions.rules.championships.championship_rules import ChampionshipRules
from competitions.rules.championships.eligibility import check_entry
from competitions.rules.championships.player_facts import Suspension
from competitions.rules.championships.seasons import Season
from core.vocabulary import ChampionshipKind, StageKind
from tests.competitions.rules.championships.player_facts import make_player

SEASON = Season.starting_in(2025)
SUSPENSION = Suspension(date(2025, 3, 14), date(2026, 3, 13))


def check(entrants, as_of):
    kind = ChampionshipKind.DUO
    rules = ChampionshipRules.current(kind)
    return check_entry(kind, StageKind.REGIONAL_FINAL, entrants, SEASON, rules, as_of)


def suspended(number: str, *periods: Suspension):
    return dataclasses.replace(make_player(number), suspensions=periods)


@pytest.mark.parametrize("day", [date(2025, 7, 1), date(2026, 3, 13)])
def test_a_player_suspended_on_the_stages_day_is_refused(day):
    problems = check([make_player("100001"), suspended("100002", SUSPENSION)], day)
    assert [(p.field, p.code) for p in problems] == [("entrants[1]", "player_suspended")]
    (problem,) = problems
    assert problem.params == {"licence": "100002", "until": date(2026, 3, 13), "as_of": day}
    assert "licence 100002" in problem.message
    assert "13 March 2026" in problem.message


def test_the_day_after_the_last_day_the_player_may_enter_again():
    assert check([make_player("100001"), suspended("100002", SUSPENSION)], date(2026, 3, 14)) == []


def test_a_suspension_starting_after_the_stage_does_not_refuse():
    later = Suspension(date(2026, 5, 1), date(2027, 4, 30))
    assert check([make_player("100001"), suspended("100002", later)], date(2026, 4, 30)) == []
    (problem,) = check([make_player("100001"), suspended("100002", later)], date(2026, 5, 1))
    assert problem.code == "player_suspended"


def test_overlapping_suspensions_name_the_latest_end():
    longer = Suspension(date(2025, 9, 1), date(2026, 8, 31))
    (problem,) = check(
        [make_player("100001"), suspended("100002", SUSPENSION, longer)], date(2025, 10, 1)
    )
    assert problem.params["until"] == date(2026, 8, 31)


def test_both_suspended_players_of_a_pair_are_each_refused():
    problems = check(
        [suspended("100001", SUSPENSION), suspended("100002", SUSPENSION)], date(2025, 10, 1)
    )
    assert [p.field for p in problems] == [
        "entrants[0]",
        "entrants[1]",
    ]
