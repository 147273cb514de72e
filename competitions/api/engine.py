"""Engine endpoints an arbiter's or a club's software can call: score a deal,
total a score sheet, plan a movement, rank entries, list penalties.

Stateless and public: they compute, they store nothing. One exception reads stored
results: :class:`OffenceCost` (``/api/tournaments/<pk>/offence-cost/``), for the
tournament's arbiter and managers.
"""

from __future__ import annotations

import random

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.response import Response
from rest_framework.views import APIView

from competitions.api.engine_serializers import (
    BigPrizeIn,
    BigPrizePlanOut,
    DealScoreOut,
    MovementIn,
    MovementPlanOut,
    OffenceCostIn,
    OffenceCostOut,
    PlacingOut,
    RankIn,
    ScoreDealIn,
    ScoreSheetIn,
    SheetTotalsOut,
)
from competitions.models import Tournament
from competitions.rulebooks import movements_in_force
from competitions.rules.engine.big_prize import (
    check_big_prize_plan,
    final_positions,
    finalists_of,
)
from competitions.rules.engine.movements.planning import plan_movement
from competitions.rules.engine.movements.settings import MovementSettings, ShortTableRule
from competitions.rules.engine.penalties import CATALOGUE, CURRENT_SCHEDULE, PenaltyKind
from competitions.rules.engine.scoring import score_deal
from competitions.rules.engine.seating import Entrant, random_seating
from competitions.rules.engine.sheets import total_sheet
from competitions.rules.engine.sitting_out import score_deal_sitting_out
from competitions.rules.engine.standings import RankingMode, rank
from competitions.tournaments import repeats
from core.vocabulary import Format


class EngineView(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []


class ScoreDeal(EngineView):
    """Score one deal at 3, 4 or 5 players (chapter 1 and the 5-player rules):
    the base value x, each seat's mark (summing to zero) and the breakdown. At a
    table of 5 inside a tournament, ``sitting_out`` names the mort: the four
    others play the 4-player game and the mort marks 0."""

    @extend_schema(request=ScoreDealIn, responses=DealScoreOut)
    def post(self, request):
        serializer = ScoreDealIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        sitting_out = serializer.validated_data.get("sitting_out")
        deal = serializer.to_deal()
        score = (
            score_deal(deal) if sitting_out is None else score_deal_sitting_out(deal, sitting_out)
        )
        breakdown = score.breakdown
        return Response(
            {
                "base": score.base,
                "marks": {seat.value: mark for seat, mark in score.marks.items()},
                "breakdown": None
                if breakdown is None
                else {
                    **{
                        name: getattr(breakdown, name)
                        for name in DealScoreOut().fields["breakdown"].fields
                        if name != "total"
                    },
                    "total": breakdown.total,
                },
            }
        )


class TotalSheet(EngineView):
    """Check and total one score sheet (feuille de marque). Each line carries the
    deal's facts, the marks written on paper, or both (then they must agree). A
    sheet that does not sum to zero, misses a player or holds an impossible
    deal is refused with the deal and the reason. A line may record a revoke in defence
    and the taker's choice (``defence_revoke``): scored as usual, or not scored (0 for
    everyone, not a deal played)."""

    @extend_schema(request=ScoreSheetIn, responses=SheetTotalsOut)
    def post(self, request):
        serializer = ScoreSheetIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        totals = total_sheet(serializer.to_sheet())
        return Response(
            {
                "table": totals.table,
                "position": totals.position,
                "table_size": int(totals.table_size),
                "deal_marks": [
                    {seat.value: mark for seat, mark in marks.items()}
                    for marks in totals.deal_marks
                ],
                "players": [
                    {
                        "seat": total.seat.value,
                        "player": total.player,
                        "plus": total.plus,
                        "minus": total.minus,
                        "balance": total.balance,
                    }
                    for total in totals.players.values()
                ],
                "deals_played": totals.deals_played,
                "sitting_out": [None if s is None else s.value for s in totals.sitting_out],
                "five_player_game": totals.five_player_game,
            }
        )


class PenaltyCatalogue(EngineView):
    """The penalties of the arbitration code (chapter 4, article 26) with their
    French label, their source and their amounts in the current schedule."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        schedule = {
            name: (value.total_seconds() // 60 if hasattr(value, "total_seconds") else value)
            for name, value in (
                (field, getattr(CURRENT_SCHEDULE, field))
                for field in CURRENT_SCHEDULE.__dataclass_fields__
            )
        }
        kinds = [
            {
                "kind": info.kind.value,
                "label_fr": info.label_fr,
                "source": info.source,
                "amount_rule": info.amount_rule.value,
            }
            for info in CATALOGUE.values()
        ]
        return Response({"kinds": kinds, "schedule": schedule})


class PlanMovement(EngineView):
    """Produce a checked movement plan (chapter 2): Howell at 3 and 4 tables, the
    FFT movement from 5 tables with its special cases, tables of 3 when the
    players are not a multiple of 4 (or, on request, tables of 5 with a mort),
    teams starting at the second position.
    Returns every position's tables, each starting number's personal sheet
    (position → table, orientation) and every repeat: who sits at a table of 3
    again, and when. A request the regulations cannot honour (too many positions
    for the tables, a repeated meeting) is refused with the reason."""

    @extend_schema(request=MovementIn, responses=MovementPlanOut)
    def post(self, request):
        serializer = MovementIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        fmt = Format(data["format"])
        season_choices = movements_in_force()
        rule = ShortTableRule(data.get("short_table_rule") or season_choices.short_table_rule)
        settings = MovementSettings(
            short_table_rule=rule,
            team_position_limit=season_choices.team_position_limit,
            tables_of_five=data["tables_of_five"],
        )
        plan = plan_movement(data["players"], data["positions"], fmt, settings)
        body = {
            "format": plan.format.value,
            "kind": plan.kind.value,
            "tables": plan.tables,
            "players": plan.players,
            "short_table_rule": plan.short_table_rule.value,
            "vacant_numbers": list(plan.vacant),
            "teams": [list(team) for team in plan.teams],
            "positions": [
                {
                    "position": seats.position,
                    "tables": [
                        {
                            "table": t.table,
                            "N": t.north,
                            "S": t.south,
                            "E": t.east,
                            "W": t.west,
                            **({"fifth": t.fifth} if plan.fifth_players else {}),
                        }
                        for t in seats.tables
                    ],
                }
                for seats in plan.positions
            ],
            "personal_sheets": {
                str(number): [
                    {
                        "position": line.position,
                        "table": line.table,
                        "orientation": line.orientation.value,
                    }
                    for line in plan.personal_sheet(number)
                ]
                for number in plan.numbers
            },
            "repeats": [
                {
                    "kind": repeat.kind.value,
                    "players": list(repeat.players),
                    "positions": list(repeat.positions),
                    "tables": list(repeat.tables),
                }
                for repeat in plan.repeats
            ],
        }
        if plan.fifth_players:
            body["fifth_players"] = list(plan.fifth_players)
            body["fifth_step"] = plan.fifth_step
            body["homologable"] = plan.homologable
        if "seed" in data:
            size = {"individual": 1, "duo": 2, "team4": 4}[fmt.value]
            entrants = [
                Entrant(
                    id=str(k + 1),
                    members=tuple(f"{k + 1}.{m + 1}" for m in range(size)) if size > 1 else (),
                )
                for k in range(data["players"] // size)
            ]
            seating = random_seating(plan, entrants, random.Random(data["seed"]))
            body["seating"] = [
                {"number": a.number, "table": a.table, "orientation": a.orientation.value,
                 "entrant": a.entrant, "player": a.player}
                for a in seating.assignments
            ]  # fmt: skip
        return Response(body)


class RankEntries(EngineView):
    """Rank a tournament's entries (players, duos or teams of 4): decreasing
    total after penalties (chapter 4, article 26), abandoners last (article 27),
    team totals as the sum of their members', and in championship mode the
    article 29 tie-breaks (best position score, contracts made, then garde
    contre and garde sans made). Places use the 1224 convention."""

    @extend_schema(request=RankIn, responses=PlacingOut(many=True))
    def post(self, request):
        serializer = RankIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        ranking = rank(serializer.to_entries(), RankingMode(serializer.validated_data["mode"]))
        return Response(
            [
                {
                    "place": p.place,
                    "entry_id": p.entry_id,
                    "total": p.total,
                    "score": p.score,
                    "penalty_points": p.penalty_points,
                    "abandoned": p.abandoned,
                    "tied": p.tied,
                    "separated_by": p.separated_by.value if p.separated_by else None,
                }
                for p in ranking.placings
            ]
        )


class PlanBigPrize(EngineView):
    """« Tournoi à grosse dotation » (chapter 2): what everyone plays, the final positions
    of the best scores with their starting layout (table t: N the t-th best, S the
    (t + T)-th, E the (t + 2T)-th, W the (t + 3T)-th) and, with a ranking, who plays on."""

    @extend_schema(request=BigPrizeIn, responses=BigPrizePlanOut)
    def post(self, request):
        serializer = BigPrizeIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        plan = check_big_prize_plan(data["formula"], data["finalists"], format="individual")
        chosen = None
        if "ranking" in data:
            ranking = [(row["entry"], row["place"]) for row in data["ranking"]]
            chosen = list(finalists_of(ranking, plan))
        body = {
            "formula": plan.formula.value,
            "finalists": plan.finalists,
            "common_positions": plan.common_positions,
            "common_deals_per_position": plan.common_deals_per_position,
            "final_positions": plan.final_positions,
            "final_deals_per_position": plan.final_deals_per_position,
            "positions": [
                [
                    {"table": t.table, "N": t.north, "S": t.south, "E": t.east, "W": t.west}
                    for t in position
                ]
                for position in final_positions(plan)
            ],
            "finalist_entries": chosen,
        }
        return Response(body)


class OffenceCost(APIView):
    """What an offence costs a player now (chapter 4, *récidive*): its rank under the
    season's ``arbitration.repeat_scope`` and its amount under the season's schedule. The
    offences already recorded against the player in this tournament are given
    (``in_tournament``: the results are not stored while it is played); under
    ``same_fault_same_season`` the player's penalties in the season's earlier tournaments
    are read from their stored results. For the tournament's arbiter, its organiser's
    managers and the staff above them (403 for anyone else)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=OffenceCostIn, responses=OffenceCostOut)
    def post(self, request, pk: int):
        tournament = get_object_or_404(Tournament.objects.select_related("season"), pk=pk)
        repeats.require_offence_reader(tournament, request.user)  # a 403 whatever is sent
        serializer = OffenceCostIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        cost = repeats.offence_cost(
            tournament=tournament,
            licence_number=data["licence_number"],
            kind=PenaltyKind(data["kind"]),
            in_tournament=[PenaltyKind(k) for k in data["in_tournament"]],
            by=request.user,
        )
        return Response(
            {
                "kind": cost.kind.value,
                "licence_number": cost.licence_number,
                "repeat_scope": cost.scope.value,
                "offence_number": cost.offence_number,
                "repeat": cost.offence_number > 1,
                "points": cost.points,
                "amount_rule": cost.amount_rule.value,
                "counted_in_tournament": cost.counted_in_tournament,
                "counted_before": cost.counted_before,
            }
        )
