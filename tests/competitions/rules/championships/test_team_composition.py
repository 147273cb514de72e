"""Interclubs compositions: the 23 printed ones, and every other refused."""

from __future__ import annotations

import math
from datetime import date
from itertools import combinations_with_replacement, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.rules.championships.championship_rules import ChampionshipRules
from competitions.rules.championships.team_composition import (
    RegisteredTeam,
    allowed_compositions,
    composition_allowed,
    composition_problems,
    effective_series,
    flag_invalid_teams,
    snapshot_team,
)
from core.problems import RuleViolation
from core.vocabulary import ChampionshipKind

# Fascicule 2, chapter 3, « Règles applicables au championnat Interclubs », table
# « Vingt-trois compositions d'équipes sont ainsi possibles », columns 1 to 23:
# rows Joueur 1..4, then TOTAL (the product).
PRINTED_TABLE = [
    (1, (1, 1, 3, 4), 12),
    (2, (1, 1, 4, 4), 16),
    (3, (1, 2, 3, 3), 18),
    (4, (1, 2, 3, 4), 24),
    (5, (1, 2, 4, 4), 32),
    (6, (1, 3, 3, 3), 27),
    (7, (1, 3, 3, 4), 36),
    (8, (1, 3, 4, 4), 48),
    (9, (1, 4, 4, 4), 64),
    (10, (2, 2, 2, 3), 24),
    (11, (2, 2, 2, 4), 32),
    (12, (2, 2, 3, 3), 36),
    (13, (2, 2, 3, 4), 48),
    (14, (2, 2, 4, 4), 64),
    (15, (2, 3, 3, 3), 54),
    (16, (2, 3, 3, 4), 72),
    (17, (2, 3, 4, 4), 96),
    (18, (2, 4, 4, 4), 128),
    (19, (3, 3, 3, 3), 81),
    (20, (3, 3, 3, 4), 108),
    (21, (3, 3, 4, 4), 144),
    (22, (3, 4, 4, 4), 192),
    (23, (4, 4, 4, 4), 256),
]
PRINTED = {series for _, series, _ in PRINTED_TABLE}
ALL_MULTISETS = list(combinations_with_replacement(range(1, 5), 4))
REFUSED = [m for m in ALL_MULTISETS if m not in PRINTED]


@pytest.mark.parametrize(("column", "series", "total"), PRINTED_TABLE)
def test_printed_composition_is_allowed_and_its_total_is_the_product(column, series, total):
    assert math.prod(series) == total, f"column {column}"
    assert composition_allowed(series)


def test_enumeration_reproduces_the_printed_table_in_order():
    assert allowed_compositions() == tuple(series for _, series, _ in PRINTED_TABLE)
    assert len(allowed_compositions()) == 23


def test_there_are_twelve_refused_multisets():
    assert len(ALL_MULTISETS) == 35
    assert len(REFUSED) == 12


@pytest.mark.parametrize("series", REFUSED)
def test_every_other_multiset_is_refused(series):
    assert not composition_allowed(series)


@pytest.mark.parametrize("ordered", list(product(range(1, 5), repeat=4)))
def test_all_256_ordered_tuples_follow_the_rule(ordered):
    exceptions = {(1, 1, 3, 4), (1, 1, 4, 4)}
    expected = math.prod(ordered) > 16 or tuple(sorted(ordered)) in exceptions
    assert composition_allowed(ordered) is expected


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=4, max_size=4), st.randoms())
def test_order_of_players_never_matters(series, rnd):
    shuffled = list(series)
    rnd.shuffle(shuffled)
    assert composition_allowed(series) == composition_allowed(shuffled)


@pytest.mark.parametrize("series", [(1, 1, 1, 4), (2, 2, 2, 2), (1, 2, 2, 4), (1, 1, 2, 4)])
def test_product_of_sixteen_or_less_without_exception_is_refused(series):
    assert math.prod(series) <= 16
    assert not composition_allowed(series)


@pytest.mark.parametrize("series", [(1, 2, 3), (1, 2, 3, 4, 4), (0, 4, 4, 4), (5, 4, 4, 4)])
def test_wrong_size_or_series_out_of_range_is_refused(series):
    assert not composition_allowed(series)


def test_settings_change_the_rule():
    stricter = ChampionshipRules(
        ChampionshipKind.INTERCLUBS, series_product_threshold=24, series_product_exceptions=()
    )
    assert not composition_allowed((1, 2, 3, 4), stricter)  # 24 is not > 24
    assert composition_allowed((1, 2, 4, 4), stricter)
    assert len(allowed_compositions(stricter)) == 18  # 23 minus 12, 16, 18, 24, 24


def test_player_not_licensed_previous_season_counts_as_fourth_series(player):
    newcomer = player(previous=False, series=None)
    assert effective_series(newcomer) == 4
    assert effective_series(player(previous=True, series=2)) == 2
    assert effective_series(player(previous=True, series=None)) is None


def test_two_first_series_and_two_newcomers_is_the_first_exception(player):
    team = [
        player("1", series=1),
        player("2", series=1),
        player("3", previous=False, series=None),
        player("4", previous=False, series=None),
    ]
    assert composition_problems(team) == []


def test_refusal_explains_product_and_exceptions(player):
    team = [player("1", series=1), player("2", series=1), player("3", series=2), player("4")]
    (problem,) = composition_problems(team)
    assert problem.code == "composition_not_allowed"
    assert "1×1×2×3 = 6" in problem.message
    assert "strictly greater than 16" in problem.message


def test_unknown_series_is_reported_with_the_player(player):
    team = [player("1"), player("2"), player("3"), player("777", previous=True, series=None)]
    (problem,) = composition_problems(team)
    assert problem.field == "entrants[3].series"
    assert problem.code == "series_unknown"
    assert "777" in problem.message


def test_flag_invalid_teams_flags_a_team_made_invalid_by_a_series_change():
    teams = [
        RegisteredTeam("T1", ("a", "b", "c", "d")),
        RegisteredTeam("T2", ("e", "f", "g", "h")),
        RegisteredTeam("T3", ("i", "j", "k", "l")),
    ]
    series = {"a": 1, "b": 1, "c": 4, "d": 4}  # T1: 1-1-4-4, an exception: fine
    series |= {"e": 1, "f": 1, "g": 3, "h": 2}  # T2: h went up from 4th to 2nd series
    series |= {"i": 3, "j": 3, "k": 3}  # T3: l unknown
    flags = flag_invalid_teams(teams, series)
    assert [(f.team_id, f.code) for f in flags] == [
        ("T2", "composition_not_allowed"),
        ("T3", "series_unknown"),
    ]
    assert flags[0].series == (1, 1, 3, 2)
    assert "l" in flags[1].message


def test_flag_invalid_teams_flags_a_team_of_the_wrong_size():
    flags = flag_invalid_teams([RegisteredTeam("T", ("a", "b", "c"))], {"a": 4, "b": 4, "c": 4})
    assert [f.code for f in flags] == ["wrong_team_size"]


def test_snapshot_freezes_club_committee_and_series(player):
    team = [player(str(i), series=s) for i, s in enumerate((2, 3, 3, 4))]
    snap = snapshot_team(team, date(2026, 3, 1))
    assert (snap.club, snap.committee, snap.series) == ("C01", "R01", (2, 3, 3, 4))
    assert snap.taken_on == date(2026, 3, 1)


def test_snapshot_refuses_mixed_clubs(player):
    team = [player("1"), player("2"), player("3"), player("4", club="C99")]
    with pytest.raises(RuleViolation) as refused:
        snapshot_team(team, date(2026, 3, 1))
    assert [p.code for p in refused.value.problems] == ["mixed_clubs"]
