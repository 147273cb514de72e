"""The signed-in user's API tokens: list them (never a secret), create one (its key is
in that response only), revoke one. A club manager gives the key to their club's
software, which sends ``Authorization: Token <key>``. A club's software may also get a
token with the user's name and password (:class:`TokenFromPassword`), counted by the
same lockout as the sign-in page (django-axes, federation/login_limits.py)."""

from __future__ import annotations

from django.contrib.auth import authenticate
from django.contrib.auth.signals import user_logged_in
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from knox.models import AuthToken
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response
from rest_framework.views import APIView

from core.http.api_errors import problems_response
from core.problems import Problem
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


class PasswordIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=4096, trim_whitespace=False)


class TokenFromPassword(APIView):
    """A new API token for a user name and password, without a session (no CSRF): the
    key is in this response only. Failures count against the sign-in page's lockout
    (django-axes: one user name from one address, and one address whatever the names);
    a locked-out caller gets 429, as the page does."""

    authentication_classes: list = []
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        request=PasswordIn,
        responses={
            201: CreatedTokenOut,
            400: OpenApiResponse(
                description="A field missing, or the user name or password is wrong "
                "(`invalid_credentials`, which never says which)."
            ),
            429: OpenApiResponse(
                description="Too many failed sign-ins for this user name from this address, "
                "or from this address (`locked_out`, `address_locked_out`): wait the cool-off."
            ),
        },
        auth=[],
    )
    def post(self, request):
        given = PasswordIn(data=request.data)
        given.is_valid(raise_exception=True)
        # The Django request: django-axes marks it, and its middleware answers 429.
        user = authenticate(request._request, **given.validated_data)
        if user is None or not user.is_active:
            problem = Problem(field="", code="invalid_credentials", message=_INVALID)
            return problems_response([problem], status.HTTP_400_BAD_REQUEST)
        # As a sign-in: django-axes clears this user name's failures, last_login is set.
        user_logged_in.send(sender=user.__class__, request=request._request, user=user)
        request._request.session.flush()  # axes' access log made one: no session here
        token, key = api_token_issue(user=user)
        body = CreatedTokenOut({"token": key, **TokenOut(token).data}).data
        return Response(body, status=status.HTTP_201_CREATED)


_INVALID = "The user name or the password is wrong."
