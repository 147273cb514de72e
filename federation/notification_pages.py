"""« Mes notifications » (/compte/notifications/): the player's choice of e-mails, and
the one-click unsubscribe page every notice links to (federation/notification_choices.py).

The unsubscribe URL needs no sign-in: its signed token is the proof. A GET shows one
button (mail scanners follow GET links: a GET that unsubscribed would unsubscribe
people who never clicked); a POST unsubscribes, whether from that button or from the
mail client's own one-click (RFC 8058: ``List-Unsubscribe=One-Click`` posted to the
same URL, no cookie, no CSRF token: the view is CSRF-exempt, the token is the proof).
A bad token is a 400 page that names nobody."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from federation.models import NotificationKind
from federation.notification_choices import (
    KINDS,
    BadUnsubscribeToken,
    notification_choices,
    notification_choices_set,
    notification_unsubscribe_by_token,
    read_unsubscribe_token,
)


@require_http_methods(["GET", "POST"])
@login_required
def my_notifications(request):
    """The player's choices as checkboxes; saving sets every kind (unticked: off)."""
    user = request.user
    if user.player_id is None:  # only a player receives them: nothing to choose here
        raise Http404("This account is not linked to a player.")
    if request.method == "POST":
        notification_choices_set(
            user=user, choices={kind: kind in request.POST for kind in KINDS}, by=user
        )
        return redirect(f"{request.path}?enregistre=1")
    choices = notification_choices(user=user, by=user)
    context = {
        "kinds": [(kind, NotificationKind(kind).label, choices[kind]) for kind in KINDS],
        "saved": request.GET.get("enregistre") == "1",
        "has_address": bool(user.email),
    }
    return render(request, "federation/my_notifications.html", context)


@csrf_exempt
@require_http_methods(["GET", "POST"])
def notification_unsubscribe_page(request, token: str):
    """GET: the confirmation button; POST: unsubscribed (again: the same page)."""
    try:
        if request.method == "POST":
            _user, kind = notification_unsubscribe_by_token(token=token)
        else:
            _user_id, kind = read_unsubscribe_token(token)
    except BadUnsubscribeToken:
        return render(request, "federation/unsubscribe_invalid.html", status=400)
    context = {"label": NotificationKind(kind).label, "done": request.method == "POST"}
    return render(request, "federation/unsubscribe.html", context)
