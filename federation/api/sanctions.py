"""API: sanctions against players (``/api/federation/sanctions/``): federation staff
record them; federation, zone and committee staff list those of the players in their
scope; nobody else sees them (docs/sanctions.md)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from core.messages import localize
from federation.access import scope_of
from federation.models import Player, Sanction, SanctionKind
from federation.sanctions import REASON_MAX_LENGTH, sanction_record, sanctions_visible_to


class SanctionIn(serializers.Serializer):
    licence_number = serializers.IntegerField(min_value=1, max_value=2**31 - 1)
    kind = serializers.ChoiceField(choices=SanctionKind.choices)
    starts = serializers.DateField(
        help_text="The day of the sanction, or the first day of a suspension."
    )
    ends = serializers.DateField(
        required=False,
        allow_null=True,
        default=None,
        help_text="The last day of a suspension (included); empty for a warning or an exclusion.",
    )
    reason = serializers.CharField(
        allow_blank=True,
        trim_whitespace=False,
        help_text=f"Why (required, {REASON_MAX_LENGTH} characters at most); never public.",
    )

    def validate_licence_number(self, value: int) -> Player:
        player = Player.objects.filter(licence_number=value).first()
        if player is None:
            raise serializers.ValidationError(
                localize(
                    "unknown_player",
                    f"No player has licence {value}.",
                    {"licence": value},
                ),
                code="unknown_player",
            )
        return player


class SanctionOut(serializers.ModelSerializer):
    licence_number = serializers.IntegerField(source="player.licence_number")
    last_name = serializers.CharField(source="player.last_name")
    first_name = serializers.CharField(source="player.first_name")
    decided_by = serializers.CharField(source="decided_by.username", allow_null=True, default=None)

    class Meta:
        model = Sanction
        fields = [
            "id",
            "licence_number",
            "last_name",
            "first_name",
            "kind",
            "starts",
            "ends",
            "reason",
            "decided_by",
            "created_at",
        ]


class ReadsSanctions(permissions.BasePermission):
    """Reading: federation, zone and committee staff; recording: federation staff."""

    message = _(
        "Only federation staff may record sanctions; staff may list those of their players."
    )

    def has_permission(self, request, view) -> bool:
        if not (request.user and request.user.is_authenticated):
            return False
        scope = scope_of(request.user)
        return scope.is_staff if request.method in permissions.SAFE_METHODS else scope.national


class SanctionList(APIView):
    """Sanctions against players, newest first; POST records one (federation staff)."""

    permission_classes = [ReadsSanctions]

    @extend_schema(
        operation_id="sanction_list",
        summary="The sanctions of the players in the caller's scope",
        description=(
            "Federation staff see every sanction; zone and committee staff those of the "
            "players whose licence of the current season is in a club of their scope; club "
            "managers, players and the public none (403)."
        ),
        responses=SanctionOut(many=True),
    )
    def get(self, request):
        sanctions = sanctions_visible_to(scope_of(request.user))
        return Response(SanctionOut(sanctions, many=True).data)

    @extend_schema(
        operation_id="sanction_create",
        summary="Record a sanction against a player (federation staff)",
        description=(
            "A warning or an exclusion is given on one day (`starts`, no `ends`); a "
            "suspension has its first and last days (`ends` after `starts`, both included): "
            "a player suspended on a championship stage's day may not enter it, and results "
            "naming a player suspended on the tournament's day carry a warning. Every "
            "problem is refused at once, located (400); nothing is stored."
        ),
        request=SanctionIn,
        responses={201: SanctionOut},
    )
    def post(self, request):
        data = SanctionIn(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        sanction = sanction_record(
            player=values["licence_number"],
            kind=values["kind"],
            starts=values["starts"],
            ends=values["ends"],
            reason=values["reason"],
            by=request.user,
        )
        return Response(SanctionOut(sanction).data, status=status.HTTP_201_CREATED)
