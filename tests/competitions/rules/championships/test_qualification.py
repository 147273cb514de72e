"""Qualification for the national final and carry-overs to next season's regional final."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.rules.championships.championship_rules import ChampionshipRules
from competitions.rules.championships.qualification import (
    Entry,
    OpenReason,
    QualificationRight,
    RegionalTitle,
    Standing,
    carry_over_regional_champions,
    qualify_for_national_final,
    regional_title,
)
from competitions.rules.championships.team_composition import TeamSnapshot
from core.problems import RuleViolation
from core.vocabulary import ChampionshipKind, StageKind
from tests.competitions.rules.championships.player_facts import make_player

INDIVIDUAL = ChampionshipRules.current(ChampionshipKind.INDIVIDUAL)
Right = QualificationRight


def solo(number: str) -> Entry:
    return Entry(number, (number,))


def ranking(*places: tuple[str, int]) -> list[Standing]:
    return [Standing(solo(n), p) for n, p in places]


def sequential(prefix: str, count: int) -> list[Standing]:
    return [Standing(solo(f"{prefix}{i}"), i) for i in range(1, count + 1)]


def by_id(result):
    return {q.entry.entry_id: q.right for q in result.qualified}


def test_best_of_each_regional_final_qualify_within_the_quota():
    result = qualify_for_national_final(
        ChampionshipKind.INDIVIDUAL,
        INDIVIDUAL,
        quotas={"R01": 3, "R02": 2},
        regional_finals={"R01": sequential("a", 10), "R02": sequential("b", 10)},
    )
    assert by_id(result) == dict.fromkeys(("a1", "a2", "a3", "b1", "b2"), Right.COMMITTEE_QUOTA)
    assert [q.place for q in result.qualified if q.committee == "R01"] == [1, 2, 3]
    (pending,) = result.open_places
    assert (pending.right, pending.count, pending.reason) == (
        Right.NATIONAL_QUALIFIER,
        80,
        OpenReason.NATIONAL_QUALIFIER_PENDING,
    )


def test_committee_without_result_keeps_its_places_open():
    result = qualify_for_national_final(
        ChampionshipKind.INDIVIDUAL, INDIVIDUAL, {"R01": 3, "R02": 4}, {"R01": sequential("a", 5)}
    )
    pending = [o for o in result.open_places if o.committee == "R02"]
    assert [(o.count, o.reason) for o in pending] == [(4, OpenReason.REGIONAL_FINAL_PENDING)]
    assert result.open_count == 4 + 80


def test_outgoing_champion_is_qualified_directly_and_does_not_take_a_quota_place():
    champion = solo("a2")
    result = qualify_for_national_final(
        ChampionshipKind.INDIVIDUAL, INDIVIDUAL, {"R01": 2}, {"R01": sequential("a", 5)}, champion
    )
    assert by_id(result) == {
        "a2": Right.OUTGOING_NATIONAL_CHAMPION,
        "a1": Right.COMMITTEE_QUOTA,
        "a3": Right.COMMITTEE_QUOTA,
    }


def test_qualified_player_who_plays_the_national_qualifier_loses_the_place_to_the_qualifier():
    champion = solo("champ")
    qualifier = [Standing(solo("a1"), 1)] + [Standing(solo(f"q{i}"), i) for i in range(2, 100)]
    qualifier.append(Standing(solo("champ"), 100))
    result = qualify_for_national_final(
        ChampionshipKind.INDIVIDUAL,
        INDIVIDUAL,
        {"R01": 2},
        {"R01": sequential("a", 5)},
        champion,
        qualifier,
    )
    rights = by_id(result)
    # a1 and the champion gave up their qualifications by playing the qualifier ...
    assert sorted(lost.qualification.entry.entry_id for lost in result.lost) == ["a1", "champ"]
    assert "played the national qualifier" in result.lost[0].message
    # ... a1 came back through the qualifier, the champion (100th) did not
    assert rights["a1"] == Right.NATIONAL_QUALIFIER
    assert "champ" not in rights
    # the two places go back to the qualifier: its first 80 + 2 (81st and 82nd) qualify
    assert rights["q80"] == Right.NATIONAL_QUALIFIER
    assert rights["q81"] == Right.REATTRIBUTED_PLACE
    assert rights["q82"] == Right.REATTRIBUTED_PLACE
    assert "q83" not in rights
    assert rights["a2"] == Right.COMMITTEE_QUOTA
    assert len(result.qualified) == 1 + 82
    assert result.open_places == ()


def test_duo_qualification_is_lost_when_one_of_its_players_plays_the_qualifier():
    rules = ChampionshipRules.current(ChampionshipKind.DUO)
    pair = Entry("d1", ("1", "2"))
    other = Entry("d2", ("3", "4"))
    qualifier = [Standing(Entry("q", ("2", "9")), 1)]
    result = qualify_for_national_final(
        ChampionshipKind.DUO,
        rules,
        {"R01": 2},
        {"R01": [Standing(pair, 1), Standing(other, 2)]},
        national_qualifier=qualifier,
    )
    assert [lost.qualification.entry.entry_id for lost in result.lost] == ["d1"]
    assert by_id(result) == {"d2": Right.COMMITTEE_QUOTA, "q": Right.NATIONAL_QUALIFIER}
    (too_few,) = result.open_places
    assert (too_few.count, too_few.reason) == (40, OpenReason.TOO_FEW_ENTRIES)


def test_tie_across_the_last_quota_place_leaves_the_places_open_for_the_ccn():
    ties = ranking(("a", 1), ("b", 2), ("c", 3), ("d", 3), ("e", 5))
    result = qualify_for_national_final(
        ChampionshipKind.INDIVIDUAL, INDIVIDUAL, {"R01": 3}, {"R01": ties}
    )
    assert by_id(result) == {"a": Right.COMMITTEE_QUOTA, "b": Right.COMMITTEE_QUOTA}
    tie = next(o for o in result.open_places if o.committee == "R01")
    assert (tie.count, tie.reason, tie.tied) == (1, OpenReason.TIE_AT_BOUNDARY, ("c", "d"))


def test_tie_inside_the_quota_qualifies_everyone_tied():
    ties = ranking(("a", 1), ("b", 2), ("c", 2), ("d", 4))
    result = qualify_for_national_final(
        ChampionshipKind.INDIVIDUAL, INDIVIDUAL, {"R01": 3}, {"R01": ties}
    )
    assert set(by_id(result)) == {"a", "b", "c"}


def test_too_few_finishers_leave_places_open():
    result = qualify_for_national_final(
        ChampionshipKind.INDIVIDUAL, INDIVIDUAL, {"R01": 5}, {"R01": sequential("a", 3)}
    )
    short = next(o for o in result.open_places if o.committee == "R01")
    assert (short.count, short.reason) == (2, OpenReason.TOO_FEW_ENTRIES)


def team(entry_id: str, series: tuple[int, ...], club: str = "C01") -> Entry:
    players = tuple(f"{entry_id}-{i}" for i in range(4))
    return Entry(entry_id, players, TeamSnapshot(club, "R01", series, date(2026, 5, 30)))


def test_interclubs_qualification_keeps_the_snapshot_of_the_qualification_day():
    rules = ChampionshipRules.current(ChampionshipKind.INTERCLUBS)
    teams = [Standing(team("t1", (2, 3, 3, 4)), 1), Standing(team("t2", (3, 3, 3, 3)), 2)]
    result = qualify_for_national_final(
        ChampionshipKind.INTERCLUBS, rules, {"R01": 1}, {"R01": teams}
    )
    (qualified,) = result.qualified
    assert qualified.entry.team == TeamSnapshot("C01", "R01", (2, 3, 3, 4), date(2026, 5, 30))
    assert result.open_places == ()  # no national qualifier for the interclubs


def test_interclubs_outgoing_champion_must_still_be_a_valid_composition():
    rules = ChampionshipRules.current(ChampionshipKind.INTERCLUBS)
    result = qualify_for_national_final(
        ChampionshipKind.INTERCLUBS, rules, {}, {}, outgoing_champion=team("champ", (1, 1, 2, 3))
    )
    assert result.qualified == ()
    assert [p.code for p in result.problems] == ["composition_not_allowed"]
    ok = qualify_for_national_final(
        ChampionshipKind.INTERCLUBS, rules, {}, {}, outgoing_champion=team("champ", (1, 1, 4, 4))
    )
    assert by_id(ok) == {"champ": Right.OUTGOING_NATIONAL_CHAMPION}


def test_interclubs_has_no_national_qualifier():
    rules = ChampionshipRules.current(ChampionshipKind.INTERCLUBS)
    with pytest.raises(RuleViolation) as refused:
        qualify_for_national_final(
            ChampionshipKind.INTERCLUBS, rules, {}, {}, national_qualifier=[]
        )
    assert [p.code for p in refused.value.problems] == ["no_national_qualifier"]


def test_malformed_input_is_refused_with_every_problem():
    bad = {"R01": ranking(("a", 1), ("b", 3)), "R09": ranking(("a", 1))}
    with pytest.raises(RuleViolation) as refused:
        qualify_for_national_final(ChampionshipKind.INDIVIDUAL, INDIVIDUAL, {"R01": -1}, bad)
    assert sorted(p.code for p in refused.value.problems) == [
        "negative_quota",
        "no_quota",
        "places_not_1224",
        "ranked_in_two_committees",
    ]


def test_interclubs_entry_without_snapshot_is_refused():
    rules = ChampionshipRules.current(ChampionshipKind.INTERCLUBS)
    bare = Entry("t", ("1", "2", "3", "4"))
    with pytest.raises(RuleViolation) as refused:
        qualify_for_national_final(
            ChampionshipKind.INTERCLUBS, rules, {"R01": 1}, {"R01": [Standing(bare, 1)]}
        )
    assert [p.field for p in refused.value.problems] == ["regional_finals.R01[0].entry.team"]


def test_player_in_two_qualified_entries_is_reported():
    rules = ChampionshipRules.current(ChampionshipKind.DUO)
    champion = Entry("old", ("1", "2"))
    regional = [Standing(Entry("new", ("1", "3")), 1)]
    result = qualify_for_national_final(
        ChampionshipKind.DUO, rules, {"R01": 1}, {"R01": regional}, champion
    )
    assert [p.code for p in result.problems] == ["player_qualified_twice"]


def test_regional_title_needs_a_single_winner():
    assert regional_title("R01", ranking(("a", 1), ("b", 2))) == RegionalTitle("R01", solo("a"))
    assert regional_title("R01", ranking(("a", 1), ("b", 1))) is None


@pytest.mark.parametrize("kind", [ChampionshipKind.INDIVIDUAL, ChampionshipKind.SENIORS])
def test_regional_champion_is_carried_over_if_still_in_the_committee(kind):
    rules = ChampionshipRules.current(kind)
    titles = [
        RegionalTitle("R01", solo("1")),
        RegionalTitle("R01", solo("2")),
        RegionalTitle("R01", solo("3")),
    ]
    now = {
        "1": make_player("1", committee="R01", club="C05"),  # changed club, same committee: fine
        "2": make_player("2", committee="R04"),
        "3": make_player("3", club=None),
    }
    result = carry_over_regional_champions(kind, rules, titles, now)
    assert [(q.entry.entry_id, q.right, q.stage) for q in result.qualified] == [
        ("1", Right.REGIONAL_CHAMPION, StageKind.REGIONAL_FINAL)
    ]
    assert [(p.field, p.code) for p in result.refused] == [
        ("titles[1].entry.licence_numbers[0]", "left_committee"),
        ("titles[2].entry.licence_numbers[0]", "not_licensed"),
    ]


def test_duo_regional_champions_are_carried_over_only_if_both_stay():
    rules = ChampionshipRules.current(ChampionshipKind.DUO)
    titles = [RegionalTitle("R01", Entry("d", ("1", "2")))]
    both = {"1": make_player("1"), "2": make_player("2", club="C08")}
    assert (
        len(carry_over_regional_champions(ChampionshipKind.DUO, rules, titles, both).qualified) == 1
    )
    one_left = {"1": make_player("1"), "2": make_player("2", committee="R02")}
    result = carry_over_regional_champions(ChampionshipKind.DUO, rules, titles, one_left)
    assert result.qualified == ()
    assert [p.code for p in result.refused] == ["left_committee"]


def test_interclubs_regional_champions_need_same_club_and_valid_composition():
    rules = ChampionshipRules.current(ChampionshipKind.INTERCLUBS)
    champions = team("t", (2, 3, 3, 4))
    titles = [RegionalTitle("R01", champions)]
    players = champions.licence_numbers
    same = {n: make_player(n, series=s) for n, s in zip(players, (2, 3, 3, 4), strict=True)}
    result = carry_over_regional_champions(ChampionshipKind.INTERCLUBS, rules, titles, same)
    assert [q.entry.entry_id for q in result.qualified] == ["t"]

    promoted = same | {players[3]: make_player(players[3], series=1)}  # 2×3×3×1 = 18: still fine
    assert carry_over_regional_champions(
        ChampionshipKind.INTERCLUBS, rules, titles, promoted
    ).qualified

    invalid = same | {
        players[1]: make_player(players[1], series=1),
        players[2]: make_player(players[2], series=1),
    }
    result = carry_over_regional_champions(ChampionshipKind.INTERCLUBS, rules, titles, invalid)
    assert [p.code for p in result.refused] == ["composition_not_allowed"]

    moved = same | {players[0]: make_player(players[0], club="C02", series=2)}
    result = carry_over_regional_champions(ChampionshipKind.INTERCLUBS, rules, titles, moved)
    assert [(p.field, p.code) for p in result.refused] == [
        ("titles[0].entry.licence_numbers[0]", "left_club")
    ]


@st.composite
def scenarios(draw):
    committees = draw(st.integers(1, 4))
    quotas, finals, pool = {}, {}, []
    for c in range(committees):
        quotas[f"R{c}"] = draw(st.integers(0, 6))
        if draw(st.booleans()):
            size = draw(st.integers(0, 10))
            places = sorted(draw(st.lists(st.integers(1, 10), min_size=size, max_size=size)))
            standings = []
            for i, p in enumerate(places):  # make them 1224
                place = standings[-1].place if i and p == places[i - 1] else i + 1
                standings.append(Standing(solo(f"{c}-{i}"), place))
            finals[f"R{c}"] = standings
            pool += [s.entry.entry_id for s in standings]
    champion = solo(draw(st.sampled_from(pool))) if pool and draw(st.booleans()) else None
    qualifier = None
    if draw(st.booleans()):
        extra = [f"x{i}" for i in range(draw(st.integers(0, 12)))]
        players = extra + draw(st.lists(st.sampled_from(pool), unique=True)) if pool else extra
        qualifier = [Standing(solo(n), i + 1) for i, n in enumerate(players)]
    return quotas, finals, champion, qualifier


@settings(max_examples=150, deadline=None)
@given(scenarios(), st.integers(1, 8))
def test_never_more_qualified_than_quotas_plus_direct_rights(scenario, qualifier_quota):
    quotas, finals, champion, qualifier = scenario
    rules = ChampionshipRules(ChampionshipKind.INDIVIDUAL, national_qualifier_quota=qualifier_quota)
    result = qualify_for_national_final(
        ChampionshipKind.INDIVIDUAL, rules, quotas, finals, champion, qualifier
    )
    direct = 1 if champion else 0
    assert (
        len(result.qualified) + result.open_count <= sum(quotas.values()) + direct + qualifier_quota
    )
    ids = [q.entry.entry_id for q in result.qualified]
    assert len(ids) == len(set(ids))
    played = {s.entry.entry_id for s in qualifier or []}
    for q in result.qualified:  # nobody keeps an earlier right after playing the qualifier
        if q.entry.entry_id in played:
            assert q.right in (Right.NATIONAL_QUALIFIER, Right.REATTRIBUTED_PLACE)
    through_qualifier = [
        q
        for q in result.qualified
        if q.right in (Right.NATIONAL_QUALIFIER, Right.REATTRIBUTED_PLACE)
    ]
    assert len(through_qualifier) <= qualifier_quota + len(result.lost)
