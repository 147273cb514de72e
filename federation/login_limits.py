"""The limits of the sign-in and password pages, beside django-axes' per-username lockout.

- **Many usernames from one address** (credential stuffing): django-axes pauses one
  username from one address after ``AXES_FAILURE_LIMIT`` failures; past
  ``AXES_ADDRESS_FAILURE_LIMIT`` failed logins from one address, whatever the usernames,
  within ``AXES_COOLOFF_MINUTES``, every login from that address is paused too, for the
  same cool-off (:class:`LoginAttemptsHandler`, django-axes' ``AXES_HANDLER``: the same
  lockout page, the same ``manage.py axes_reset``). Counted from axes' own records of
  failed attempts, in the database.
- **Password reset e-mails**: at most ``PASSWORD_RESET_EMAILS_PER_HOUR`` per e-mail
  address and hour (:func:`password_reset_allowed`, counted in the default cache). Beyond,
  the form answers exactly as when it sends, and as for an address nobody has: nothing
  tells whether the address exists or was already sent a link.

The address is the one every limit uses (django-axes' ``AXES_CLIENT_IP_CALLABLE``,
``config.throttling.client_ip``).
"""

from __future__ import annotations

import hashlib

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_ip_address, get_client_username
from axes.models import AccessAttempt
from axes.signals import user_locked_out
from django.conf import settings
from django.core.cache import cache
from django.db.models import Sum
from django.utils import timezone

RESET_WINDOW_S = 3600


def address_failures(ip_address: str) -> int:
    """Failed logins from ``ip_address``, any usernames, within the cool-off."""
    since = timezone.now() - settings.AXES_COOLOFF_TIME
    return (
        AccessAttempt.objects.filter(ip_address=ip_address, attempt_time__gte=since).aggregate(
            failures=Sum("failures_since_start")
        )["failures"]
        or 0
    )


def address_paused(request) -> bool:
    """Has the request's address failed ``AXES_ADDRESS_FAILURE_LIMIT`` logins lately?"""
    address = getattr(request, "axes_ip_address", None) or get_client_ip_address(request)
    return address_failures(address) >= settings.AXES_ADDRESS_FAILURE_LIMIT


class LoginAttemptsHandler(AxesDatabaseHandler):
    """django-axes' database handler, with the per-address limit across usernames."""

    def is_locked(self, request, credentials=None) -> bool:
        return super().is_locked(request, credentials) or address_paused(request)

    def user_login_failed(self, sender, credentials: dict, request=None, **kwargs):
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is None or getattr(request, "axes_locked_out", False):
            return
        if address_paused(request):  # this failure reached the address's limit
            request.axes_locked_out = True
            request.axes_credentials = credentials
            user_locked_out.send(
                "axes",
                request=request,
                username=get_client_username(request, credentials),
                ip_address=request.axes_ip_address,
            )


def password_reset_allowed(email: str) -> bool:
    """Count a password reset asked for ``email`` (known or not); may a link be sent?
    At most ``PASSWORD_RESET_EMAILS_PER_HOUR`` per address and hour."""
    digest = hashlib.sha256(email.strip().casefold().encode()).hexdigest()
    key = f"password_reset:{digest}"
    cache.add(key, 0, timeout=RESET_WINDOW_S)
    try:
        count = cache.incr(key)
    except ValueError:  # the window ended between add and incr
        cache.set(key, 1, timeout=RESET_WINDOW_S)
        count = 1
    return count <= settings.PASSWORD_RESET_EMAILS_PER_HOUR
