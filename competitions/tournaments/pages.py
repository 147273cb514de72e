"""Server-rendered pages for people (not software): the tournaments a user
manages, and the form to send a tournament's results as a file."""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext_lazy as _

from competitions.models import Tournament, TournamentStatus
from competitions.tournaments import access, selectors, submission
from core.problems import RuleViolation
from federation.access import scope_of


class ResultsUploadForm(forms.Form):
    file = forms.FileField(label=_("results file"))
    source = forms.ChoiceField(
        label=_("format"),
        choices=[
            ("", _("guess from the file name")),
            ("json", "JSON"),
            ("csv", "CSV"),
            ("sheets", _("score sheets (JSON)")),
        ],
        required=False,
    )


@login_required
def my_tournaments(request):
    scope = scope_of(request.user)
    candidates = selectors.tournaments().exclude(status=TournamentStatus.HOMOLOGATED)[:500]
    tournaments = [t for t in candidates if access.may_manage(scope, t)]
    return render(request, "competitions/my_tournaments.html", {"tournaments": tournaments})


@login_required
def upload_results(request, pk: int):
    """The form, and the submission it sends: the permission checked here once, for the
    page and the submission alike."""
    tournament = get_object_or_404(selectors.tournaments(), pk=pk)
    if not access.may_manage(scope_of(request.user), tournament):
        raise PermissionDenied
    context = {"tournament": tournament, "form": ResultsUploadForm()}
    if request.method == "POST":
        form = ResultsUploadForm(request.POST, request.FILES)
        context["form"] = form
        if form.is_valid():
            upload = form.cleaned_data["file"]
            source = form.cleaned_data["source"] or (
                "csv" if upload.name.lower().endswith(".csv") else "json"
            )
            try:
                document = submission.parse_results(
                    content=upload.read(), source=source, tournament=tournament
                )
                submitted = submission.parsed_results_submit(
                    tournament=tournament, document=document, source=source, by=request.user
                )
            except RuleViolation as refusal:
                context["problems"] = refusal.problems
                return render(request, "competitions/upload_results.html", context, status=400)
            context.update(
                submitted=submitted,
                warnings=submitted.warnings,
                tournament=Tournament.objects.get(pk=pk),
            )
    return render(request, "competitions/upload_results.html", context)
