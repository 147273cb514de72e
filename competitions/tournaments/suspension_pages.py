"""The staff desk's suspension proposals (/bureau/suspensions/): the abandons without the
arbiter's accord that homologated results recorded, each proposed as a 12-month suspension
(chapter 4; docs/sanctions.md). Federation staff confirm one in one click (the sanction is
recorded by :func:`competitions.tournaments.suspension_proposals.suspension_proposal_confirm`)
or dismiss it with a reason; anyone else gets a 403, a proposal that does not exist a 404."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied as PageForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe

from competitions.models import SuspensionProposal
from competitions.tournaments.desk_pages import refusal_text
from competitions.tournaments.suspension_proposals import (
    LEAVING_SUSPENSION_MONTHS,
    suspension_proposal_confirm,
    suspension_proposal_dismiss,
    suspension_proposals_pending,
)
from core.errors import ServiceError
from core.problems import RuleViolation
from core.templatetags.french import human
from federation.access import scope_of


class DismissForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("reason for dismissing"),
        widget=forms.Textarea(attrs={"rows": 2}),
    )


def _federation_staff(request) -> None:
    if not scope_of(request.user).national:
        raise PageForbidden


@require_safe
@login_required
def suspensions(request, form: DismissForm | None = None, failed: int | None = None):
    _federation_staff(request)
    proposals = suspension_proposals_pending(by=request.user).order_by("tournament__date", "pk")
    return render(
        request,
        "desk/suspensions.html",
        {
            "proposals": proposals,
            "months": LEAVING_SUSPENSION_MONTHS,
            "form": form or DismissForm(),
            "failed": failed,
        },
        status=400 if form is not None else 200,
    )


@require_POST
@login_required
def suspension_confirm(request, pk: int):
    _federation_staff(request)
    proposal = get_object_or_404(SuspensionProposal, pk=pk)
    try:
        done = suspension_proposal_confirm(proposal=proposal, by=request.user)
    except (RuleViolation, ServiceError) as refusal:
        for line in refusal_text(refusal):
            messages.error(request, line)
    else:
        messages.success(
            request,
            _("%(player)s is suspended until %(ends)s included.")
            % {
                "player": f"{done.player.first_name} {done.player.last_name}",
                "ends": human(done.sanction.ends) if done.sanction else "",
            },
        )
    return redirect("desk-suspensions")


@require_POST
@login_required
def suspension_dismiss(request, pk: int):
    _federation_staff(request)
    proposal = get_object_or_404(SuspensionProposal, pk=pk)
    form = DismissForm(request.POST)
    if not form.is_valid():
        request.method = "GET"
        return suspensions(request, form=form, failed=proposal.pk)
    try:
        suspension_proposal_dismiss(
            proposal=proposal, by=request.user, reason=form.cleaned_data["reason"]
        )
    except (RuleViolation, ServiceError) as refusal:
        for line in refusal_text(refusal):
            messages.error(request, line)
    else:
        messages.success(request, _("The proposal is dismissed."))
    return redirect("desk-suspensions")
