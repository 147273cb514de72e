"""Declared sessions against chapter 5 (« simultanément sur le même lieu ») and chapter 3
art. 19 (« 2 séances, sur 2 après-midi »), and the kinds of event of fasc. 1514."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from competitions.rules.homologation import (
    PlannedSession,
    arbiter_play_problem,
    check_planned_sessions,
    same_venue_key,
    team_match_problem,
)
from competitions.rules.rulebook import EventKind, Rulebook
from core.vocabulary import Format

RULEBOOK = Rulebook.default()
DAY = dt.date(2026, 12, 5)
HALL = "Salle des fêtes, Lyon"


def codes(sessions, kind=EventKind.FREE_TOURNAMENT, rulebook=RULEBOOK):
    return [(p.field, p.code) for p in check_planned_sessions(tuple(sessions), kind, rulebook)]


def test_one_day_at_one_place_is_always_fine() -> None:
    for kind in EventKind:
        assert codes([PlannedSession(DAY, HALL)] * 3, kind) == []
    assert codes([], EventKind.FESTIVAL) == []


def test_a_second_day_only_for_a_championship_by_default() -> None:
    two_days = [PlannedSession(DAY, HALL), PlannedSession(DAY + dt.timedelta(days=1), HALL)]
    assert codes(two_days, EventKind.OFFICIAL_CHAMPIONSHIP) == []
    for kind in (EventKind.FREE_TOURNAMENT, EventKind.TEAM_MATCH, EventKind.FESTIVAL):
        assert codes(two_days, kind) == [("sessions[1].date", "several_days_not_allowed")]


def test_another_place_is_refused_even_in_a_championship() -> None:
    elsewhere = [PlannedSession(DAY, HALL), PlannedSession(DAY, "Villeurbanne")]
    assert codes(elsewhere, EventKind.OFFICIAL_CHAMPIONSHIP) == [
        ("sessions[1].venue", "session_at_another_venue")
    ]
    assert codes([PlannedSession(DAY, HALL), PlannedSession(DAY, " salle des  FÊTES, lyon ")]) == []


def test_sessions_go_forward_in_time() -> None:
    back = [PlannedSession(DAY, HALL), PlannedSession(DAY - dt.timedelta(days=1), HALL)]
    assert codes(back, EventKind.OFFICIAL_CHAMPIONSHIP) == [
        ("sessions[1].date", "session_before_previous")
    ]


def test_the_season_decides() -> None:
    homologation = replace(
        RULEBOOK.homologation,
        several_days_in=frozenset(),
        several_venues_in=frozenset({EventKind.FESTIVAL}),
        arbiter_may_not_play_in=frozenset(),
    )
    book = replace(RULEBOOK, homologation=homologation)
    two_days = [PlannedSession(DAY, HALL), PlannedSession(DAY + dt.timedelta(days=1), "Bron")]
    assert codes(two_days, EventKind.OFFICIAL_CHAMPIONSHIP, book) == [
        ("sessions[1].date", "several_days_not_allowed"),
        ("sessions[1].venue", "session_at_another_venue"),
    ]
    assert codes(two_days, EventKind.FESTIVAL, book) == [
        ("sessions[1].date", "several_days_not_allowed")
    ]
    assert arbiter_play_problem(EventKind.FESTIVAL, book) is None


def test_the_arbiter_and_team_matches() -> None:
    assert arbiter_play_problem(EventKind.FREE_TOURNAMENT, RULEBOOK) is None
    codes_by_kind = {
        kind: problem.code
        for kind in EventKind
        if (problem := arbiter_play_problem(kind, RULEBOOK)) is not None
    }
    assert codes_by_kind == {
        EventKind.OFFICIAL_CHAMPIONSHIP: "arbiter_plays",
        EventKind.TEAM_MATCH: "arbiter_plays_in_team_match",
        EventKind.FESTIVAL: "arbiter_plays_in_festival",
    }
    assert team_match_problem(EventKind.TEAM_MATCH, Format.DUO, RULEBOOK) is None
    assert team_match_problem(EventKind.TEAM_MATCH, Format.TEAM4, RULEBOOK) is None
    refused = team_match_problem(EventKind.TEAM_MATCH, Format.INDIVIDUAL, RULEBOOK)
    assert refused is not None
    assert (refused.field, refused.code) == ("format", "team_match_format")
    assert team_match_problem(EventKind.FESTIVAL, Format.INDIVIDUAL, RULEBOOK) is None


def test_a_rulebook_stored_before_these_settings_reads_today_s_reading() -> None:
    data = RULEBOOK.to_dict()
    for key in ("team_match_formats", "several_days_in", "several_venues_in"):
        del data["homologation"][key]
    assert Rulebook.from_dict(data) == RULEBOOK


sessions_strategy = st.lists(
    st.tuples(st.integers(0, 3), st.sampled_from([HALL, "Bron", " salle des fêtes, lyon"])),
    min_size=1,
    max_size=6,
)


@given(sessions_strategy, st.sampled_from(list(EventKind)))
def test_every_problem_is_located_on_a_later_session(raw, kind) -> None:
    sessions = [PlannedSession(DAY + dt.timedelta(days=d), venue) for d, venue in raw]
    problems = check_planned_sessions(tuple(sessions), kind, RULEBOOK)
    fields = [p.field for p in problems]
    assert all(f.startswith("sessions[") and not f.startswith("sessions[0]") for f in fields)
    one_place = len({same_venue_key(s.venue) for s in sessions}) == 1
    ordered = all(a.date <= b.date for a, b in pairwise(sessions))
    one_day = len({s.date for s in sessions}) == 1
    assert (problems == []) == (
        one_place and ordered and (one_day or kind is EventKind.OFFICIAL_CHAMPIONSHIP)
    )
