"""The public, read-only API of the tournaments (no sign-in): the calendar (the
tournaments list, filtered and paginated), a tournament with its homologated ranking,
the clubs and the committees. The same reads as the public pages
(competitions/public/selectors.py); the same public facts (docs/public-pages.md)."""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import generics, serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from competitions.models import TournamentFormat
from competitions.public import selectors
from competitions.public.selectors import CalendarFilter, PublicStatus, PublicTournament
from federation.models import Club, Committee, Season

# --- shapes ----------------------------------------------------------------------------


class PublicNumberedRef(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()


class PublicClubRef(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    city = serializers.CharField()


class PublicOrganiser(serializers.Serializer):
    kind = serializers.CharField(help_text="federation, zone, committee or club")
    number = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()


def _organiser(t) -> dict:
    if t.organizer_club is not None:
        return {"kind": "club", "number": t.organizer_club.number, "name": t.organizer_club.name}
    if t.organizer_committee is not None:
        c = t.organizer_committee
        return {"kind": "committee", "number": c.number, "name": c.name}
    if t.organizer_zone is not None:
        z = t.organizer_zone
        return {"kind": "zone", "number": z.number, "name": z.name}
    return {"kind": "federation", "number": None, "name": "FFT"}


class PublicTournamentOut(serializers.Serializer):
    id = serializers.IntegerField()
    season = serializers.CharField(source="season.name")
    name = serializers.CharField()
    date = serializers.DateField()
    venue = serializers.CharField()
    format = serializers.CharField()
    stage = serializers.CharField()
    event_kind = serializers.CharField(help_text="free_tournament, team_match or festival")
    last_date = serializers.DateField(
        help_text="The day of its last session: the date unless its sessions span days."
    )
    organiser = serializers.SerializerMethodField()
    committee = serializers.SerializerMethodField()
    status = serializers.SerializerMethodField(
        help_text="upcoming, awaiting_results, homologated or not_homologated"
    )
    player_count = serializers.IntegerField(
        help_text="Players of the homologated results (0 before homologation)."
    )
    start_time = serializers.TimeField(allow_null=True)
    address = serializers.CharField()
    contact = serializers.CharField()
    entry_fee = serializers.DecimalField(
        max_digits=6, decimal_places=2, allow_null=True, help_text="In euros."
    )
    entry_cap = serializers.IntegerField(allow_null=True)
    online_entries = serializers.BooleanField(
        help_text="Licensees may enter online (the calendar's « S'inscrire »)."
    )
    entrant_count = serializers.IntegerField(
        help_text="Entries entered (not on the waiting list); who they are is not public."
    )

    @extend_schema_field(PublicOrganiser)
    def get_organiser(self, t) -> dict:
        return _organiser(t)

    def get_committee(self, t) -> int | None:
        committee = selectors.tournament_committee(t)
        return committee.number if committee else None

    def get_status(self, t) -> str:
        return selectors.public_status(t)


class PublicRankedPlayerOut(serializers.Serializer):
    name = serializers.CharField(source="identity.name")
    licence_number = serializers.IntegerField(
        source="identity.licence_number",
        allow_null=True,
        help_text="None for a player outside the registry (a non-licensee).",
    )
    licensed = serializers.BooleanField(help_text="Licensed for the season (else no points).")
    pcn = serializers.IntegerField()
    pp = serializers.IntegerField()


class PublicRankedEntryOut(serializers.Serializer):
    place = serializers.IntegerField()
    number = serializers.IntegerField()
    total = serializers.IntegerField()
    abandoned = serializers.BooleanField()
    players = PublicRankedPlayerOut(many=True)


class PublicSessionOut(serializers.Serializer):
    number = serializers.IntegerField()
    tables = serializers.IntegerField()
    tables_of_three = serializers.IntegerField()
    deals = serializers.IntegerField()


class PublicDeclaredSessionOut(serializers.Serializer):
    number = serializers.IntegerField()
    date = serializers.DateField()
    venue = serializers.CharField()


class PublicTournamentDetailOut(serializers.Serializer):
    id = serializers.IntegerField(source="tournament.pk")
    season = serializers.CharField(source="tournament.season.name")
    name = serializers.CharField(source="tournament.name")
    date = serializers.DateField(source="tournament.date")
    venue = serializers.CharField(source="tournament.venue")
    format = serializers.CharField(source="tournament.format")
    stage = serializers.CharField(source="tournament.stage")
    planned_sessions = serializers.IntegerField(source="tournament.planned_sessions")
    event_kind = serializers.CharField(
        source="tournament.event_kind", help_text="free_tournament, team_match or festival"
    )
    last_date = serializers.DateField(
        help_text="The day of its last session: the date unless its sessions span days."
    )
    declared_sessions = PublicDeclaredSessionOut(
        many=True, help_text="Each session's day and venue as declared; empty: one day, one venue."
    )
    organiser = serializers.SerializerMethodField()
    committee = serializers.SerializerMethodField()
    arbiter = serializers.CharField(source="arbiter.name")
    status = serializers.CharField()
    start_time = serializers.TimeField(source="tournament.start_time", allow_null=True)
    address = serializers.CharField(source="tournament.address")
    contact = serializers.CharField(source="tournament.contact")
    entry_fee = serializers.DecimalField(
        source="tournament.entry_fee", max_digits=6, decimal_places=2, allow_null=True
    )
    entry_cap = serializers.IntegerField(source="tournament.entry_cap", allow_null=True)
    online_entries = serializers.BooleanField(source="tournament.online_entries")
    entrant_count = serializers.IntegerField(
        help_text="Entries entered (not on the waiting list); who they are is not public."
    )
    sessions = PublicSessionOut(many=True, help_text="Empty unless homologated.")
    ranking = PublicRankedEntryOut(many=True, help_text="Empty unless homologated.")

    @extend_schema_field(PublicOrganiser)
    def get_organiser(self, page: PublicTournament) -> dict:
        return _organiser(page.tournament)

    def get_committee(self, page: PublicTournament) -> int | None:
        return page.committee.number if page.committee else None


class PublicClubOut(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    city = serializers.CharField()
    committee = PublicNumberedRef()
    address = serializers.CharField()
    playing_times = serializers.CharField()


class PublicCommitteeOut(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    zone = PublicNumberedRef(help_text="The zone (number and name).")


class PublicCommitteeDetailOut(PublicCommitteeOut):
    clubs = PublicClubRef(many=True)


class PublicCalendarQuery(serializers.Serializer):
    season = serializers.CharField(required=False, help_text="e.g. 2026-2027; all if absent.")
    committee = serializers.IntegerField(
        required=False, min_value=1, help_text="Its own tournaments and its clubs'."
    )
    club = serializers.IntegerField(required=False, min_value=1)
    format = serializers.ChoiceField(choices=TournamentFormat.choices, required=False)
    month = serializers.CharField(required=False, help_text="YYYY-MM, e.g. 2026-12.")
    status = serializers.ChoiceField(choices=PublicStatus.ALL, required=False)

    def validate_season(self, value: str) -> Season:
        season = Season.objects.filter(name=value).first()
        if season is None:
            raise serializers.ValidationError(gettext("Unknown season."))
        return season

    def validate_committee(self, value: int) -> Committee:
        committee = selectors.committee_numbered(value)
        if committee is None:
            raise serializers.ValidationError(gettext("Unknown committee."))
        return committee

    def validate_club(self, value: int) -> Club:
        club = selectors.club_numbered(value)
        if club is None:
            raise serializers.ValidationError(gettext("Unknown club."))
        return club

    def validate_month(self, value: str):
        try:
            return selectors.parse_month(value)
        except ValueError as error:
            raise serializers.ValidationError(
                gettext("The month is written YYYY-MM, e.g. 2026-12.")
            ) from error


# --- endpoints -------------------------------------------------------------------------


class CalendarList(generics.ListAPIView):
    """The calendar: declared and played tournaments by date, filtered by season,
    committee, club, format, month and public status; paginated (50 a page)."""

    permission_classes = [AllowAny]

    serializer_class = PublicTournamentOut

    def get_queryset(self):
        query = PublicCalendarQuery(data=self.request.query_params)
        query.is_valid(raise_exception=True)
        return selectors.calendar(CalendarFilter(**query.validated_data))

    @extend_schema(parameters=[PublicCalendarQuery])
    def get(self, request: Request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class TournamentDetail(APIView):
    """A tournament's public facts; once homologated, its sessions and its full ranking
    (each player's place, PCN and PP; non-licensees with no licence number)."""

    permission_classes = [AllowAny]

    @extend_schema(responses=PublicTournamentDetailOut)
    def get(self, request: Request, pk: int):
        page = selectors.public_tournament(pk)
        if page is None:
            raise Http404
        return Response(PublicTournamentDetailOut(page).data)


class ClubList(generics.ListAPIView):
    """The clubs, by number; ``committee`` keeps one committee's."""

    permission_classes = [AllowAny]

    serializer_class = PublicClubOut

    def get_queryset(self):
        clubs = selectors.clubs()
        committee = self.request.query_params.get("committee")
        if committee is not None:
            if not committee.isascii() or not committee.isdigit() or len(committee) > 6:
                raise serializers.ValidationError({"committee": [gettext("Unknown committee.")]})
            clubs = clubs.filter(committee__number=int(committee))
        return clubs

    @extend_schema(
        parameters=[
            OpenApiParameter("committee", OpenApiTypes.INT, description="A committee's number.")
        ]
    )
    def get(self, request: Request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class ClubDetail(generics.RetrieveAPIView):
    """A club: committee, address and playing times (its tournaments: the calendar with
    ``club``)."""

    permission_classes = [AllowAny]

    serializer_class = PublicClubOut
    queryset = selectors.clubs()
    lookup_field = "number"


class CommitteeList(generics.ListAPIView):
    """The committees, by number."""

    permission_classes = [AllowAny]

    serializer_class = PublicCommitteeOut
    queryset = selectors.committees()


class CommitteeDetail(APIView):
    """A committee and its clubs (its tournaments: the calendar with ``committee``)."""

    permission_classes = [AllowAny]

    @extend_schema(responses=PublicCommitteeDetailOut)
    def get(self, request: Request, number: int):
        committee = selectors.committee_numbered(number)
        if committee is None:
            raise Http404
        data = PublicCommitteeDetailOut(
            {
                "number": committee.number,
                "name": committee.name,
                "zone": committee.zone,
                "clubs": selectors.clubs_of(committee),
            }
        ).data
        return Response(data)
