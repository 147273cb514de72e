"""The e-mails a player chooses: their choices, the one-click
unsubscribe, and sending each notice at most once.

A signed-in user linked to a player chooses, per kind (:class:`NotificationKind`:
``tournament_homologated``, ``step_changed``), whether to be e-mailed; nobody is
subscribed by default. The choice is a row per (user, kind) with ``enabled``.

**Unsubscribing.** Every notice carries a link and the RFC 2369 / RFC 8058 headers
(``List-Unsubscribe: <url>``, ``List-Unsubscribe-Post: List-Unsubscribe=One-Click``).
The URL holds a token signed with ``django.core.signing`` (salt below): the user's id
and the kind, nothing stored, nothing to sign in for. A POST to it unsubscribes at once
(the mail client's one click, or the button of the page); a GET shows a page with that
one button, because mail scanners follow GET links and would otherwise unsubscribe
people who never asked. A tampered token is a 400 page that names nobody.

**Sending once.** The senders (competitions/tournaments/player_notices.py,
rankings/season/step_notices.py) hand :func:`notices_send_once` one message per recipient
about one subject (``subject_key``: a tournament's revision, a ranking's snapshot). It
claims the recipients with one ``INSERT … ON CONFLICT DO NOTHING RETURNING`` into
:class:`NotificationSent` and sends only the claimed ones, over one connection; if the
mail server fails half-way, the claims of the unsent messages are dropped and the error
raised, so the task's retry sends those and no other. A task run twice sends nothing
the second time. An address the server refuses (``SMTPRecipientsRefused``) stays
recorded and the others are sent: a bad address never holds up its chunk's retries.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping
from smtplib import SMTPRecipientsRefused
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage, EmailMultiAlternatives, get_connection
from django.core.mail.message import make_msgid
from django.db import connection, transaction
from django.db.models import QuerySet
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from core.errors import PermissionDenied
from core.problems import Problem, RuleViolation
from federation.access import Actor
from federation.models import NotificationKind, NotificationSent, NotificationSubscription, User

SALT = "federation.notifications.unsubscribe"
KINDS: tuple[str, ...] = tuple(NotificationKind.values)


# --- choices -----------------------------------------------------------------------------


def notification_choices(*, user: User, by: Actor | None) -> dict[str, bool]:
    """The user's choice for every kind (False where they never chose): one query. Only
    the user themselves reads them."""
    _require_self(user, by)
    return _choices(user)


def _choices(user: User) -> dict[str, bool]:
    chosen = dict(NotificationSubscription.objects.filter(user=user).values_list("kind", "enabled"))
    return {kind: chosen.get(kind, False) for kind in KINDS}


def _require_self(user: User, by: Actor | None) -> None:
    """Only the user themselves, signed in and linked to a player, chooses their e-mails."""
    if by is None or not by.is_authenticated or by.pk != user.pk:
        raise PermissionDenied("Only the user themselves may choose their e-mails.")
    if user.player_id is None:
        raise PermissionDenied(
            "Only an account linked to a player receives these e-mails.",
            code="notifications_need_player",
        )


def _require_kind(kind: str, field: str = "kind") -> None:
    if kind not in KINDS:
        raise RuleViolation.single(
            field,
            "unknown_notification_kind",
            f"{kind!r} is not a kind of e-mail; the kinds are: {', '.join(KINDS)}.",
            {"kind": kind, "kinds": ", ".join(KINDS)},
        )


def _set(user_id: int, kind: str, enabled: bool) -> None:
    NotificationSubscription.objects.update_or_create(
        user_id=user_id, kind=kind, defaults={"enabled": enabled}
    )


@transaction.atomic
def notification_choices_set(
    *, user: User, choices: Mapping[str, bool], by: Actor | None
) -> dict[str, bool]:
    """Set the user's choices (kinds not named keep theirs); every choice is checked
    before anything is written. Returns every kind's choice."""
    _require_self(user, by)
    problems = []
    for kind, enabled in choices.items():
        if kind not in KINDS:
            problems.append(
                Problem(
                    field=kind,
                    code="unknown_notification_kind",
                    message=f"{kind!r} is not a kind of e-mail; the kinds are: {', '.join(KINDS)}.",
                    params={"kind": kind, "kinds": ", ".join(KINDS)},
                )
            )
        elif not isinstance(enabled, bool):
            problems.append(
                Problem(
                    field=kind,
                    code="not_a_boolean",
                    message="A choice is true or false.",
                    params={},
                )
            )
    if problems:
        raise RuleViolation(problems)
    for kind, enabled in choices.items():
        _set(user.pk, kind, enabled)
    return _choices(user)


@transaction.atomic
def notification_subscribe(*, user: User, kind: str, by: Actor | None) -> None:
    """Subscribe the user to ``kind`` (again: nothing changes)."""
    _require_self(user, by)
    _require_kind(kind)
    _set(user.pk, kind, True)


@transaction.atomic
def notification_unsubscribe(*, user: User, kind: str, by: Actor | None) -> None:
    """Unsubscribe the user from ``kind`` (not subscribed: nothing changes)."""
    _require_self(user, by)
    _require_kind(kind)
    _set(user.pk, kind, False)


# --- the one-click unsubscribe -----------------------------------------------------------


class BadUnsubscribeToken(Exception):
    """The token is not one this site signed (tampered, truncated, another salt)."""


def unsubscribe_token(user_id: int, kind: str) -> str:
    return signing.dumps({"u": user_id, "k": kind}, salt=SALT, compress=False)


def read_unsubscribe_token(token: str) -> tuple[int, str]:
    """The (user id, kind) the token was signed for; :class:`BadUnsubscribeToken` if not ours."""
    try:
        data = signing.loads(token, salt=SALT)
    except signing.BadSignature as error:
        raise BadUnsubscribeToken(str(error)) from None
    if not (isinstance(data, dict) and isinstance(data.get("u"), int) and data.get("k") in KINDS):
        raise BadUnsubscribeToken("unexpected payload")
    return data["u"], data["k"]


def unsubscribe_url(user_id: int, kind: str) -> str:
    return settings.SITE_URL.rstrip("/") + reverse(
        "notification-unsubscribe", args=[unsubscribe_token(user_id, kind)]
    )


def unsubscribe_headers(url: str) -> dict[str, str]:
    """RFC 2369 and RFC 8058: the mail client's own one-click unsubscribe."""
    return {"List-Unsubscribe": f"<{url}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}


@transaction.atomic
def notification_unsubscribe_by_token(*, token: str) -> tuple[User | None, str]:
    """Unsubscribe whoever the signed token names from its kind (no sign-in: the token
    is the proof). Returns the user (None: the account is gone) and the kind; already
    unsubscribed is no error."""
    user_id, kind = read_unsubscribe_token(token)
    user = User.objects.filter(pk=user_id).first()
    if user is not None:
        _set(user.pk, kind, False)
    return user, kind


# --- sending each notice once ------------------------------------------------------------


def subscribed_user_ids(kind: str) -> QuerySet[NotificationSubscription, Any]:
    """A filter's values: the users subscribed to ``kind`` (a subquery, not a list)."""
    return NotificationSubscription.objects.filter(kind=kind, enabled=True).values("user_id")


def _claim(kind: str, subject_key: str, user_ids: list[int]) -> set[int]:
    """Record the notices as sent, in the caller's transaction; the users not recorded
    before (a concurrent claimer waits on the unique index, then gets nothing)."""
    if not user_ids:
        return set()
    table = NotificationSent._meta.db_table
    now = timezone.now()
    rows = ", ".join(["(%s, %s, %s, %s)"] * len(user_ids))
    params: list[int | str | dt.datetime] = []
    for user_id in user_ids:
        params += [user_id, kind, subject_key, now]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (user_id, kind, subject_key, sent_at) VALUES {rows} "
            "ON CONFLICT (user_id, kind, subject_key) DO NOTHING RETURNING user_id",
            params,
        )
        return {row[0] for row in cursor.fetchall()}


def notices_send_once(
    *,
    kind: str,
    subject_key: str,
    user_ids: Iterable[int],
    message_for: Callable[[int], EmailMessage | None],
) -> int:
    """Send ``message_for(user_id)`` to each user not yet sent this notice (``kind``,
    ``subject_key``), over one connection; the number sent. ``message_for`` returning
    None skips the user (not recorded: a later run may send it)."""
    user_ids = sorted(set(user_ids))
    sent: set[int] = set()
    refused: set[int] = set()  # the server refused the address itself: kept, never retried
    failure: Exception | None = None
    with transaction.atomic():
        claimed = _claim(kind, subject_key, user_ids)
        messages = {uid: message_for(uid) for uid in user_ids if uid in claimed}
        if any(message is not None for message in messages.values()):
            try:
                with get_connection() as mail:  # one connection for the whole chunk
                    for uid, message in messages.items():
                        if message is None:
                            continue
                        try:
                            mail.send_messages([message])
                        except SMTPRecipientsRefused:
                            refused.add(uid)
                            continue
                        sent.add(uid)
            except OSError as error:  # SMTPException, ConnectionError: the retry sends the rest
                failure = error
        unsent = [uid for uid in claimed if uid not in sent and uid not in refused]
        if unsent:
            NotificationSent.objects.filter(
                kind=kind, subject_key=subject_key, user_id__in=unsent
            ).delete()
    if failure is not None:
        raise failure
    return len(sent)


def site_message_id() -> str:
    """A ``Message-ID`` on the site's domain (``SITE_URL``'s host): Django's default names
    the machine (a container's random name), which spam filters hold against a message."""
    return make_msgid(domain=urlsplit(settings.SITE_URL).hostname or "localhost")


def site_email(
    subject: str, body: str, *, to: list[str], headers: dict[str, str] | None = None
) -> EmailMultiAlternatives:
    """An e-mail of the site: every message the service writes is built here (its
    ``Message-ID`` on the site's domain). Sent by a task queued on commit
    (``core.tasks.send_on_commit``), never inside the transaction that decided it."""
    return EmailMultiAlternatives(
        subject, body, to=to, headers={"Message-ID": site_message_id(), **(headers or {})}
    )


def notice(*, user_id: int, address: str, kind: str, template: str, context: dict) -> EmailMessage:
    """One notice to one address in the site's language (French): its subject from
    ``<template>_subject.txt`` (one line), its body from ``<template>.txt`` with its
    unsubscribe link (``unsubscribe``), and the one-click unsubscribe headers."""
    url = unsubscribe_url(user_id, kind)
    with translation.override(settings.LANGUAGE_CODE):
        lines = render_to_string(f"{template}_subject.txt", context).strip().splitlines()
        subject = " ".join(lines)  # one line (French texts keep their no-break spaces)
        body = render_to_string(f"{template}.txt", {**context, "unsubscribe": url})
    return site_email(subject, body, to=[address], headers=unsubscribe_headers(url))
