"""Homologation conditions (chapter 5, page 43; chapter 1, the 5-player game)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from competitions.rules.homologation import (
    TournamentFacts,
    check_homologation,
    require_homologation,
)
from competitions.rules.rulebook import EventKind, Organizer, Rulebook
from core.problems import RuleViolation
from core.vocabulary import Format

RULEBOOK = Rulebook.default()

HOMOLOGABLE = TournamentFacts(
    organizer=Organizer.AFFILIATED_CLUB,
    format=Format.INDIVIDUAL,
    event_kind=EventKind.FREE_TOURNAMENT,
    arbiter_is_official=True,
    arbiter_plays=True,
    single_venue=True,
    simultaneous=True,
    entries=11,
    table_sizes=(4, 4, 3),
)


def codes(facts: TournamentFacts) -> list[tuple[str, str]]:
    return [(p.field, p.code) for p in check_homologation(facts, RULEBOOK)]


def test_a_homologable_tournament() -> None:
    assert check_homologation(HOMOLOGABLE, RULEBOOK) == []
    require_homologation(HOMOLOGABLE, RULEBOOK)


@pytest.mark.parametrize(
    "changes",
    [
        {"organizer": Organizer.FFT},
        {"organizer": Organizer.ZONE},
        {"organizer": Organizer.REGIONAL_COMMITTEE},
        {"arbiter_plays": False, "event_kind": EventKind.OFFICIAL_CHAMPIONSHIP},
        {
            "arbiter_plays": False,
            "event_kind": EventKind.TEAM_MATCH,
            "format": Format.DUO,
            "entries": 6,
            "table_sizes": (4, 4, 4),
        },
        {"arbiter_plays": False, "event_kind": EventKind.FESTIVAL},
        {"event_kind": EventKind.OFFICIAL_CHAMPIONSHIP, "arbiter_plays": False, "days": 2},
        {"format": Format.DUO, "entries": 6, "table_sizes": (4, 4, 4)},
        {"format": Format.TEAM4, "entries": 5, "table_sizes": (4,) * 5},
        {"table_sizes": (3, 4, 4, 3)},
    ],
)
def test_other_homologable_tournaments(changes: dict[str, Any]) -> None:
    assert codes(replace(HOMOLOGABLE, **changes)) == []


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"organizer": Organizer.UNAFFILIATED_CLUB}, ("organizer", "organizer_not_allowed")),
        ({"organizer": Organizer.OTHER}, ("organizer", "organizer_not_allowed")),
        ({"arbiter_is_official": False}, ("arbiter_is_official", "arbiter_not_official")),
        ({"event_kind": EventKind.OFFICIAL_CHAMPIONSHIP}, ("arbiter_plays", "arbiter_plays")),
        (
            {"event_kind": EventKind.TEAM_MATCH, "format": Format.TEAM4, "entries": 5},
            ("arbiter_plays", "arbiter_plays_in_team_match"),
        ),
        ({"event_kind": EventKind.FESTIVAL}, ("arbiter_plays", "arbiter_plays_in_festival")),
        (
            {"event_kind": EventKind.TEAM_MATCH, "arbiter_plays": False},
            ("format", "team_match_format"),
        ),
        ({"days": 2}, ("days", "several_days_not_allowed_here")),
        (
            {"days": 2, "event_kind": EventKind.FESTIVAL, "arbiter_plays": False},
            ("days", "several_days_not_allowed_here"),
        ),
        ({"single_venue": False}, ("single_venue", "not_single_venue")),
        ({"simultaneous": False}, ("simultaneous", "not_simultaneous")),
        ({"entries": 10}, ("entries", "below_minimum_participation")),
        (
            {"format": Format.DUO, "entries": 5, "table_sizes": (4, 3, 3)},
            ("entries", "below_minimum_participation"),
        ),
        (
            {"format": Format.TEAM4, "entries": 4, "table_sizes": (4,) * 4},
            ("entries", "below_minimum_participation"),
        ),
        ({"table_sizes": (4, 5, 3)}, ("table_sizes[1]", "table_size_not_homologable")),
    ],
)
def test_each_condition_missed_alone(changes: dict[str, Any], problem: tuple[str, str]) -> None:
    assert codes(replace(HOMOLOGABLE, **changes)) == [problem]


def test_every_unmet_condition_is_listed() -> None:
    facts = TournamentFacts(
        organizer=Organizer.UNAFFILIATED_CLUB,
        format=Format.INDIVIDUAL,
        event_kind=EventKind.FESTIVAL,
        arbiter_is_official=False,
        arbiter_plays=True,
        single_venue=False,
        simultaneous=False,
        entries=10,
        table_sizes=(5, 5),
    )
    expected = [
        ("organizer", "organizer_not_allowed"),
        ("arbiter_is_official", "arbiter_not_official"),
        ("arbiter_plays", "arbiter_plays_in_festival"),
        ("single_venue", "not_single_venue"),
        ("simultaneous", "not_simultaneous"),
        ("entries", "below_minimum_participation"),
        ("table_sizes[0]", "table_size_not_homologable"),
        ("table_sizes[1]", "table_size_not_homologable"),
    ]
    assert codes(facts) == expected
    with pytest.raises(RuleViolation) as excinfo:
        require_homologation(facts, RULEBOOK)
    assert [(p.field, p.code) for p in excinfo.value.problems] == expected
    assert all(p.message.endswith(".") for p in excinfo.value.problems)


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"entries": -1}, ("entries", "wrong_type")),
        ({"table_sizes": ()}, ("table_sizes", "no_tables")),
        ({"table_sizes": (4, 6)}, ("table_sizes[1]", "impossible_table_size")),
        ({"organizer": "club"}, ("organizer", "wrong_type")),
        ({"simultaneous": "yes"}, ("simultaneous", "wrong_type")),
    ],
)
def test_malformed_facts_are_refused(changes: dict[str, Any], problem: tuple[str, str]) -> None:
    with pytest.raises(RuleViolation) as excinfo:
        check_homologation(replace(HOMOLOGABLE, **changes), RULEBOOK)
    assert [(p.field, p.code) for p in excinfo.value.problems] == [problem]


def test_the_season_rulebook_sets_the_conditions() -> None:
    formats = replace(
        RULEBOOK.formats, individual=replace(RULEBOOK.formats.individual, minimum_entries=16)
    )
    homologation = replace(
        RULEBOOK.homologation,
        organizers=RULEBOOK.homologation.organizers | {Organizer.OTHER},
        arbiter_may_not_play_in=frozenset({EventKind.FREE_TOURNAMENT}),
    )
    book = replace(RULEBOOK, formats=formats, homologation=homologation)
    facts = replace(HOMOLOGABLE, organizer=Organizer.OTHER)
    assert [(p.field, p.code) for p in check_homologation(facts, book)] == [
        ("arbiter_plays", "arbiter_plays_in_free_tournament"),
        ("entries", "below_minimum_participation"),
    ]


def test_the_season_rulebook_says_which_events_span_days_or_places() -> None:
    spread = replace(HOMOLOGABLE, event_kind=EventKind.FESTIVAL, arbiter_plays=False, days=3)
    spread = replace(spread, single_venue=False)
    assert codes(spread) == [
        ("single_venue", "not_single_venue"),
        ("days", "several_days_not_allowed_here"),
    ]
    homologation = replace(
        RULEBOOK.homologation,
        several_days_in=frozenset({EventKind.FESTIVAL}),
        several_venues_in=frozenset({EventKind.FESTIVAL}),
        team_match_formats=frozenset({Format.INDIVIDUAL}),
    )
    book = replace(RULEBOOK, homologation=homologation)
    assert check_homologation(spread, book) == []
    match = replace(HOMOLOGABLE, event_kind=EventKind.TEAM_MATCH, arbiter_plays=False)
    assert check_homologation(match, book) == []
    assert Rulebook.from_dict(book.to_dict()) == book
