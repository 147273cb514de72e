"""API: everything the federation holds about a player (portal/personal_data.py).

- ``GET /api/federation/me/data/``: the signed-in player's own document;
- ``GET /api/federation/players/<licence>/data/``: a player's document (federation staff,
  or the player themselves).
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.response import Response
from rest_framework.views import APIView

from portal.personal_data import own_player, personal_data, player_for


class MyData(APIView):
    """GET: everything the federation holds about the signed-in player (their identity,
    licences, accounts and roles, API tokens' metadata, results, PCN/PP, ranking lines,
    championships, titles, sanctions, privacy choice). 404 for an account without a
    player."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        return Response(personal_data(player=own_player(request.user), by=request.user))


class PlayerData(APIView):
    """GET (federation staff, or the player themselves): everything the federation holds
    about a player; 404 for anyone else, as for an unknown licence number."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, licence_number: int):
        player = player_for(licence_number=licence_number, by=request.user)
        return Response(personal_data(player=player, by=request.user))
