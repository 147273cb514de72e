"""Registry API: public reads of what the federation publishes, and the user's own roles."""

from __future__ import annotations

import django_filters
from django.http import Http404, HttpResponsePermanentRedirect
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, permissions, viewsets
from rest_framework.response import Response
from rest_framework.views import APIView

from core.digits import ascii_digits
from federation import selectors
from federation.access import scope_of, sees_private_data
from federation.api.serializers import (
    ClubSerializer,
    CommitteeSerializer,
    MeSerializer,
    PrivatePlayerSerializer,
    PublicLicenseeSerializer,
    PublicPlayerSerializer,
    SeasonSerializer,
    ZoneSerializer,
)
from federation.models import Club, Committee, Season, Zone
from federation.privacy import licences_shown, sees_hidden_record


class SeasonViewSet(viewsets.ReadOnlyModelViewSet):
    """Federation seasons (1 July – 30 June by default), newest first."""

    queryset = Season.objects.all()
    serializer_class = SeasonSerializer
    pagination_class = None


class ZoneViewSet(viewsets.ReadOnlyModelViewSet):
    """Zones: the groups of regional committees."""

    queryset = Zone.objects.all()
    serializer_class = ZoneSerializer
    pagination_class = None


class CommitteeViewSet(viewsets.ReadOnlyModelViewSet):
    """Regional committees (comités régionaux), filterable by zone number."""

    queryset = Committee.objects.select_related("zone")
    serializer_class = CommitteeSerializer
    filterset_fields = {"zone__number": ["exact"]}
    pagination_class = None


class ClubFilter(django_filters.FilterSet):
    committee = django_filters.NumberFilter(field_name="committee__number")
    search = django_filters.CharFilter(field_name="name", lookup_expr="icontains")

    class Meta:
        model = Club
        fields = ["committee", "search"]


class ClubViewSet(viewsets.ReadOnlyModelViewSet):
    """Clubs, by FFT club number; filter by committee number, search by name."""

    queryset = Club.objects.select_related("committee")
    serializer_class = ClubSerializer
    filterset_class = ClubFilter
    lookup_field = "number"


class LicenseeList(generics.ListAPIView):
    """The licensees of a season as the federation publishes them (name, licence
    number, club, committee). Defaults to the current season."""

    serializer_class = PublicLicenseeSerializer
    filter_backends: list = []

    @extend_schema(
        parameters=[
            OpenApiParameter("season", OpenApiTypes.STR, description="Season name, 2025-2026"),
            OpenApiParameter("club", OpenApiTypes.INT, description="FFT club number"),
            OpenApiParameter("committee", OpenApiTypes.INT, description="Committee number"),
            OpenApiParameter("search", OpenApiTypes.STR, description="Licence number or name"),
        ]
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        params = self.request.query_params
        season = (
            Season.objects.filter(name=params["season"]).first()
            if "season" in params
            else selectors.current_season()
        )
        if season is None:
            raise Http404(_("Unknown season."))
        qs = selectors.licences_for_season(season)
        club, committee = params.get("club", ""), params.get("committee", "")
        if ascii_digits(club):
            qs = qs.filter(club__number=int(club))
        if ascii_digits(committee):
            qs = qs.filter(club__committee__number=int(committee))
        # Without the players who asked for anonymity, but for those who read their record
        # by name: themselves, and staff and the club managers in their scope (docs/privacy.md).
        qs = licences_shown(qs, scope_of(self.request.user))
        return selectors.search_licences(qs, params.get("search", ""))


class PlayerDetail(APIView):
    """A player by licence number, with their licences. Birth date, e-mail and
    phone are shown only to the player, to federation staff, and to the staff and
    club manager whose scope covers the club of the player's current-season licence
    (not a past season's: a former club loses sight of a player who left)."""

    @extend_schema(
        responses={
            200: PrivatePlayerSerializer,
            301: OpenApiResponse(
                description="A record merged into another (docs/duplicates.md): `Location` "
                "is the kept record's URL."
            ),
        }
    )
    def get(self, request, licence_number: int):
        player = selectors.player_with_licences(licence_number)
        if player is None:
            raise Http404(_("No player with this licence number."))
        if player.merged_into_id is not None:  # a merged record: its link leads to the kept one
            kept = selectors.merge_target(licence_number)
            return HttpResponsePermanentRedirect(reverse("player-detail", args=[kept]))
        scope = scope_of(request.user)
        licence = selectors.current_licence(player)
        club = licence.club if licence else None
        if player.name_hidden and not sees_hidden_record(
            scope, player_id=player.pk, current_club=club
        ):  # a player who asked for anonymity is unknown outside their scope (docs/privacy.md)
            raise Http404(_("No player with this licence number."))
        private = sees_private_data(scope, player_id=player.pk, current_club=club)
        serializer = PrivatePlayerSerializer if private else PublicPlayerSerializer
        return Response(serializer(player).data)


class Me(APIView):
    """The signed-in user: their linked player and their roles."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=MeSerializer)
    def get(self, request):
        user = request.user
        data = {
            "username": user.username,
            "player": user.player,
            "roles": user.roles.select_related("zone", "committee", "club"),
        }
        return Response(MeSerializer(data).data)
