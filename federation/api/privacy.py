"""``/api/federation/players/<licence>/privacy/``: a player's choice to appear by name in
public or not (federation/privacy.py, docs/privacy.md).

GET reads the choice, PUT ``{"name_hidden": true}`` records it: the player themselves,
federation staff, and zone or committee staff covering the player's current club. Anyone
else gets a 404, as for a licence number that does not exist (the choice is the
player's own business)."""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from federation.access import scope_of
from federation.models import Player
from federation.privacy import may_set_privacy, player_privacy_set


class PrivacyIn(serializers.Serializer):
    name_hidden = serializers.BooleanField(
        help_text="true: the player appears on the public pages, API and exports as "
        "« joueur ayant demandé l'anonymat », without licence number."
    )


class PrivacyOut(serializers.Serializer):
    licence_number = serializers.IntegerField()
    name_hidden = serializers.BooleanField()
    recorded_at = serializers.DateTimeField(source="name_hidden_changed_at", allow_null=True)


class PlayerPrivacy(APIView):
    """A player's objection to appearing by name in public: GET reads it, PUT
    `{"name_hidden": true}` records it (the player, federation staff, zone and committee
    staff covering the player's current club; 404 for anyone else). A hidden player is
    shown in public as « joueur ayant demandé l'anonymat », without licence number."""

    permission_classes = [permissions.IsAuthenticated]

    def _player(self, request, licence_number: int) -> Player:
        player = Player.objects.filter(licence_number=licence_number).first()
        if player is None or not may_set_privacy(scope_of(request.user), player):
            raise Http404(_("No player with this licence number."))
        return player

    @extend_schema(responses=PrivacyOut)
    def get(self, request, licence_number: int):
        return Response(PrivacyOut(self._player(request, licence_number)).data)

    @extend_schema(request=PrivacyIn, responses=PrivacyOut)
    def put(self, request, licence_number: int):
        player = self._player(request, licence_number)
        body = PrivacyIn(data=request.data)
        body.is_valid(raise_exception=True)
        player = player_privacy_set(
            player=player, hidden=body.validated_data["name_hidden"], by=request.user
        )
        return Response(PrivacyOut(player).data)
