"""Seasons run from 1 July to 30 June."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.rules.championships.seasons import Season


def test_default_season_is_1_july_to_30_june():
    season = Season.starting_in(2025)
    assert (season.start, season.end) == (date(2025, 7, 1), date(2026, 6, 30))
    assert season.label == "2025-2026"


@pytest.mark.parametrize(
    ("month_day", "expected"),
    [
        ((12, 31), date(2025, 12, 31)),
        ((10, 1), date(2025, 10, 1)),
        ((12, 20), date(2025, 12, 20)),
        ((6, 30), date(2026, 6, 30)),
        ((7, 1), date(2025, 7, 1)),
        ((2, 28), date(2026, 2, 28)),
    ],
)
def test_a_calendar_day_resolves_inside_the_season(month_day, expected):
    assert Season.starting_in(2025).date_of(month_day) == expected


def test_29_february_exists_only_in_some_seasons():
    assert Season.starting_in(2027).date_of((2, 29)) == date(2028, 2, 29)
    with pytest.raises(ValueError, match="no day 02-29"):
        Season.starting_in(2025).date_of((2, 29))


def test_december_31_of_the_season():
    assert Season.starting_in(2025).december_31 == date(2025, 12, 31)


def test_a_season_cannot_end_before_it_starts():
    with pytest.raises(ValueError, match="before it starts"):
        Season(date(2025, 7, 1), date(2025, 6, 30))


def test_another_start_day_is_a_setting():
    season = Season.starting_in(2025, start=(9, 1))
    assert (season.start, season.end) == (date(2025, 9, 1), date(2026, 8, 31))
    assert season.december_31 == date(2025, 12, 31)


@settings(max_examples=200, deadline=None)
@given(st.dates(min_value=date(1950, 1, 1), max_value=date(2100, 12, 31)))
def test_every_day_belongs_to_exactly_one_season_and_seasons_follow_each_other(day):
    season = Season.containing(day)
    assert season.contains(day)
    assert not season.following().contains(day)
    nxt = season.following()
    assert (nxt.start - season.end).days == 1
    assert Season.containing(nxt.start) == nxt
