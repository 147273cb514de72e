"""The settings the federation decides (docs/rulebook-settings.md): each default is today's
reading, each other value changes the outcome, and a version stored before they existed
reads as the defaults."""

from __future__ import annotations

from dataclasses import replace

import pytest

from competitions.rules.engine.movements.planning import max_positions
from competitions.rules.engine.movements.settings import (
    MovementSettings,
    ShortTableRule,
    TeamPositionLimit,
)
from competitions.rules.engine.penalties import (
    EarlierOffence,
    PenaltyKind,
    RepeatScope,
    SheetFaultCharge,
    check_penalty,
    offence_number,
    score_sheet_fault,
)
from competitions.rules.engine.scoring import (
    ChelemAfterAnnounced,
    Contract,
    Deal,
    Side,
    score_deal,
)
from competitions.rules.engine.tables import Orientation, TableSize
from competitions.rules.pcn.allocation import RankedEntry, allocate, without_entries
from competitions.rules.pcn.scales import scale
from competitions.rules.rulebook import (
    Arbitration,
    Awards,
    CappedPlaces,
    Championships,
    Movements,
    Rulebook,
    Scoring,
    SuspendedPlayerResults,
    TieAcrossLastPaidPlace,
    UnapprovedRegionalRules,
    UnlicensedPlaces,
)
from core.problems import RuleViolation
from core.vocabulary import Format, StageKind

DEFAULT = Rulebook.default()


def with_awards(**changes: object) -> Rulebook:
    return replace(DEFAULT, awards=replace(DEFAULT.awards, **changes))  # type: ignore[arg-type]


# --- the settings document ------------------------------------------------------------------


def test_the_defaults_are_todays_readings() -> None:
    book = DEFAULT.to_dict()
    assert book["scoring"] == {"defence_chelem_after_announced_chelem": "add"}
    assert book["awards"] == {
        "tie_across_last_paid_place": "floor_each",
        "capped_places": "clamp_each",
        "unlicensed_places": "keep",
    }
    assert book["arbitration"] == {
        "score_sheet_fault_charge": "per_player",
        "repeat_scope": "same_fault_same_tournament",
        "suspended_player_results": "flag",
    }
    assert book["championships"] == {"unapproved_regional_rules": "void"}
    assert book["movements"]["team_position_limit"] == "movement_rows"
    assert Rulebook.from_dict(book) == DEFAULT


def test_a_version_stored_before_the_settings_reads_as_the_defaults() -> None:
    stored = DEFAULT.to_dict()
    for block in ("scoring", "awards", "arbitration", "championships"):
        del stored[block]
    del stored["movements"]["team_position_limit"]
    assert Rulebook.from_dict(stored) == DEFAULT
    partial = DEFAULT.to_dict()
    partial["awards"] = {"capped_places": "reduce_from_capped_first"}
    read = Rulebook.from_dict(partial)
    assert read.awards == Awards(capped_places=CappedPlaces.REDUCE_FROM_CAPPED_FIRST)


def test_every_other_value_is_read_and_a_wrong_one_located() -> None:
    data = DEFAULT.to_dict()
    data["scoring"]["defence_chelem_after_announced_chelem"] = "replace"
    data["awards"] = {
        "tie_across_last_paid_place": "share_only",
        "capped_places": "reduce_from_capped_first",
        "unlicensed_places": "pass_to_next",
    }
    data["arbitration"] = {
        "score_sheet_fault_charge": "per_table",
        "repeat_scope": "same_fault_same_season",
        "suspended_player_results": "refuse",
    }
    data["championships"] = {"unapproved_regional_rules": "warning"}
    data["movements"]["team_position_limit"] = "played_positions"
    read = Rulebook.from_dict(data)
    assert read.scoring == Scoring(ChelemAfterAnnounced.REPLACE)
    assert read.awards == Awards(
        TieAcrossLastPaidPlace.SHARE_ONLY,
        CappedPlaces.REDUCE_FROM_CAPPED_FIRST,
        UnlicensedPlaces.PASS_TO_NEXT,
    )
    assert read.arbitration == Arbitration(
        SheetFaultCharge.PER_TABLE,
        RepeatScope.SAME_FAULT_SAME_SEASON,
        SuspendedPlayerResults.REFUSE,
    )
    assert read.championships == Championships(UnapprovedRegionalRules.WARNING)
    assert read.movements.team_position_limit is TeamPositionLimit.PLAYED_POSITIONS
    data["awards"]["capped_places"] = "halve"
    with pytest.raises(RuleViolation) as refused:
        Rulebook.from_dict(data)
    assert [(p.field, p.code) for p in refused.value.problems] == [
        ("awards.capped_places", "unknown_value")
    ]


# --- scoring: a defence chelem after an announced chelem --------------------------------------


def test_a_defence_chelem_after_an_announced_chelem_adds_or_replaces() -> None:
    deal = Deal(
        TableSize.FOUR,
        Contract.GARDE,
        Orientation.E,
        oudlers=0,
        attack_points=3,
        chelem_announced=True,
        chelem_made_by=Side.DEFENCE,
    )
    added = score_deal(deal, DEFAULT.scoring.rules())
    assert added.breakdown.chelem == -400  # −200 announced and failed, −200 defence chelem
    replacing = Scoring(ChelemAfterAnnounced.REPLACE).rules()
    replaced = score_deal(deal, replacing)
    assert replaced.breakdown.chelem == -200
    # an announced chelem merely failed (the defence took a trick, not all) is −200 either way
    failed = replace(deal, chelem_made_by=None, attack_points=40, oudlers=1)
    assert score_deal(failed, replacing).breakdown.chelem == -200


# --- movements: what the 7-position limit counts in a team tournament -----------------------


def test_the_team_limit_counts_movement_rows_or_played_positions() -> None:
    rows = DEFAULT.movements.settings()
    played = replace(
        DEFAULT.movements, team_position_limit=TeamPositionLimit.PLAYED_POSITIONS
    ).settings()
    assert max_positions(64, Format.DUO, rows) == 6  # rows 2–7
    assert max_positions(64, Format.DUO, played) == 7  # rows 2–8
    # individuals play from the first row: 7 either way
    assert max_positions(64, Format.INDIVIDUAL, rows) == 7
    assert max_positions(64, Format.INDIVIDUAL, played) == 7
    # an explicit short-table choice wins over the season's
    assert Movements(ShortTableRule.BEST_EFFORT).settings(ShortTableRule.STRICT) == (
        MovementSettings(short_table_rule=ShortTableRule.STRICT)
    )


# --- awards: a tie across the last paid place, capped places, unlicensed places -------------


def test_a_tie_across_the_last_paid_place_gets_the_floor_or_its_share() -> None:
    # 40 players, 10 tables: 20 paid places, the 20th worth 50; two tied at 20th
    ranking = [RankedEntry(f"e{i}", min(i, 20)) for i in range(1, 22)]
    ranking += [RankedEntry(f"e{i}", i) for i in range(22, 41)]

    def tied(book: Rulebook) -> set[int]:
        result = allocate(ranking, Format.INDIVIDUAL, 10, StageKind.ORDINARY, book)
        return {a.pcn_per_player for a in result.awards if a.place == 20}

    assert tied(DEFAULT) == {50}
    assert tied(with_awards(tie_across_last_paid_place=TieAcrossLastPaidPlace.SHARE_ONLY)) == {25}


def test_capped_places_are_clamped_or_reduced_from_the_capped_first() -> None:
    clamped = scale(Format.INDIVIDUAL, 100, StageKind.ORDINARY, DEFAULT)
    assert clamped.values[:20] == (1500,) * 20  # 4000 × 0.95^19 = 1509
    assert clamped.values[20] == 1433
    book = with_awards(capped_places=CappedPlaces.REDUCE_FROM_CAPPED_FIRST)
    reduced = scale(Format.INDIVIDUAL, 100, StageKind.ORDINARY, book)
    assert reduced.values[:4] == (1500, 1425, 1353, 1286)
    assert reduced.beneficiaries == clamped.beneficiaries
    # with an index: the first place is the cap, the next ones reduced from it
    final = scale(Format.INDIVIDUAL, 100, StageKind.REGIONAL_FINAL, book)
    assert final.values[:2] == (3000, 2850)
    # below the cap nothing changes
    assert scale(Format.INDIVIDUAL, 10, StageKind.ORDINARY, book) == scale(
        Format.INDIVIDUAL, 10, StageKind.ORDINARY, DEFAULT
    )


def test_an_unlicensed_entry_taken_out_moves_the_next_ones_up() -> None:
    ranking = [RankedEntry("a", 1), RankedEntry("x", 2), RankedEntry("b", 3)]
    ranking += [RankedEntry("c", 3), RankedEntry("d", 5)]
    assert without_entries(ranking, {"x"}) == [
        RankedEntry("a", 1),
        RankedEntry("b", 2),
        RankedEntry("c", 2),
        RankedEntry("d", 4),
    ]
    assert without_entries(ranking, {"b"}) == [
        RankedEntry("a", 1),
        RankedEntry("x", 2),
        RankedEntry("c", 3),
        RankedEntry("d", 4),
    ]


# --- arbitration: score-sheet faults and repeats --------------------------------------------


def test_a_score_sheet_fault_is_charged_per_player_or_shared_by_the_table() -> None:
    kind = PenaltyKind.SCORE_SHEET_TOTAL_NOT_ZERO
    players = ["1", "2", "3", "4"]
    each = score_sheet_fault(kind, players, "total 10", DEFAULT.arbitration.schedule())
    assert [p.points for p in each] == [100] * 4
    table = Arbitration(score_sheet_fault_charge=SheetFaultCharge.PER_TABLE).schedule()
    shared = score_sheet_fault(kind, players, "total 10", table)
    assert [p.points for p in shared] == [25] * 4
    assert [p.points for p in score_sheet_fault(kind, players[:3], "x", table)] == [34] * 3
    assert check_penalty(shared[0], table) == shared[0]
    with pytest.raises(RuleViolation):
        check_penalty(shared[0], DEFAULT.arbitration.schedule())


def test_what_counts_as_a_repeat() -> None:
    touching = PenaltyKind.TOUCHING_CARDS_DURING_DEAL
    earlier = [
        EarlierOffence(PenaltyKind.EXPOSED_CARD, "t1"),
        EarlierOffence(touching, "t0"),
    ]

    def number(scope: RepeatScope) -> int:
        return offence_number(touching, tournament="t1", earlier=earlier, scope=scope)

    assert number(DEFAULT.arbitration.repeat_scope) == 1  # first of its kind in t1
    assert number(RepeatScope.ANY_FAULT_SAME_TOURNAMENT) == 2  # the exposed card in t1
    assert number(RepeatScope.SAME_FAULT_SAME_SEASON) == 2  # the same fault in t0
