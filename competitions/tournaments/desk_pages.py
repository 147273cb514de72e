"""The staff desk's homologation queue (/bureau/homologation/): the tournaments waiting
in the caller's scope, each tournament's review page, and the buttons that call the
homologation services (homologate the revision reviewed, refuse with reasons, correct
with a new revision, homologate several clean tournaments at once).

Every action goes through ``competitions.homologation``, as the API does: the same
permission checks, the same championship stage's checks, history and transaction. Their
refusals are shown in the reader's language through ``core.messages``.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied as PageForbidden
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from competitions import homologation
from competitions.models import Tournament, TournamentFormat, TournamentStatus
from competitions.tournaments import access, review, selectors
from competitions.tournaments.results_pages import ResultsUploadForm, guessed_source
from core.errors import Conflict, ServiceError
from core.messages import error_message, problem_message
from core.problems import RuleViolation
from federation.access import scope_of

PAGE_SIZE = 25


class QueueForm(forms.Form):
    status = forms.ChoiceField(
        label=gettext_lazy("state"),
        choices=[("", gettext_lazy("any")), *TournamentStatus.choices],
        required=False,
    )
    committee = forms.IntegerField(label=gettext_lazy("committee no."), min_value=0, required=False)
    club = forms.IntegerField(label=gettext_lazy("club no."), min_value=0, required=False)
    format = forms.ChoiceField(
        label=gettext_lazy("format"),
        choices=[("", gettext_lazy("any")), *TournamentFormat.choices],
        required=False,
    )
    date_from = forms.DateField(label=gettext_lazy("from"), required=False)
    date_to = forms.DateField(label=gettext_lazy("to"), required=False)

    def filters(self) -> review.QueueFilter:
        data = self.cleaned_data
        return review.QueueFilter(
            status=data["status"],
            committee=data["committee"],
            club=data["club"],
            format=data["format"],
            date_from=data["date_from"],
            date_to=data["date_to"],
        )


class RefusalForm(forms.Form):
    reasons = forms.CharField(
        label=gettext_lazy("reasons (one per line)"), widget=forms.Textarea(attrs={"rows": 4})
    )

    def reasons_list(self) -> list[str]:
        return [line for line in self.cleaned_data["reasons"].splitlines() if line.strip()]


class CorrectionForm(ResultsUploadForm):
    reason = forms.CharField(
        label=gettext_lazy("reason for the correction"), widget=forms.Textarea(attrs={"rows": 3})
    )


def _staff(request):
    """The caller's scope; a 403 page for anyone who is not staff."""
    scope = scope_of(request.user)
    if not scope.is_staff:
        raise PageForbidden
    return scope


def _reviewable(request, pk: int) -> Tournament:
    """The tournament, if the caller's staff role covers its organiser (else 403)."""
    tournament = get_object_or_404(selectors.tournaments(), pk=pk)
    if not access.may_homologate(_staff(request), tournament):
        raise PageForbidden
    return tournament


def refusal_text(error: Exception) -> list[str]:
    """A service's refusal as the sentences a person reads."""
    if isinstance(error, RuleViolation):
        return [problem_message(p) for p in error.problems]
    assert isinstance(error, ServiceError)
    return [error_message(error)]


def _status_of(error: Exception) -> int:
    if isinstance(error, RuleViolation):
        return 400
    return 409 if isinstance(error, Conflict) else 403


@require_safe
@login_required
def queue(request):
    scope = _staff(request)
    form = QueueForm(request.GET or {"status": TournamentStatus.RESULTS_SUBMITTED})
    filters = form.filters() if form.is_valid() else review.QueueFilter()
    page = Paginator(review.homologation_queue(scope, filters), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "desk/homologation_queue.html",
        {"form": form, "page": page, "query": query.urlencode()},
        status=200 if form.is_valid() else 400,
    )


def _tournament_page(request, tournament: Tournament, *, status: int = 200, **extra):
    revisions = list(tournament.revisions.select_related("submitted_by").order_by("-number"))
    context: dict = {"tournament": tournament, "revisions": revisions, **extra}
    if revisions:
        latest = revisions[0]
        reviewed = homologation.revision_review(tournament=tournament, revision=latest)
        context.update(
            review=reviewed,
            warnings=_located(reviewed.warnings),
            conditions=_located(reviewed.conditions),
            points_problems=_located(reviewed.points_problems),
        )
        numbers = {r.number: r for r in revisions}
        new = numbers.get(_number(request.GET.get("new")) or 0, latest)
        old = numbers.get(_number(request.GET.get("old")) or 0)
        if old is None and len(revisions) > 1:
            old = revisions[1] if new is latest else numbers.get(new.number - 1)
        if old is not None and old is not new:
            context["diff"] = review.revision_diff(old, new)
    context.setdefault("refusal_form", RefusalForm())
    context.setdefault("correction_form", CorrectionForm())
    return render(request, "desk/tournament_review.html", context, status=status)


def _located(problems) -> list[tuple[str, str]]:
    """Each problem's place and its text in the reader's language."""
    return [(p.field, problem_message(p)) for p in problems]


def _number(value: str | None) -> int | None:
    return int(value) if value and value.isascii() and value.isdigit() else None


@require_safe
@login_required
def tournament_review(request, pk: int):
    return _tournament_page(request, _reviewable(request, pk))


@require_http_methods(["GET", "POST"])
@login_required
def tournament_homologate(request, pk: int):
    """GET: the confirmation page (which revision, what will happen); POST: homologate
    the revision reviewed (a newer one sent since is refused by the service)."""
    tournament = _reviewable(request, pk)
    if request.method == "GET":
        return _homologation_confirmation(request, tournament)
    try:
        homologation.tournament_homologate(
            tournament=tournament, by=request.user, revision=_number(request.POST.get("revision"))
        )
    except (RuleViolation, ServiceError) as refusal:
        return _tournament_page(
            request, tournament, status=_status_of(refusal), refusal=refusal_text(refusal)
        )
    messages.success(request, _("Tournament homologated: its points are awarded."))
    return redirect("desk-tournament", pk=pk)


def _homologation_confirmation(request, tournament: Tournament):
    latest = tournament.revisions.order_by("-number").first()
    if tournament.status != TournamentStatus.RESULTS_SUBMITTED or latest is None:
        return redirect("desk-tournament", pk=tournament.pk)
    reviewed = _number(request.GET.get("revision"))
    if reviewed != latest.number:  # a newer revision came (or none was named): read it first
        messages.error(
            request,
            _("Revision %(number)s is the latest: read it before homologating.")
            % {"number": latest.number},
        )
        return redirect("desk-tournament", pk=tournament.pk)
    points = homologation.revision_review(tournament=tournament, revision=latest)
    players = [p for e in points.entries for p in e.players]
    return render(
        request,
        "desk/homologate_confirm.html",
        {
            "tournament": tournament,
            "revision": latest,
            "players": len(players),
            "awarded": sum(1 for p in players if p.pcn),
            "conditions": _located(points.conditions),
            "warnings": len(points.warnings),
        },
    )


@require_POST
@login_required
def tournament_refuse(request, pk: int):
    tournament = _reviewable(request, pk)
    form = RefusalForm(request.POST)
    if not form.is_valid():
        return _tournament_page(request, tournament, status=400, refusal_form=form)
    try:
        homologation.tournament_refuse(
            tournament=tournament, reasons=form.reasons_list(), by=request.user
        )
    except (RuleViolation, ServiceError) as refusal:
        return _tournament_page(
            request,
            tournament,
            status=_status_of(refusal),
            refusal=refusal_text(refusal),
            refusal_form=form,
        )
    messages.success(request, _("Homologation refused: the organiser may send results again."))
    return redirect("desk-tournament", pk=pk)


@require_POST
@login_required
def tournament_correct(request, pk: int):
    tournament = _reviewable(request, pk)
    form = CorrectionForm(request.POST, request.FILES)
    if not form.is_valid():
        return _tournament_page(request, tournament, status=400, correction_form=form)
    upload = form.cleaned_data["file"]
    content = upload.read()
    source = form.cleaned_data["source"] or guessed_source(upload.name, content)
    try:
        corrected = homologation.tournament_correct(
            tournament=tournament,
            content=content,
            source=source,
            reason=form.cleaned_data["reason"],
            by=request.user,
        )
    except (RuleViolation, ServiceError) as refusal:
        return _tournament_page(
            request,
            tournament,
            status=_status_of(refusal),
            refusal=refusal_text(refusal),
            correction_form=form,
        )
    if corrected.created:
        messages.success(
            request,
            _("Correction recorded as revision %(number)s: the points are replaced.")
            % {"number": corrected.revision.number},
        )
    else:
        messages.info(request, _("These results are those homologated already: nothing changed."))
    return redirect("desk-tournament", pk=pk)


@require_http_methods(["GET", "POST"])
@login_required
def bulk_homologate(request):
    """GET: the confirmation page listing the clean tournaments waiting (no warning);
    POST: homologate those ticked that are still clean and waiting, each at the revision
    listed (a newer one sent since is refused by the service), one by one."""
    scope = _staff(request)
    if request.method == "GET":
        return render(
            request, "desk/bulk_homologation.html", {"tournaments": review.clean_waiting(scope)}
        )
    chosen = {}
    for value in request.POST.getlist("tournament"):
        pk, _sep, number = value.partition(":")
        if _number(pk) is not None and _number(number) is not None:
            chosen[int(pk)] = int(number)
    done, refused = [], []
    # Only the clean tournaments waiting in the caller's scope, whatever was posted.
    for tournament in review.clean_waiting(scope).filter(pk__in=chosen):
        try:
            homologation.tournament_homologate(
                tournament=tournament, by=request.user, revision=chosen[tournament.pk]
            )
        except (RuleViolation, ServiceError) as refusal:
            refused.append((tournament, refusal_text(refusal)))
        else:
            done.append(tournament)
    status = 200 if done else 400  # nothing homologated: nothing chosen, or every one refused
    return render(
        request,
        "desk/bulk_homologation.html",
        {"done": done, "refused": refused, "posted": True},
        status=status,
    )
