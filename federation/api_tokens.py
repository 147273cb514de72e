"""API tokens of a user: issue (the key returned once, only its digest kept), list
(without any secret), revoke. Storage is django-rest-knox's: the SHA-512 digest of the
key and its first 15 characters (``token_key``), by which a client's token is named."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import QuerySet
from django.utils import timezone
from knox.crypto import hash_token
from knox.models import AuthToken
from knox.settings import CONSTANTS, knox_settings

from core.errors import NotFound
from federation.models import User


def api_token_issue(*, user: User, key: str | None = None) -> tuple[AuthToken, str]:
    """A new token for ``user`` and its key, which is never stored and never shown again.

    ``key`` is for the demo federation only (a key derived from its seed); every other
    key is random (knox: 64 hexadecimal characters).
    """
    if key is None:
        return AuthToken.objects.create(user=user)
    ttl: timedelta | None = knox_settings.TOKEN_TTL
    expiry: datetime | None = timezone.now() + ttl if ttl is not None else None
    token = AuthToken(
        digest=hash_token(key),
        token_key=key[: CONSTANTS.TOKEN_KEY_LENGTH],
        user=user,
        expiry=expiry,
    )
    token.save(force_insert=True)
    return token, key


def api_tokens_of(*, user: User) -> QuerySet[AuthToken]:
    """``user``'s tokens, newest first."""
    return AuthToken.objects.filter(user=user).order_by("-created")


def api_token_revoke(*, user: User, token_key: str) -> None:
    """Delete ``user``'s token named ``token_key``; another user's is not found."""
    deleted, _ = AuthToken.objects.filter(user=user, token_key=token_key).delete()
    if not deleted:
        raise NotFound(f"You have no token {token_key!r}.", params={"token": token_key})
