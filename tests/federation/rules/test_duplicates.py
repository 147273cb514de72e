"""Likely duplicates and merge refusals (federation/rules/duplicates.py). Pure: no database."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.folding import fold
from core.problems import RuleViolation
from federation.rules.duplicates import (
    NAME_AND_BIRTH_DATE,
    NAME_AND_COMMITTEE,
    MergeFacts,
    PlayerFacts,
    check_merge,
    likely_duplicates,
    pair_criteria,
)

BORN = dt.date(1970, 1, 1)


def facts(pid, name="martin elise", born=BORN, licences=None):
    return PlayerFacts(pid, name, born, licences or {})


def test_same_folded_name_and_birth_date():
    a = facts(1, fold("MARTIN Élise"))
    b = facts(2, fold("Martin Elise"))
    assert pair_criteria(a, b) == (NAME_AND_BIRTH_DATE,)
    assert [(p.first_id, p.second_id, p.criteria) for p in likely_duplicates([b, a])] == [
        (1, 2, (NAME_AND_BIRTH_DATE,))
    ]


def test_a_missing_birth_date_matches_nothing():
    assert pair_criteria(facts(1, born=None), facts(2, born=None)) == ()


def test_same_name_same_committee_seasons_apart():
    a = facts(1, born=None, licences={10: 5, 11: 5})
    b = facts(2, born=dt.date(1980, 1, 1), licences={13: 5})
    assert pair_criteria(a, b) == (NAME_AND_COMMITTEE,)


def test_overlapping_seasons_or_other_committees_are_not_the_second_criterion():
    a = facts(1, born=None, licences={10: 5, 11: 5})
    assert pair_criteria(a, facts(2, born=None, licences={11: 5})) == ()  # season 11 twice
    assert pair_criteria(a, facts(2, born=None, licences={12: 6})) == ()  # other committee
    assert pair_criteria(a, facts(2, born=None)) == ()  # never licensed


def test_both_criteria():
    a = facts(1, licences={10: 5})
    b = facts(2, licences={12: 5})
    assert pair_criteria(a, b) == (NAME_AND_BIRTH_DATE, NAME_AND_COMMITTEE)


def test_different_names_never_pair():
    assert pair_criteria(facts(1, "martin elise"), facts(2, "martin elisa")) == ()


players = st.lists(
    st.builds(
        PlayerFacts,
        id=st.integers(1, 40),
        folded_name=st.sampled_from(["a b", "a c", "b b"]),
        birth_date=st.one_of(st.none(), st.sampled_from([BORN, dt.date(1990, 5, 5)])),
        committees_by_season=st.dictionaries(st.integers(1, 4), st.integers(1, 3), max_size=3),
    ),
    max_size=12,
    unique_by=lambda p: p.id,
)


@given(players)
def test_pairs_are_exactly_the_pairs_meeting_a_criterion(group):
    found = {(p.first_id, p.second_id): p.criteria for p in likely_duplicates(group)}
    by_id = {p.id: p for p in group}
    for a, b in itertools.combinations(sorted(by_id), 2):
        x, y = by_id[a], by_id[b]
        expected = []
        if x.folded_name == y.folded_name:
            if x.birth_date is not None and x.birth_date == y.birth_date:
                expected.append(NAME_AND_BIRTH_DATE)
            if (
                x.committees_by_season
                and y.committees_by_season
                and not set(x.committees_by_season) & set(y.committees_by_season)
                and set(x.committees_by_season.values()) & set(y.committees_by_season.values())
            ):
                expected.append(NAME_AND_COMMITTEE)
        assert found.get((a, b), ()) == tuple(expected)
    assert all(first < second for first, second in found)  # no self-pair, one order


@given(players)
def test_symmetric_and_order_free(group):
    for a, b in itertools.combinations(group, 2):
        assert pair_criteria(a, b) == pair_criteria(b, a)
        assert pair_criteria(a, a) == ()
    assert likely_duplicates(group) == likely_duplicates(list(reversed(group)))


def record(pid, **kwargs):
    return MergeFacts(id=pid, licence_number=1000 + pid, **kwargs)


def codes(kept, merged):
    with pytest.raises(RuleViolation) as refused:
        check_merge(kept, merged)
    return [p.code for p in refused.value.problems]


def test_a_merge_of_records_apart_is_allowed():
    assert (
        check_merge(
            record(1, licence_seasons=frozenset({"2025-2026"}), has_account=True),
            record(2, licence_seasons=frozenset({"2023-2024"})),
        )
        is None
    )


def test_every_refusal_at_once():
    both = {
        "licence_seasons": frozenset({"2025-2026"}),
        "arbiter_seasons": frozenset({"2025-2026"}),
        "placement_seasons": frozenset({"2025-2026"}),
        "revisions": frozenset({7}),
        "stages": frozenset({3}),
        "title_stages": frozenset({3}),
        "has_account": True,
    }
    assert codes(record(1, **both), record(2, merged_into_id=9, **both)) == [
        "player_already_merged",
        "merge_two_licences_in_season",
        "merge_two_arbiter_grades_in_season",
        "merge_two_placements_in_season",
        "merge_same_results",
        "merge_same_stage",
        "merge_same_title",
        "merge_two_accounts",
    ]


def test_a_record_is_not_merged_into_itself():
    assert codes(record(1), record(1)) == ["merge_same_record"]


@given(
    st.frozensets(st.sampled_from(["2023-2024", "2024-2025", "2025-2026"])),
    st.frozensets(st.sampled_from(["2023-2024", "2024-2025", "2025-2026"])),
)
def test_two_licences_in_one_season_are_always_refused(kept, merged):
    a, b = record(1, licence_seasons=kept), record(2, licence_seasons=merged)
    if kept & merged:
        assert "merge_two_licences_in_season" in codes(a, b)
    else:
        check_merge(a, b)
