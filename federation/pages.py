"""The person's space (/compte/): where each role works, reached after signing in.

Federation staff → the staff desk (/bureau/, which links to the admin); club managers,
committee and zone staff → their tournaments (staff get a link to the desk there); a
player linked to a licence → their ranking page, which links to their privacy choice
(/compte/confidentialite/) and their data (/compte/mes-donnees/, portal/personal_data.py).
Roles are read once through federation.access.scope_of."""

from __future__ import annotations

from axes.helpers import get_cool_off, get_failure_limit
from django.conf import settings
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponseRedirect, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_safe

from core.messages import localize
from federation.access import scope_of
from federation.login_limits import address_paused, password_reset_allowed
from federation.models import Player
from federation.notification_choices import site_email
from federation.privacy import player_privacy_set


@require_safe
@login_required
def my_space(request):
    """Redirects to the work of the person's broadest role: federation staff to their
    desk, zone and committee staff to their homologation queue, club managers to their
    tournaments, a player to their ranking page; an account with no role and no licence
    gets a page saying so (and how to change their password)."""
    scope = scope_of(request.user)
    if scope.national:
        return redirect("desk-home")
    if scope.is_staff:
        return redirect("desk-homologation")
    if scope.manages_anything:
        return redirect("my-tournaments")
    if scope.player_id is not None:
        licence_number = Player.objects.values_list("licence_number", flat=True).get(
            pk=scope.player_id
        )
        return redirect("ranking-player-page", licence_number=licence_number)
    return render(request, "registration/my_space.html")


def locked_out(request, original_response=None, credentials=None):
    """django-axes' answer to a locked-out sign-in (AXES_LOCKOUT_CALLABLE): a 429 page in
    the site's design saying how long to wait, for this account or for every account from
    this address (federation/login_limits.py); never whether the account exists."""
    cool_off = get_cool_off(request)
    context = {
        "failure_limit": get_failure_limit(request, credentials),
        "address_limit": settings.AXES_ADDRESS_FAILURE_LIMIT if address_paused(request) else None,
        "minutes": max(1, round(cool_off.total_seconds() / 60)) if cool_off else None,
    }
    # A token asked for with a password: the API's shape (the browsable API's /api/auth/
    # login is an HTML form: the page).
    if request.path.startswith("/api/") and not request.path.startswith("/api/auth/"):
        return api_locked_out(context, settings.AXES_HTTP_RESPONSE_CODE)
    return render(
        request,
        "registration/locked_out.html",
        context,
        status=settings.AXES_HTTP_RESPONSE_CODE,
    )


def api_locked_out(context: dict, status_code: int) -> JsonResponse:
    """The same refusal as the page, in the API's one error shape (core/http/api_errors.py)."""
    if context["address_limit"]:
        code, limit = "address_locked_out", context["address_limit"]
        english = f"After {limit} failed sign-ins from this address, signing in is paused."
    else:
        code, limit = "locked_out", context["failure_limit"]
        english = f"After {limit} wrong passwords, signing in to this account from here is paused."
    minutes = context["minutes"] or 1
    english += f" Try again in {minutes} minutes."
    message = localize(code, english, {"limit": limit, "minutes": minutes})
    body = {"errors": [{"field": None, "code": code, "message": message}]}
    return JsonResponse(body, status=status_code)


class PasswordResetForm(auth_forms.PasswordResetForm):
    """Django's form, its e-mail with a ``Message-ID`` on the site's domain."""

    def send_mail(self, subject_template_name, email_template_name, context, from_email,
                  to_email, html_email_template_name=None):  # fmt: skip
        subject = "".join(render_to_string(subject_template_name, context).splitlines())
        body = render_to_string(email_template_name, context)
        message = site_email(subject, body, to=[to_email])
        if html_email_template_name is not None:
            html = render_to_string(html_email_template_name, context)
            message.attach_alternative(html, "text/html")
        message.send()


class PasswordResetView(auth_views.PasswordResetView):
    """Django's « Mot de passe oublié », with at most ``PASSWORD_RESET_EMAILS_PER_HOUR``
    e-mails per address and hour: beyond, the same answer and nothing sent
    (federation/login_limits.py)."""

    form_class = PasswordResetForm

    def form_valid(self, form):
        if password_reset_allowed(form.cleaned_data["email"]):
            return super().form_valid(form)
        return HttpResponseRedirect(self.get_success_url())


@require_http_methods(["GET", "POST"])
@login_required
def privacy_page(request):
    """/compte/confidentialite/: the signed-in player's choice to appear by name on the
    public pages or not (federation/privacy.py), and the way to their data."""
    scope = scope_of(request.user)
    player = Player.objects.filter(pk=scope.player_id).first() if scope.player_id else None
    if player is None:
        raise Http404(gettext("This account is not linked to a licence."))
    if request.method == "POST":
        hidden = request.POST.get("name_hidden") == "1"
        player_privacy_set(player=player, hidden=hidden, by=request.user)
        return redirect("privacy-page")
    return render(request, "registration/privacy.html", {"player": player})
