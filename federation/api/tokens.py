"""The signed-in user's API tokens: list them (never a secret), create one (its key is
in that response only), revoke one. A club manager gives the key to their club's
software, which sends ``Authorization: Token <key>``."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from knox.models import AuthToken
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response
from rest_framework.views import APIView

from federation.api_tokens import api_token_issue, api_token_revoke, api_tokens_of


class TokenOut(serializers.Serializer):
    token_key = serializers.CharField(help_text="The key's first 15 characters: its name.")
    created = serializers.DateTimeField()
    expiry = serializers.DateTimeField(allow_null=True, help_text="null: until revoked.")


class CreatedTokenOut(TokenOut):
    token = serializers.CharField(
        help_text="The key, shown in this response only: only its digest is stored."
    )


class TokenList(APIView):
    """Your API tokens (without their keys); POST creates one and shows its key once."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=TokenOut(many=True))
    def get(self, request):
        return Response(TokenOut(api_tokens_of(user=request.user), many=True).data)

    @extend_schema(request=None, responses={201: CreatedTokenOut})
    def post(self, request):
        if isinstance(request.auth, AuthToken):
            # A leaked token must not mint tokens that outlive its revocation.
            raise PermissionDenied(_("Create a token from a signed-in session, not with a token."))
        token, key = api_token_issue(user=request.user)
        body = CreatedTokenOut({"token": key, **TokenOut(token).data}).data
        return Response(body, status=status.HTTP_201_CREATED)


class TokenDetail(APIView):
    """Revoke one of your tokens: it stops working at once."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={204: None})
    def delete(self, request, token_key: str):
        api_token_revoke(user=request.user, token_key=token_key)
        return Response(status=status.HTTP_204_NO_CONTENT)
