"""Engine endpoints an arbiter's or a club's software can call: score a deal,
total a score sheet, plan a movement, rank entries, list penalties.

Stateless and public: they compute, they store nothing.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.response import Response
from rest_framework.views import APIView

from competitions.api.engine_serializers import (
    DealIn,
    DealScoreOut,
    ScoreSheetIn,
    SheetTotalsOut,
)
from competitions.engine.penalties import CATALOGUE, CURRENT_SCHEDULE
from competitions.engine.scoring import score_deal
from competitions.engine.sheets import total_sheet


class EngineView(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []


class ScoreDeal(EngineView):
    """Score one deal at 3, 4 or 5 players (chapter 1 and the 5-player rules):
    the base value x, each seat's mark (summing to zero) and the breakdown."""

    @extend_schema(request=DealIn, responses=DealScoreOut)
    def post(self, request):
        serializer = DealIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        score = score_deal(serializer.to_deal())
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
    deal is refused with the deal and the reason."""

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
            }
        )


class PenaltyCatalogue(EngineView):
    """The penalties of the arbitration code (chapter 4, article 26) with their
    French label, their source and their amounts in the current schedule."""

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
