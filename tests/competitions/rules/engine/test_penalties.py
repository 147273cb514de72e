"""Penalties: catalogue, amounts of chapter 4 and article 26, record checks."""

from __future__ import annotations

import itertools
import math
from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.rules.engine.penalties import (
    CATALOGUE,
    CURRENT_SCHEDULE,
    SCORE_SHEET_KINDS,
    AmountRule,
    EarlierOffence,
    FalseDealDiscovery,
    Penalty,
    PenaltyKind,
    PenaltySchedule,
    RepeatScope,
    check_penalty,
    false_deal_points,
    late_arrival,
    offence_number,
    penalty_problems,
    points_for_offence,
    repeat_problems,
    score_sheet_fault,
)
from core.problems import RuleViolation


def codes(excinfo: pytest.ExceptionInfo[RuleViolation]) -> list[tuple[str, str]]:
    return [(p.field, p.code) for p in excinfo.value.problems]


def test_catalogue_describes_every_kind_with_label_and_source() -> None:
    assert set(CATALOGUE) == set(PenaltyKind)
    for kind, info in CATALOGUE.items():
        assert info.kind is kind
        assert info.label_fr.strip()
        assert "Fascicule 2" in info.source


def test_catalogue_cannot_be_modified() -> None:
    with pytest.raises(TypeError):
        CATALOGUE[PenaltyKind.ETHICS] = CATALOGUE[PenaltyKind.SMOKING]  # type: ignore[index]


@pytest.mark.parametrize(
    ("kind", "rule"),
    [
        (PenaltyKind.LATE_ARRIVAL, AmountRule.PER_STARTED_PERIOD),
        (PenaltyKind.SCORE_SHEET_LOST, AmountRule.FIXED),
        (PenaltyKind.SLOWNESS, AmountRule.FIRST_THEN_REPEAT),
        (PenaltyKind.EXPOSED_CARD, AmountRule.WARNING_THEN_FIXED),
        (PenaltyKind.HANDFUL_PRESENTATION, AmountRule.WARNING_THEN_FIXED),
        (PenaltyKind.ETHICS, AmountRule.ARBITER_JUDGEMENT),
        (PenaltyKind.SMOKING, AmountRule.ARBITER_JUDGEMENT),
    ],
)
def test_catalogue_amount_rules(kind: PenaltyKind, rule: AmountRule) -> None:
    assert CATALOGUE[kind].amount_rule is rule


@pytest.mark.parametrize(
    ("lateness", "points", "periods", "forfeit"),
    [
        (timedelta(0), 0, 0, False),
        (timedelta(seconds=1), 100, 1, False),
        (timedelta(minutes=5), 100, 1, False),
        (timedelta(minutes=5, seconds=1), 200, 2, False),
        (timedelta(minutes=10), 200, 2, False),
        (timedelta(minutes=11), 300, 3, False),
        (timedelta(minutes=15), 300, 3, False),
        (timedelta(minutes=15, seconds=1), 400, 4, True),
        (timedelta(minutes=20), 400, 4, True),
        (timedelta(minutes=31), 700, 7, True),
    ],
)
def test_late_arrival_article_26(
    lateness: timedelta, points: int, periods: int, forfeit: bool
) -> None:
    result = late_arrival(lateness)
    assert (result.points, result.started_periods, result.forfeit_allowed) == (
        points,
        periods,
        forfeit,
    )


def test_negative_lateness_is_refused() -> None:
    with pytest.raises(RuleViolation) as excinfo:
        late_arrival(timedelta(minutes=-1))
    assert codes(excinfo) == [("lateness", "negative_lateness")]


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=0, max_value=4 * 3600),
    st.integers(min_value=0, max_value=600),
)
def test_late_arrival_grows_with_lateness(seconds: int, extra: int) -> None:
    earlier = late_arrival(timedelta(seconds=seconds))
    later = late_arrival(timedelta(seconds=seconds + extra))
    assert earlier.points == 100 * math.ceil(seconds / 300)
    assert later.points >= earlier.points
    assert later.forfeit_allowed >= earlier.forfeit_allowed


def test_late_arrival_uses_the_season_schedule() -> None:
    season = PenaltySchedule(
        late_arrival_points_per_period=50,
        late_arrival_period=timedelta(minutes=10),
        forfeit_after=timedelta(minutes=30),
    )
    result = late_arrival(timedelta(minutes=25), season)
    assert (result.points, result.started_periods, result.forfeit_allowed) == (150, 3, False)


@pytest.mark.parametrize(
    ("kind", "offence", "points"),
    [
        (PenaltyKind.SCORE_SHEET_TOTAL_NOT_ZERO, 1, 100),
        (PenaltyKind.SCORE_SHEET_MISSING_IDENTIFICATION, 1, 100),
        (PenaltyKind.SCORE_SHEET_LEFT_ON_TABLE, 1, 100),
        (PenaltyKind.SCORE_SHEET_LOST, 1, 400),
        (PenaltyKind.SCORE_SHEET_LOST, 3, 400),
        (PenaltyKind.FALSE_DEAL, 1, 100),
        (PenaltyKind.SLOWNESS, 1, 100),
        (PenaltyKind.SLOWNESS, 2, 200),
        (PenaltyKind.SLOWNESS, 5, 200),
        (PenaltyKind.EXPOSED_CARD, 1, 0),
        (PenaltyKind.EXPOSED_CARD, 2, 100),
        (PenaltyKind.TOUCHING_CARDS_DURING_DEAL, 1, 0),
        (PenaltyKind.TOUCHING_CARDS_DURING_DEAL, 2, 100),
        (PenaltyKind.HANDFUL_PRESENTATION, 1, 0),
        (PenaltyKind.HANDFUL_PRESENTATION, 4, 100),
    ],
)
def test_points_for_offence(kind: PenaltyKind, offence: int, points: int) -> None:
    assert points_for_offence(kind, offence) == points


@pytest.mark.parametrize(
    ("kind", "code"),
    [
        (PenaltyKind.LATE_ARRIVAL, "amount_depends_on_lateness"),
        (PenaltyKind.ETHICS, "amount_left_to_arbiter"),
        (PenaltyKind.SMOKING, "amount_left_to_arbiter"),
    ],
)
def test_points_for_offence_refuses_kinds_without_a_fixed_amount(
    kind: PenaltyKind, code: str
) -> None:
    with pytest.raises(RuleViolation) as excinfo:
        points_for_offence(kind)
    assert codes(excinfo) == [("kind", code)]


def test_offence_number_counts_from_one() -> None:
    with pytest.raises(RuleViolation) as excinfo:
        points_for_offence(PenaltyKind.SLOWNESS, 0)
    assert codes(excinfo) == [("offence_number", "offence_number_not_positive")]


def test_a_season_can_change_the_amounts() -> None:
    season = PenaltySchedule(slowness_repeat=300, score_sheet_lost=500)
    assert points_for_offence(PenaltyKind.SLOWNESS, 2, season) == 300
    assert points_for_offence(PenaltyKind.SCORE_SHEET_LOST, 1, season) == 500
    assert points_for_offence(PenaltyKind.SLOWNESS, 2) == 200


def test_schedule_refuses_negative_amounts_and_empty_durations() -> None:
    with pytest.raises(RuleViolation) as excinfo:
        PenaltySchedule(slowness_first=-100, late_arrival_period=timedelta(0))
    assert sorted(codes(excinfo)) == [
        ("schedule.late_arrival_period", "duration_not_positive"),
        ("schedule.slowness_first", "negative_amount"),
    ]


@pytest.mark.parametrize(
    ("discovery", "for_disabled", "points"),
    [
        (FalseDealDiscovery.BEFORE_BIDDING, False, 0),
        (FalseDealDiscovery.AFTER_CONTRACT_BEFORE_PLAY, False, 100),
        (FalseDealDiscovery.DURING_PLAY, False, 100),
        (FalseDealDiscovery.AFTER_CONTRACT_BEFORE_PLAY, True, 0),
        (FalseDealDiscovery.DURING_PLAY, True, 0),
    ],
)
def test_false_deal_points(discovery: FalseDealDiscovery, for_disabled: bool, points: int) -> None:
    assert false_deal_points(discovery, dealing_for_disabled_player=for_disabled) == points


def test_score_sheet_fault_hits_every_player_of_the_table() -> None:
    penalties = score_sheet_fault(
        PenaltyKind.SCORE_SHEET_LOST, ["n", "s", "e", "w"], "sheet of position 3 missing"
    )
    assert penalties == tuple(
        Penalty(p, PenaltyKind.SCORE_SHEET_LOST, 400, "sheet of position 3 missing")
        for p in ["n", "s", "e", "w"]
    )


def test_score_sheet_fault_at_a_table_of_three() -> None:
    penalties = score_sheet_fault(PenaltyKind.SCORE_SHEET_TOTAL_NOT_ZERO, ["a", "b", "c"], "sum")
    assert [p.points for p in penalties] == [100, 100, 100]


def test_score_sheet_fault_collects_every_problem() -> None:
    with pytest.raises(RuleViolation) as excinfo:
        score_sheet_fault(PenaltyKind.SLOWNESS, ["a", "b", "a"], "x")
    assert codes(excinfo) == [
        ("kind", "not_a_score_sheet_fault"),
        ("table_players[2]", "duplicate_player"),
    ]
    with pytest.raises(RuleViolation) as excinfo:
        score_sheet_fault(PenaltyKind.SCORE_SHEET_LOST, [], "x")
    assert codes(excinfo) == [("table_players", "no_players")]


def test_score_sheet_kinds_are_the_four_sheet_faults() -> None:
    assert {k for k in PenaltyKind if k.startswith("score_sheet")} == SCORE_SHEET_KINDS


@pytest.mark.parametrize(
    ("kind", "points"),
    [
        (PenaltyKind.LATE_ARRIVAL, 100),
        (PenaltyKind.LATE_ARRIVAL, 700),
        (PenaltyKind.SLOWNESS, 100),
        (PenaltyKind.SLOWNESS, 200),
        (PenaltyKind.SCORE_SHEET_LOST, 400),
        (PenaltyKind.EXPOSED_CARD, 0),
        (PenaltyKind.EXPOSED_CARD, 100),
        (PenaltyKind.ETHICS, 0),
        (PenaltyKind.ETHICS, 1000),
        (PenaltyKind.SMOKING, 150),
    ],
)
def test_amounts_the_schedule_allows(kind: PenaltyKind, points: int) -> None:
    penalty = Penalty("p1", kind, points, "noted by the arbiter")
    assert penalty_problems(penalty) == ()
    assert check_penalty(penalty) is penalty


@pytest.mark.parametrize(
    ("kind", "points"),
    [
        (PenaltyKind.LATE_ARRIVAL, 0),
        (PenaltyKind.LATE_ARRIVAL, 250),
        (PenaltyKind.SLOWNESS, 300),
        (PenaltyKind.SCORE_SHEET_LOST, 100),
        (PenaltyKind.SCORE_SHEET_TOTAL_NOT_ZERO, 400),
        (PenaltyKind.FALSE_DEAL, 0),
        (PenaltyKind.HANDFUL_PRESENTATION, 200),
    ],
)
def test_amounts_the_schedule_refuses(kind: PenaltyKind, points: int) -> None:
    with pytest.raises(RuleViolation) as excinfo:
        check_penalty(Penalty("p1", kind, points, "noted by the arbiter"))
    assert codes(excinfo) == [("penalty.points", "amount_not_in_schedule")]


def test_penalty_record_collects_every_problem() -> None:
    problems = penalty_problems(
        Penalty(" ", PenaltyKind.ETHICS, -100, ""), field="entries[0].penalties[1]"
    )
    assert [(p.field, p.code) for p in problems] == [
        ("entries[0].penalties[1].player", "blank_player"),
        ("entries[0].penalties[1].reason", "blank_reason"),
        ("entries[0].penalties[1].points", "negative_penalty"),
    ]
    assert all(p.message.endswith(".") for p in problems)


def test_penalty_check_follows_the_season_schedule() -> None:
    season = PenaltySchedule(slowness_repeat=300)
    penalty = Penalty("p1", PenaltyKind.SLOWNESS, 300, "second warning for slowness")
    assert penalty_problems(penalty, season) == ()
    assert penalty_problems(penalty, CURRENT_SCHEDULE) != ()


# --- repeats (récidive): amounts against offence numbers --------------------------------

SLOW = PenaltyKind.SLOWNESS
EXPOSED = PenaltyKind.EXPOSED_CARD
FALSE_DEAL = PenaltyKind.FALSE_DEAL


def _p(player: str, kind: PenaltyKind, points: int) -> Penalty:
    return Penalty(player, kind, points, "noted")


def _codes(problems: tuple) -> list[tuple[str, str]]:
    return [(p.field, p.code) for p in problems]


def test_a_first_offence_then_its_repeat_is_consistent_in_any_order() -> None:
    for penalties in (
        [_p("a", SLOW, 100), _p("a", SLOW, 200), _p("a", SLOW, 200)],
        [_p("a", SLOW, 200), _p("a", SLOW, 100)],
        [_p("a", EXPOSED, 100), _p("a", EXPOSED, 0)],
    ):
        assert repeat_problems(penalties) == ()


def test_two_first_amounts_of_one_fault_flag_the_second() -> None:
    penalties = [_p("a", SLOW, 100), _p("b", SLOW, 100), _p("a", SLOW, 100)]
    problems = repeat_problems(penalties)
    assert _codes(problems) == [("penalties[2].points", "penalty_first_amount_on_repeat")]
    assert problems[0].params["expected"] == 200


def test_a_repeat_amount_without_a_first_offence_is_flagged() -> None:
    problems = repeat_problems([_p("a", EXPOSED, 100)])
    assert _codes(problems) == [("penalties[0].points", "penalty_repeat_amount_on_first")]
    assert problems[0].params["expected"] == 0


def test_the_scope_decides_what_counts() -> None:
    # Slowness then an exposed card: two faults of different kinds in one tournament.
    penalties = [_p("a", SLOW, 100), _p("a", EXPOSED, 0)]
    assert repeat_problems(penalties, scope=RepeatScope.SAME_FAULT_SAME_TOURNAMENT) == ()
    assert repeat_problems(penalties, scope=RepeatScope.SAME_FAULT_SAME_SEASON) == ()
    assert _codes(repeat_problems(penalties, scope=RepeatScope.ANY_FAULT_SAME_TOURNAMENT)) == [
        ("penalties[1].points", "penalty_first_amount_on_repeat")
    ]
    # Under any_fault, a fixed fault may have been the first: the exposed card repeats it.
    assert (
        repeat_problems(
            [_p("a", FALSE_DEAL, 100), _p("a", EXPOSED, 100)],
            scope=RepeatScope.ANY_FAULT_SAME_TOURNAMENT,
        )
        == ()
    )
    # Slowness in an earlier tournament of the season: only the season scope counts it.
    earlier = {"a": [EarlierOffence(SLOW, "t1")]}
    alone = [_p("a", SLOW, 100)]
    assert repeat_problems(alone, earlier=earlier) == ()
    assert _codes(
        repeat_problems(alone, scope=RepeatScope.SAME_FAULT_SAME_SEASON, earlier=earlier)
    ) == [("penalties[0].points", "penalty_first_amount_on_repeat")]
    assert (
        repeat_problems(
            [_p("a", SLOW, 200)], scope=RepeatScope.SAME_FAULT_SAME_SEASON, earlier=earlier
        )
        == ()
    )


def test_amounts_outside_the_schedule_are_left_to_penalty_problems() -> None:
    assert repeat_problems([_p("a", SLOW, 150), _p("a", SLOW, 150)]) == ()


def _consistent(
    penalties: list[Penalty], scope: RepeatScope, earlier: dict[str, list[EarlierOffence]]
) -> bool:
    """Brute force: some order of each group prices every penalty right."""
    groups: dict[tuple[str, PenaltyKind | None], list[Penalty]] = {}
    for p in penalties:
        kind = None if scope is RepeatScope.ANY_FAULT_SAME_TOURNAMENT else p.kind
        groups.setdefault((p.player, kind), []).append(p)
    for (player, kind), members in groups.items():
        before = 0
        if scope is RepeatScope.SAME_FAULT_SAME_SEASON:
            before = sum(1 for e in earlier.get(player, ()) if e.kind is kind)

        def fits(p: Penalty, rank: int) -> bool:
            if CATALOGUE[p.kind].amount_rule not in (
                AmountRule.FIRST_THEN_REPEAT,
                AmountRule.WARNING_THEN_FIXED,
            ):
                return True
            allowed = {points_for_offence(p.kind, 1), points_for_offence(p.kind, 2)}
            return p.points not in allowed or p.points == points_for_offence(p.kind, rank)

        if not any(
            all(fits(p, before + j + 1) for j, p in enumerate(order))
            for order in itertools.permutations(members)
        ):
            return False
    return True


_KINDS = [SLOW, EXPOSED, FALSE_DEAL, PenaltyKind.HANDFUL_PRESENTATION]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from("ab"), st.sampled_from(_KINDS), st.booleans()), max_size=5),
    st.sampled_from(list(RepeatScope)),
    st.lists(st.tuples(st.sampled_from("ab"), st.sampled_from(_KINDS)), max_size=2),
)
def test_a_warning_exactly_when_no_order_prices_every_penalty(
    drawn: list[tuple[str, PenaltyKind, bool]],
    scope: RepeatScope,
    before: list[tuple[str, PenaltyKind]],
) -> None:
    penalties = [
        _p(player, kind, points_for_offence(kind, 2 if repeat else 1))
        for player, kind, repeat in drawn
    ]
    earlier: dict[str, list[EarlierOffence]] = {}
    for player, kind in before:
        earlier.setdefault(player, []).append(EarlierOffence(kind, "earlier"))
    problems = repeat_problems(penalties, scope=scope, earlier=earlier)
    assert (problems == ()) == _consistent(penalties, scope, earlier)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from("abc"), st.sampled_from(_KINDS)), max_size=8),
    st.sampled_from(list(RepeatScope)),
    st.randoms(use_true_random=False),
)
def test_penalties_priced_by_offence_number_are_never_flagged(
    offences: list[tuple[str, PenaltyKind]], scope: RepeatScope, rnd
) -> None:
    seen: dict[str, list[EarlierOffence]] = {}
    penalties = []
    for player, kind in offences:
        number = offence_number(kind, tournament="t", earlier=seen.get(player, []), scope=scope)
        penalties.append(_p(player, kind, points_for_offence(kind, number)))
        seen.setdefault(player, []).append(EarlierOffence(kind, "t"))
    rnd.shuffle(penalties)
    assert repeat_problems(penalties, scope=scope) == ()
