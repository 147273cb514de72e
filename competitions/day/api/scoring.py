"""The phone's endpoints at a table, under the table's QR token (no account): the table's
sheet, a deal, the position totals. Thin: each calls one service of
:mod:`competitions.day.scoring`; refusals come back in the API's one error shape, in
French (``core.http.api_errors``).

Anonymous work is bounded per table: a genuine token is held to ``table_entry`` requests
per period (``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``), whatever address it comes
from (a club's room is often one address behind its box); a token that does not verify
costs one signature check and counts against the address, as any anonymous request.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

from django.core import signing
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle
from rest_framework.views import APIView

from competitions.day import scoring
from competitions.day.table_tokens import SALT
from core.http.throttles import rate

SCOPE = "table_entry"


class _AddressThrottle(AnonRateThrottle):
    """The anonymous requests of an address (the API's ``anon`` rate)."""

    scope = "anon"

    def get_rate(self) -> str | None:
        return rate(self.scope)


class TableTokenThrottle(SimpleRateThrottle):
    """Requests per genuine table token; per address for anything else."""

    scope = SCOPE

    def get_rate(self) -> str | None:
        return rate(self.scope)

    def allow_request(self, request, view) -> bool:
        token = view.kwargs.get("token", "")
        try:
            self.table = signing.Signer(salt=SALT).unsign(token)
        except signing.BadSignature:
            fallback = _AddressThrottle()
            allowed = fallback.allow_request(request, view)
            self.wait = fallback.wait  # type: ignore[method-assign]
            return allowed
        return super().allow_request(request, view)

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.table}


def table_wait(request, token: str) -> int | None:
    """None when this token (or, for a token that does not verify, this address) may have
    one more request answered; else the seconds to wait. For the table's page, which is
    not a DRF view but costs the same reads."""
    throttle = TableTokenThrottle()
    view = SimpleNamespace(kwargs={"token": token})
    if throttle.allow_request(request, view):
        return None
    return max(1, math.ceil(throttle.wait() or 1))


class TableSeatOut(serializers.Serializer):
    seat = serializers.CharField()
    number = serializers.IntegerField()
    name = serializers.CharField()


class TableDealOut(serializers.Serializer):
    deal = serializers.IntegerField()
    line = serializers.DictField()
    marks = serializers.DictField(child=serializers.IntegerField())
    provenance = serializers.CharField()


class TableSheetOut(serializers.Serializer):
    tournament = serializers.CharField()
    session = serializers.IntegerField()
    position = serializers.IntegerField()
    table = serializers.IntegerField()
    seats = TableSeatOut(many=True)
    deals_per_position = serializers.IntegerField()
    deals = TableDealOut(many=True)
    totals = serializers.DictField(child=serializers.IntegerField())
    position_totals = serializers.DictField(child=serializers.IntegerField(), allow_null=True)
    totals_allowed = serializers.BooleanField()


class TableDealIn(serializers.Serializer):
    deal = serializers.IntegerField()
    line = serializers.DictField(help_text="The deal in the score-sheets document's form.")
    client_key = serializers.CharField(required=False, allow_blank=True, max_length=64)


class TableDealAckOut(serializers.Serializer):
    deal = serializers.IntegerField()
    marks = serializers.DictField(child=serializers.IntegerField())
    created = serializers.BooleanField()
    totals = serializers.DictField(child=serializers.IntegerField())
    entered = serializers.ListField(child=serializers.IntegerField())


class TableTotalsIn(serializers.Serializer):
    totals = serializers.DictField(help_text="Each seat's score for the position.")
    client_key = serializers.CharField(required=False, allow_blank=True, max_length=64)


class TableTotalsOut(serializers.Serializer):
    totals = serializers.DictField(child=serializers.IntegerField())


def sheet_json(sheet: scoring.TableSheet) -> dict:
    return {
        "tournament": sheet.tournament.name,
        "session": sheet.session.number,
        "position": sheet.position,
        "table": sheet.table,
        "seats": [{"seat": s.seat, "number": s.number, "name": s.name} for s in sheet.seats],
        "deals_per_position": sheet.deals_per_position,
        "deals": [
            {"deal": d.deal, "line": d.line, "marks": d.marks, "provenance": d.provenance}
            for d in sheet.deals
        ],
        "totals": dict(sheet.totals),
        "position_totals": sheet.position_totals,
        "totals_allowed": sheet.totals_allowed,
    }


class TableView(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []
    throttle_classes = [TableTokenThrottle]


class TableSheet(TableView):
    """The table's sheet at its position: seats, deals kept, running totals."""

    @extend_schema(responses=TableSheetOut)
    def get(self, request, token: str):
        return Response(sheet_json(scoring.table_sheet(token=token)))


class TableDeal(TableView):
    """Enter one deal of the table (201; the same deal sent again: 200, nothing written)."""

    @extend_schema(request=TableDealIn, responses={200: TableDealAckOut, 201: TableDealAckOut})
    def post(self, request, token: str):
        given = TableDealIn(data=request.data)
        given.is_valid(raise_exception=True)
        ack = scoring.deal_enter(
            token=token,
            deal=given.validated_data["deal"],
            line=given.validated_data["line"],
            client_key=given.validated_data.get("client_key", ""),
        )
        return Response(ack.as_json(), status=201 if ack.created else 200)


class TableTotals(TableView):
    """Enter the table's position totals, where the tournament allows them."""

    @extend_schema(request=TableTotalsIn, responses={200: TableTotalsOut})
    def post(self, request, token: str):
        given = TableTotalsIn(data=request.data)
        given.is_valid(raise_exception=True)
        totals = scoring.totals_enter(
            token=token,
            totals=given.validated_data["totals"],
            client_key=given.validated_data.get("client_key", ""),
        )
        return Response({"totals": totals})
