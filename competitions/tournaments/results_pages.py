"""The page a club secretary sends a tournament's results with, in three steps:

1. choose the file (its type guessed from its name) → every problem at once, each
   located in words (blocking first, then warnings), with a box to tick for each
   licence number whose name differs from the registry's (« c'est bien cette
   personne »), then check again; or
2. the preview: places, names, licences, PCN and PP as homologation would give them
   under the season's rulebook in force → « Envoyer ces résultats »;
3. the submission, checked again whole, and a notice with the links back.

Between the steps the file stays on the server, in the session, under its SHA-256:
the browser only sends back that hash and the ticked licence numbers, never the
content. A championship stage's results go through the stage's checks, as in the API.
"""

from __future__ import annotations

import base64
import hashlib
import json

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext_lazy as _

from competitions import homologation
from competitions.models import Tournament
from competitions.rules.results.csv_columns import template_rows
from competitions.tournaments import access, selectors
from competitions.tournaments.result_locations import located
from competitions.tournaments.submission import guessed_source
from core.digits import ascii_digits
from core.export_formats import CONTENT_TYPES, xlsx_sheet
from core.problems import RuleViolation
from federation.access import scope_of

TEMPLATE = "competitions/upload_results.html"


class ResultsUploadForm(forms.Form):
    file = forms.FileField(label=_("Results file"))
    source = forms.ChoiceField(
        label=_("File type"),
        choices=[
            ("", _("Guess from the file name (.xlsx, .ods, .csv, .json)")),
            ("csv", _("Spreadsheet: Excel or LibreOffice workbook (.xlsx, .ods) or CSV (.csv)")),
            ("json", _("JSON results file (.json)")),
            ("sheets", _("Score sheets, deal by deal (JSON)")),
        ],
        required=False,
    )


def _session_key(tournament: Tournament) -> str:
    return f"results-upload-{tournament.pk}"


def _keep(
    request, tournament: Tournament, content: bytes, source: str, *, typed: bool = False
) -> str:
    """Keep the uploaded file (or the typed results' document) on the server until it
    is sent; its SHA-256."""
    sha256 = hashlib.sha256(content).hexdigest()
    request.session[_session_key(tournament)] = {
        "sha256": sha256,
        "source": source,
        "content": base64.b64encode(content).decode("ascii"),
        "typed": typed,
    }
    return sha256


def _typed(request, tournament: Tournament) -> bool:
    """Whether the results kept for this tournament were typed in the form (then the
    next step offered is to correct what was typed, not to choose a file)."""
    return bool((request.session.get(_session_key(tournament)) or {}).get("typed"))


def kept_typed_document(request, tournament: Tournament) -> dict | None:
    """The typed results kept for this tournament (the document the form built), to
    give the form back as it was typed; ``None`` when none is kept."""
    kept = request.session.get(_session_key(tournament))
    if not kept or not kept.get("typed"):
        return None
    return json.loads(base64.b64decode(kept["content"]))


def _kept(request, tournament: Tournament) -> tuple[bytes, str, str] | None:
    """The file kept for this tournament, if the page's hash names it."""
    kept = request.session.get(_session_key(tournament))
    if not kept or kept.get("sha256") != request.POST.get("sha256"):
        return None
    return base64.b64decode(kept["content"]), kept["source"], kept["sha256"]


def _confirmed(request) -> list[int]:
    return sorted({int(v) for v in request.POST.getlist("confirm") if ascii_digits(v)})


TEMPLATE_FORMATS = ("csv", "xlsx")


def results_template(request, file_format: str):
    """The results file to fill in: the columns headed in French, one line of each
    common kind as an example; CSV (UTF-8 with BOM, ``;``) or an Excel workbook."""
    if file_format not in TEMPLATE_FORMATS:
        raise Http404
    header, rows = template_rows()
    if file_format == "xlsx":
        content = xlsx_sheet(header, rows, sheet_title="Résultats")
    else:
        lines: list[list[object]] = [list(header), *rows]
        text = "".join(
            ";".join("" if v is None else str(v) for v in line) + "\r\n" for line in lines
        )
        content = ("\ufeff" + text).encode()  # the BOM: Excel then reads UTF-8
    response = HttpResponse(content, content_type=CONTENT_TYPES[file_format])
    response["Content-Disposition"] = f'attachment; filename="modele-resultats.{file_format}"'
    return response


@login_required
def upload_results(request, pk: int):
    """The form, the report or the preview, and the submission (permission checked here
    for the page; the services check it again)."""
    tournament = get_object_or_404(selectors.tournaments(), pk=pk)
    if not access.may_manage(scope_of(request.user), tournament):
        raise PermissionDenied
    context: dict = {"tournament": tournament, "form": ResultsUploadForm()}
    if request.method != "POST":
        return render(request, TEMPLATE, context)
    action = request.POST.get("action", "check")
    if action == "check":
        form = ResultsUploadForm(request.POST, request.FILES)
        context["form"] = form
        if not form.is_valid():
            return render(request, TEMPLATE, context, status=400)
        upload = form.cleaned_data["file"]
        content = upload.read()
        source = form.cleaned_data["source"] or guessed_source(upload.name, content)
        sha256 = _keep(request, tournament, content, source)
        return _checked(request, tournament, context, content, source, sha256, [])
    kept = _kept(request, tournament)
    if kept is None:  # the session ended, or another file was sent since
        context["expired"] = True
        return render(request, TEMPLATE, context, status=400)
    content, source, sha256 = kept
    if _typed(request, tournament):
        context.update(form=None, typed=True)
    if action == "submit":
        return _submitted(request, tournament, context, content, source, sha256)
    return _checked(request, tournament, context, content, source, sha256, _confirmed(request))


def check_kept(request, tournament: Tournament, content: bytes, source: str):
    """Keep a document built elsewhere (the typed results form) and answer as for an
    uploaded file: the report with its name confirmations, or the preview whose
    « Envoyer ces résultats » sends it through this page."""
    context: dict = {"tournament": tournament, "form": None, "typed": True}
    sha256 = _keep(request, tournament, content, source, typed=True)
    return _checked(request, tournament, context, content, source, sha256, [])


def _checked(request, tournament, context, content, source, sha256, confirmed):
    """The report of every problem, or the preview."""
    context.update(sha256=sha256, source=source, confirmed=confirmed)
    try:
        preview = homologation.content_preview(
            tournament=tournament,
            content=content,
            source=source,
            by=request.user,
            confirmed_licences=confirmed,
        )
    except RuleViolation as refusal:
        return _report(request, context, refusal, content, source, confirmed)
    context.update(
        preview=preview, warnings=located(preview.warnings, content if source != "csv" else None)
    )
    return render(request, TEMPLATE, context)


def _report(request, context, refusal, content, source, confirmed):
    """Every problem in words; a box to tick for each name that differs from the
    registry's, the names already confirmed kept."""
    problems = located(refusal.problems, content if source != "csv" else None)
    shown = {p.licence_number for p in problems if p.licence_number is not None}
    context.update(
        problems=problems,
        confirmed=confirmed,
        confirmable=bool(shown),
        kept_confirmations=[number for number in confirmed if number not in shown],
    )
    return render(request, TEMPLATE, context, status=400)


def _submitted(request, tournament, context, content, source, sha256):
    """Send the kept file, checked again whole, with the names confirmed on the preview."""
    confirmed = _confirmed(request)
    try:  # a championship stage's checks first, as in the API
        submitted = homologation.results_submit(
            tournament=tournament,
            content=content,
            source=source,
            by=request.user,
            confirmed_licences=confirmed,
        )
    except RuleViolation as refusal:
        context.update(sha256=sha256, source=source)
        return _report(request, context, refusal, content, source, confirmed)
    request.session.pop(_session_key(tournament), None)
    context.update(
        submitted=submitted,
        tournament=selectors.tournaments().get(pk=tournament.pk),
        form=None,
    )
    return render(request, TEMPLATE, context)
