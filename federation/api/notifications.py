"""The signed-in player's choice of e-mails (federation/notification_choices.py):
GET reads them, PUT sets the kinds it names (true: subscribed). Only one's own: the
URL names no one, and an account not linked to a player gets a 403."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from federation.notification_choices import notification_choices, notification_choices_set


class NotificationChoices(serializers.Serializer):
    tournament_homologated = serializers.BooleanField(
        help_text="E-mail me my result when a tournament I played is homologated or corrected."
    )
    step_changed = serializers.BooleanField(
        help_text="E-mail me when the official ranking changes my step."
    )


class NotificationChoicesView(APIView):
    """Your notification e-mails: which you receive. PUT names some or all kinds, each
    true or false (JSON booleans); the kinds not named keep their choice."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=NotificationChoices)
    def get(self, request):
        return Response(notification_choices(user=request.user, by=request.user))

    @extend_schema(request=NotificationChoices, responses=NotificationChoices)
    def put(self, request):
        return Response(
            notification_choices_set(user=request.user, choices=request.data, by=request.user)
        )
