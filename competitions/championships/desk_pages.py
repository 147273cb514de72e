"""The staff desk's championships screens (/bureau/championnats/): a season's four
championships and their stages; a championship's regional championships (rules
published through a form, the zone's approval), quotas and stages; a stage's entries,
late arrivals and forfeits, first-session seating (PDF for the arbiter) and exports; the
live qualification table per committee, and recording it.

Every screen is scoped (``desk_reads``): federation staff see everything, zone staff
their zone's committees, committee staff their own; anyone else, or a committee's page
read by staff who do not cover it, gets the 403 page, which names nothing. Every action
calls the championship services (same permission checks, history, transaction as the
API); their refusals are shown in the reader's language through ``core.messages``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied as PageForbidden
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from competitions import homologation
from competitions.championships import (
    championship_settings,
    desk_reads,
    entries,
    qualification_records,
    regional,
    running,
    selectors,
    stages,
)
from competitions.championships.desk_exports import QualifiedTable, StageResultsTable, seating_pdf
from competitions.championships.desk_forms import (
    EntryForm,
    PenaltyForm,
    QuotasForm,
    RegionalRulesForm,
    StageForm,
    entry_refusals,
)
from competitions.championships.qualification_status import qualification_status
from competitions.models import (
    Championship,
    ChampionshipEntry,
    ChampionshipKindChoice,
    ChampionshipStageKind,
    Qualification,
    QualificationStatus,
    QualificationTarget,
    RegionalRulesVersion,
    StageSeating,
    TournamentStatus,
)
from competitions.tournaments import access
from competitions.tournaments.desk_pages import refusal_text
from core.errors import Conflict, ServiceError
from core.errors import PermissionDenied as Refused
from core.export_formats import export_response
from core.http.confirmation import unconfirmed
from core.messages import problem_message
from core.problems import RuleViolation
from federation.access import Scope, scope_of
from federation.models import Committee, Season
from federation.selectors import current_season


def _staff(request) -> Scope:
    scope = scope_of(request.user)
    if not scope.is_staff:
        raise PageForbidden
    return scope


def _season(request) -> Season:
    name = request.GET.get("season")
    season = Season.objects.filter(name=name).first() if name else current_season()
    if season is None:
        raise Http404("Unknown season.")
    return season


def _championship(pk: int) -> Championship:
    return get_object_or_404(selectors.championships(), pk=pk)


def _stage(request, pk: int):
    """The stage, if the caller reads it (national stages: any staff; a regional stage:
    the staff covering its committee); else the 403 page."""
    scope = _staff(request)
    stage = get_object_or_404(selectors.stages(), pk=pk)
    if not desk_reads.may_read_stage(scope, stage):
        raise PageForbidden
    return scope, stage


def _regional(request, pk: int):
    scope = _staff(request)
    found = desk_reads.regional_with_versions(pk)
    if found is None:
        raise Http404("Unknown regional championship.")
    if not scope.covers_committee(found.committee):
        raise PageForbidden
    return scope, found


# ---------------------------------------------------------------------------------------------
# The season and a championship


@require_safe
@login_required
def championships_home(request):
    scope = _staff(request)
    season = _season(request)
    championships = desk_reads.season_championships(season)
    stage_list = list(desk_reads.stages_in_scope(scope, championships))
    regionals = desk_reads.regionals_in_scope(scope, championships)
    rows = [
        {
            "championship": c,
            "stages": [s for s in stage_list if s.championship_id == c.pk],
            "regionals": [r for r in regionals if r.championship_id == c.pk],
        }
        for c in championships
    ]
    return render(
        request,
        "desk/championships/home.html",
        {
            "scope": scope,
            "season": season,
            "seasons": Season.objects.order_by("-start_date"),
            "rows": rows,
            "awaiting": desk_reads.awaiting_approval(scope, season),
            "missing": len(championships) < len(ChampionshipKindChoice.values),
        },
    )


@require_POST
@login_required
def championships_create(request):
    _staff(request)
    season = get_object_or_404(Season, name=request.POST.get("season", ""))
    try:
        championship_settings.championships_create(season=season, by=request.user)
    except ServiceError as refusal:
        raise PageForbidden from refusal
    messages.success(request, _("The season's championships are created."))
    return redirect(f"{_url('desk-championships')}?season={season.name}")


def _url(name: str, *args) -> str:
    return reverse(name, args=args)


def _championship_page(request, championship: Championship, *, status: int = 200, **extra):
    scope = _staff(request)
    covered = list(desk_reads.committees(scope))
    regionals = desk_reads.regionals_in_scope(scope, [championship])
    opened = {r.committee_id for r in regionals}
    quotas = desk_reads.quotas_in_scope(scope, championship)
    context = {
        "scope": scope,
        "championship": championship,
        "regionals": regionals,
        "unopened": [c for c in covered if c.pk not in opened],
        "stages": list(desk_reads.stages_in_scope(scope, [championship])),
        "quotas": quotas,
        **extra,
    }
    if scope.national:
        context.setdefault(
            "quotas_form",
            QuotasForm(committees=covered, current={q.committee.number: q.places for q in quotas}),
        )
    context.setdefault(
        "stage_form",
        StageForm(committees=[c for c in covered if c.pk in opened], national=scope.national),
    )
    return render(request, "desk/championships/championship.html", context, status=status)


@require_safe
@login_required
def championship_page(request, pk: int):
    return _championship_page(request, _championship(pk))


@require_POST
@login_required
def regional_open(request, pk: int):
    scope = _staff(request)
    championship = _championship(pk)
    committee = _committee(request.POST.get("committee"))
    if committee is None or not scope.covers_committee(committee):
        raise PageForbidden
    regional.regional_create(championship=championship, committee=committee, by=request.user)
    messages.success(
        request,
        _("Regional championship of committee %(number)s opened.") % {"number": committee.number},
    )
    return redirect("desk-championship", pk=pk)


@require_POST
@login_required
def quotas_set(request, pk: int):
    scope = _staff(request)
    if not scope.national:
        raise PageForbidden
    championship = _championship(pk)
    form = QuotasForm(request.POST, committees=desk_reads.committees(scope))
    if not form.is_valid():
        return _championship_page(request, championship, status=400, quotas_form=form)
    try:
        championship_settings.quotas_set(
            championship=championship, quotas=form.quotas(), by=request.user
        )
    except (RuleViolation, ServiceError) as refusal:
        return _championship_page(
            request,
            championship,
            status=_refusal_status(refusal),
            quotas_form=form,
            refusal=refusal_text(refusal),
        )
    messages.success(request, _("Quotas saved."))
    return redirect("desk-championship", pk=pk)


@require_POST
@login_required
def stage_create(request, pk: int):
    scope = _staff(request)
    championship = _championship(pk)
    named = _committee(request.POST.get("committee"))
    if named is not None and not scope.covers_committee(named):
        raise PageForbidden  # another committee's stage: refused before the form is read
    covered = list(desk_reads.committees(scope))
    form = StageForm(request.POST, committees=covered, national=scope.national)
    if not form.is_valid():
        return _championship_page(request, championship, status=400, stage_form=form)
    try:
        stage, _created = stages.stage_create(
            championship=championship, request=form.request(), by=request.user
        )
    except RuleViolation as refusal:
        form.locate(refusal.problems)
        return _championship_page(request, championship, status=400, stage_form=form)
    except ServiceError as refusal:
        return _championship_page(
            request, championship, status=403, stage_form=form, refusal=refusal_text(refusal)
        )
    messages.success(request, _("Stage created: its tournament is declared."))
    return redirect("desk-stage", pk=stage.pk)


# ---------------------------------------------------------------------------------------------
# Regional rules and the zone's approval


def _rules_page(request, scope, found, form, *, status: int = 200, **extra):
    versions = list(found.rules_versions.all())
    return render(
        request,
        "desk/championships/regional_rules.html",
        {
            "scope": scope,
            "regional": found,
            "versions": versions,
            "may_approve": scope.national or found.committee.zone_id in scope.zone_ids,
            "form": form,
            **extra,
        },
        status=status,
    )


@require_http_methods(["GET", "POST"])
@login_required
def regional_rules(request, pk: int):
    """GET: the published versions and the form (filled with the latest); POST: check
    (``action=check``, nothing stored) or publish the rules of the form."""
    scope, found = _regional(request, pk)
    if request.method == "GET":
        latest = next(iter(found.rules_versions.all()), None)
        form = RegionalRulesForm(initial=RegionalRulesForm.initial_from(latest and latest.data))
        return _rules_page(request, scope, found, form)
    form = RegionalRulesForm(request.POST)
    if not form.is_valid():
        return _rules_page(request, scope, found, form, status=400)
    document = form.document()
    try:
        if request.POST.get("action") == "check":
            problems = regional.regional_rules_check(regional=found, data=document)
            if problems:
                form.locate(problems)
                return _rules_page(request, scope, found, form, status=400)
            return _rules_page(request, scope, found, form, checked=True)
        version = regional.regional_rules_publish(
            regional=found, data=document, note=form.cleaned_data["note"], by=request.user
        )
    except RuleViolation as refusal:
        form.locate(refusal.problems)
        return _rules_page(request, scope, found, form, status=400)
    except ServiceError as refusal:
        return _rules_page(request, scope, found, form, status=403, refusal=refusal_text(refusal))
    messages.success(
        request,
        _("Version %(version)s of the rules published; it awaits the zone's approval.")
        % {"version": version.version},
    )
    return redirect("desk-regional-rules", pk=pk)


@require_POST
@login_required
def regional_rules_approve(request, pk: int, version: int):
    _scope, found = _regional(request, pk)
    row = get_object_or_404(RegionalRulesVersion, regional=found, version=version)
    try:
        regional.regional_rules_approve(version=row, by=request.user)
    except ServiceError as refusal:
        raise PageForbidden from refusal
    messages.success(
        request,
        _("Version %(version)s of committee %(committee)s's rules approved.")
        % {"version": version, "committee": found.committee.number},
    )
    return redirect(request.POST.get("next") or _url("desk-regional-rules", pk))


# ---------------------------------------------------------------------------------------------
# A stage: entries, late arrivals, seating, exports


def _stage_page(request, scope, stage, *, status: int = 200, **extra):
    entry_rows = list(selectors.stage_entries(stage))
    seating = StageSeating.objects.filter(stage=stage).first()
    open_ = stage.tournament.status == TournamentStatus.DECLARED
    context = {
        "scope": scope,
        "stage": stage,
        "entries": entry_rows,
        "penalties": list(desk_reads.stage_penalties(stage)),
        "seating": seating,
        "open": open_,
        "may_enter": open_ and entries.may_enter_stage(scope, stage),
        "may_run": running.may_run(scope, request.user, stage),
        "may_review": access.may_homologate(scope, stage.tournament),
        "may_send": open_ and access.may_manage(scope, stage.tournament),
        "latest": stage.tournament.revisions.order_by("-number").first(),
        "homologated": stage.tournament.status == TournamentStatus.HOMOLOGATED,
        "qualifies": stage.kind
        in (ChampionshipStageKind.REGIONAL_FINAL, ChampionshipStageKind.NATIONAL_QUALIFIER),
        **extra,
    }
    context.setdefault("entry_form", EntryForm())
    context.setdefault("penalty_form", PenaltyForm())
    return render(request, "desk/championships/stage.html", context, status=status)


@require_safe
@login_required
def stage_page(request, pk: int):
    scope, stage = _stage(request, pk)
    return _stage_page(request, scope, stage)


@require_POST
@login_required
def stage_enter(request, pk: int):
    scope, stage = _stage(request, pk)
    if not entries.may_enter_stage(scope, stage):
        raise PageForbidden
    form = EntryForm(request.POST)
    if not form.is_valid():
        return _stage_page(request, scope, stage, status=400, entry_form=form)
    try:
        made = entries.entries_register(
            stage=stage, requests=form.cleaned_data["entries"], by=request.user
        )
    except RuleViolation as refusal:
        return _stage_page(
            request,
            scope,
            stage,
            status=400,
            entry_form=form,
            entry_refusals=entry_refusals(refusal.problems),
        )
    except ServiceError as refusal:
        return _stage_page(
            request, scope, stage, status=403, entry_form=form, refusal=refusal_text(refusal)
        )
    for made_entry in made:
        for warning in made_entry.warnings:
            messages.warning(request, problem_message(warning))
    messages.success(
        request, _("%(count)s entries recorded, eligibility checked.") % {"count": len(made)}
    )
    return redirect("desk-stage", pk=pk)


@require_POST
@login_required
def entry_withdraw(request, pk: int, number: int):
    scope, stage = _stage(request, pk)
    entry = get_object_or_404(ChampionshipEntry, stage=stage, number=number)
    if not entries.may_enter_stage(scope, stage):
        raise PageForbidden
    asked = unconfirmed(
        request,
        title=_("Withdraw entry %(number)s?") % {"number": number},
        text=_(
            "Entry %(number)s will no longer play this stage: its players lose their place "
            "in it. Entering them again is a new entry, if the entries are still open."
        )
        % {"number": number},
        button=_("Confirm: withdraw entry %(number)s") % {"number": number},
        back=reverse("desk-stage", kwargs={"pk": pk}),
    )
    if asked is not None:
        return asked
    try:
        entries.entry_withdraw(entry=entry, by=request.user)
    except Refused as refusal:
        raise PageForbidden from refusal
    except (RuleViolation, ServiceError) as refusal:
        return _stage_page(
            request, scope, stage, status=_refusal_status(refusal), refusal=refusal_text(refusal)
        )
    messages.success(request, _("Entry %(number)s withdrawn.") % {"number": number})
    return redirect("desk-stage", pk=pk)


def _refusal_status(error: Exception) -> int:
    if isinstance(error, RuleViolation):
        return 400
    return 409 if isinstance(error, Conflict) else 403


@require_POST
@login_required
def stage_penalty(request, pk: int):
    scope, stage = _stage(request, pk)
    if not running.may_run(scope, request.user, stage):
        raise PageForbidden
    form = PenaltyForm(request.POST)
    if not form.is_valid():
        return _stage_page(request, scope, stage, status=400, penalty_form=form)
    try:
        penalty = running.late_arrival_record(stage=stage, request=form.request(), by=request.user)
    except RuleViolation as refusal:
        form.locate(refusal.problems)
        return _stage_page(request, scope, stage, status=400, penalty_form=form)
    except ServiceError as refusal:
        raise PageForbidden from refusal
    if penalty.forfeit:
        messages.success(request, _("Forfeit recorded."))
    else:
        messages.success(
            request, _("Late arrival recorded: %(points)s points.") % {"points": penalty.points}
        )
    return redirect("desk-stage", pk=pk)


@require_POST
@login_required
def stage_homologate(request, pk: int):
    """Homologate the stage's latest revision (the one the page showed), through the
    stage's checks (``competitions.homologation.tournament_homologate``)."""
    scope, stage = _stage(request, pk)
    if not access.may_homologate(scope, stage.tournament):
        raise PageForbidden
    revision = request.POST.get("revision", "")
    try:
        homologation.tournament_homologate(
            tournament=stage.tournament,
            by=request.user,
            revision=int(revision) if revision.isascii() and revision.isdigit() else None,
        )
    except Refused as refusal:
        raise PageForbidden from refusal
    except (RuleViolation, ServiceError) as refusal:
        return _stage_page(
            request, scope, stage, status=_refusal_status(refusal), refusal=refusal_text(refusal)
        )
    messages.success(request, _("Stage homologated: its points are awarded."))
    return redirect("desk-stage", pk=pk)


@require_POST
@login_required
def seating_draw(request, pk: int):
    scope, stage = _stage(request, pk)
    if not running.may_run(scope, request.user, stage):
        raise PageForbidden
    try:
        running.seating_draw(stage=stage, by=request.user)
    except RuleViolation as refusal:
        return _stage_page(request, scope, stage, status=400, refusal=refusal_text(refusal))
    except ServiceError as refusal:
        raise PageForbidden from refusal
    messages.success(request, _("First session seated: print it for the arbiter."))
    return redirect("desk-stage", pk=pk)


@require_safe
@login_required
def seating_print(request, pk: int):
    _scope, stage = _stage(request, pk)
    seating = StageSeating.objects.filter(stage=stage).first()
    if seating is None:
        raise Http404("No seating drawn.")
    response = HttpResponse(seating_pdf(stage, seating), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="placement-stade-{stage.pk}.pdf"'
    return response


FORMATS = ("csv", "xlsx", "pdf")


@require_safe
@login_required
def stage_export(request, pk: int, what: str, file_format: str):
    """``resultats`` (the homologated results) or ``qualifies`` (who it qualifies now),
    as CSV, XLSX or PDF."""
    _scope, stage = _stage(request, pk)
    if file_format not in FORMATS:
        raise Http404("Unknown format.")
    if stage.tournament.status != TournamentStatus.HOMOLOGATED:
        raise Http404("The stage's results are not homologated.")
    table: StageResultsTable | QualifiedTable
    if what == "resultats":
        table = StageResultsTable.of(stage)
        columns = None
    elif what == "qualifies" and stage.kind in (
        ChampionshipStageKind.REGIONAL_FINAL,
        ChampionshipStageKind.NATIONAL_QUALIFIER,
    ):
        status = qualification_status(stage.championship)
        recorded = set(
            Qualification.objects.filter(
                championship=stage.championship,
                target=QualificationTarget.NATIONAL_FINAL,
                status=QualificationStatus.QUALIFIED,
            ).values_list("key", flat=True)
        )
        table = QualifiedTable.of(stage, status, recorded)
        columns = None
    else:
        raise Http404("Unknown export.")
    return export_response(
        table, file_format, sheet_title=stage.tournament.name, pdf_columns=columns, right_aligned=0
    )


# ---------------------------------------------------------------------------------------------
# The qualification


def _qualification_page(request, championship: Championship, *, status: int = 200, **extra):
    scope = _staff(request)
    live = qualification_status(championship)
    return render(
        request,
        "desk/championships/qualification.html",
        {
            "scope": scope,
            "championship": championship,
            "tables": desk_reads.committee_tables(scope, live),
            "live": live,
            "national_problems": [
                (p.field, problem_message(p)) for p in live.problems if scope.national
            ],
            **extra,
        },
        status=status,
    )


@require_safe
@login_required
def qualification_page(request, pk: int):
    return _qualification_page(request, _championship(pk))


@require_POST
@login_required
def qualification_record(request, pk: int):
    """Record a committee's quota places (``committee=<number>``, its staff or above) or,
    for federation staff, the whole championship's qualifications (``committee=all``)."""
    scope = _staff(request)
    championship = _championship(pk)
    target = request.POST.get("committee", "")
    try:
        if target == "all":
            if not scope.national:
                raise PageForbidden
            qualification_records.qualification_record(championship=championship, by=request.user)
            done = _("The championship's qualifications are recorded.")
        else:
            committee = _committee(target)
            if committee is None or not scope.covers_committee(committee):
                raise PageForbidden
            recorded = qualification_records.committee_qualification_record(
                championship=championship, committee=committee, by=request.user
            )
            qualified = sum(
                1 for q in recorded.qualifications if q.status == QualificationStatus.QUALIFIED
            )
            done = _("Qualification of committee %(committee)s recorded: %(count)s qualified.") % {
                "committee": committee.number,
                "count": qualified,
            }
    except RuleViolation as refusal:
        return _qualification_page(request, championship, status=400, refusal=refusal_text(refusal))
    except ServiceError as refusal:
        raise PageForbidden from refusal
    messages.success(request, done)
    return redirect("desk-qualification", pk=pk)


def _committee(value: str | None) -> Committee | None:
    """The committee numbered ``value`` (digits), else None."""
    if not (value and value.isascii() and value.isdigit()):
        return None
    return Committee.objects.filter(number=int(value)).first()
