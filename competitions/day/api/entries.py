"""The day's entries as JSON, for the club software of those who run the day
(docs/tournament-day.md, « Inscriptions »), through the services of
:mod:`competitions.day.entries`:

- ``GET /api/day/tournaments/{id}/entries/``: every entry by number (entered, waiting,
  withdrawn), its players, its fee and presence; for those who run the day and the staff
  above the organiser (``may_see_day``);
- ``POST`` the same: enter a player, a DUO or a team (licensees by number, others by name),
  or put it on the waiting list; those who run the day (``may_run_day``);
- ``POST …/entries/{number}/withdraw/``: withdraw an entry (a place freed goes to the first
  of the waiting list).

Anyone else gets a 404, whether the tournament exists or not; a reader above the organiser
who does not run the day, a 403 on a write.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from competitions.day import entries
from competitions.day.access import may_run_day, may_see_day
from competitions.models import EntryState, Tournament, TournamentEntry
from core.errors import NotFound, PermissionDenied


def _tournament(request, pk: int, *, write: bool) -> Tournament:
    """The tournament, if the caller sees its day (runs it, for a write); else a 404 (a
    403 to a reader who does not run it), revealing nothing."""
    tournament = (
        Tournament.objects.select_related("organizer_club__committee", "organizer_committee")
        .filter(pk=pk)
        .first()
    )
    if tournament is None or not may_see_day(request.user, tournament):
        raise NotFound("No such tournament.", code="day_tournament_not_found")
    if write and not may_run_day(request.user, tournament):
        raise PermissionDenied(
            "Only the organiser's managers and the tournament's arbiter run its entries.",
            code="day_entries_not_runner",
        )
    return tournament


class MemberOut(serializers.Serializer):
    order = serializers.IntegerField()
    licence_number = serializers.IntegerField(
        source="player.licence_number", allow_null=True, default=None
    )
    name = serializers.SerializerMethodField(help_text="« NAME First name », or as entered.")
    active = serializers.BooleanField(help_text="False once the entry is withdrawn.")

    def get_name(self, member) -> str:
        return entries.member_name(member)


class DayEntryOut(serializers.Serializer):
    number = serializers.IntegerField()
    state = serializers.ChoiceField(choices=EntryState.choices)
    team_name = serializers.CharField()
    fee_paid = serializers.BooleanField()
    present = serializers.BooleanField()
    entered_at = serializers.DateTimeField()
    withdrawn_at = serializers.DateTimeField(allow_null=True)
    members = MemberOut(many=True)


class DayEntryIn(serializers.Serializer):
    licence_numbers = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**31 - 1),
        required=False,
        default=list,
        max_length=4,
        help_text="The licensees, by licence number.",
    )
    names = serializers.ListField(
        child=serializers.CharField(max_length=entries.MAX_NAME),
        required=False,
        default=list,
        max_length=4,
        help_text="Players without a licence, by name.",
    )
    team_name = serializers.CharField(required=False, default="", allow_blank=True)
    waiting_list = serializers.BooleanField(
        required=False,
        default=False,
        help_text="When the tournament is full: put the entry on the waiting list (else a "
        "400 `day_entry_full` on this field).",
    )

    def to_request(self) -> entries.EntryRequest:
        data = self.validated_data
        return entries.EntryRequest(
            licence_numbers=tuple(data["licence_numbers"]),
            names=tuple(data["names"]),
            team_name=data["team_name"],
            waiting_list=data["waiting_list"],
        )


NOT_FOUND = OpenApiResponse(description="No such tournament, or not one whose day you see.")
NOT_RUNNER = OpenApiResponse(description="You see the day but do not run it.")


class DayEntries(APIView):
    """A tournament's entries: list them, or enter one."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="day_entry_list",
        summary="The tournament's entries, by number",
        responses={200: DayEntryOut(many=True), 404: NOT_FOUND},
    )
    def get(self, request, pk: int):
        tournament = _tournament(request, pk, write=False)
        rows = entries.tournament_entries(tournament)
        return Response(DayEntryOut(rows, many=True).data)

    @extend_schema(
        operation_id="day_entry_create",
        summary="Enter a player, a DUO or a team",
        description=(
            "The same checks as the entries page: licensed for the season, not entered "
            "twice, not suspended, the format's number of players, the cap (`waiting_list`); "
            "every problem located on its field (`licence_numbers[1]`, `names[0]`). A "
            "championship stage's entry goes through the championship's own rules."
        ),
        request=DayEntryIn,
        responses={201: DayEntryOut, 403: NOT_RUNNER, 404: NOT_FOUND},
    )
    def post(self, request, pk: int):
        tournament = _tournament(request, pk, write=True)
        body = DayEntryIn(data=request.data)
        body.is_valid(raise_exception=True)
        entry = entries.entry_enter(
            tournament=tournament, request=body.to_request(), by=request.user
        )
        row = entries.tournament_entries(tournament).get(pk=entry.pk)
        return Response(DayEntryOut(row).data, status=status.HTTP_201_CREATED)


class DayEntryWithdraw(APIView):
    """Withdraw an entry."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="day_entry_withdraw",
        summary="Withdraw an entry (its place goes to the first of the waiting list)",
        request=None,
        responses={
            200: inline_serializer(
                "DayEntryWithdrawn",
                {
                    "withdrawn": DayEntryOut(),
                    "promoted": DayEntryOut(
                        allow_null=True, help_text="The waiting entry given the place freed."
                    ),
                },
            ),
            403: NOT_RUNNER,
            404: NOT_FOUND,
            409: OpenApiResponse(description="`day_entry_withdrawn_already`."),
        },
    )
    def post(self, request, pk: int, number: int):
        tournament = _tournament(request, pk, write=True)
        found = TournamentEntry.objects.filter(tournament=tournament, number=number).first()
        if found is None:
            raise NotFound("No such entry.", code="day_entry_not_found")
        entry = entries.entry_of(tournament=tournament, entry_id=found.pk, by=request.user)
        promoted = entries.entry_withdraw(entry=entry, by=request.user)
        rows = entries.tournament_entries(tournament)
        return Response(
            {
                "withdrawn": DayEntryOut(rows.get(pk=entry.pk)).data,
                "promoted": DayEntryOut(rows.get(pk=promoted.pk)).data if promoted else None,
            }
        )
