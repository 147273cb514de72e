"""The day's closing pages: the standings (a projector page that refreshes itself), the
penalties and abandons, the end (preview, then « Envoyer pour homologation »), the arbiter's
report, and the tournament's optional public live page.

Those who run the day act; the staff above the organiser read; anyone else gets a 404.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Max
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe

from competitions.day import closing, penalties
from competitions.day.access import may_run_day
from competitions.day.pages import day_tournament
from competitions.day.report import arbiter_report_pdf
from competitions.models import (
    DayPenalty,
    DealRecord,
    EntryMember,
    PlayedSession,
    TableTotals,
    Tournament,
    TournamentEntry,
)
from competitions.rules.engine.penalties import CATALOGUE, SCORE_SHEET_KINDS, PenaltyKind
from competitions.tournaments import selectors
from core.errors import Conflict, PermissionDenied
from core.http.http_cache import public_read
from core.messages import error_message, problem_message
from core.problems import RuleViolation
from federation.public_names import public_result_name

REFRESH_SECONDS = 30


def _after(value: str | None) -> tuple[int, int] | None:
    """« 2-3 » → session 2, position 3."""
    try:
        session, position = (int(part) for part in (value or "").split("-"))
    except ValueError:
        return None
    return session, position


@require_safe
@login_required
def day_standings_page(request, pk: int):
    tournament = day_tournament(request, pk)
    view = closing.day_standings(
        tournament=tournament, by=request.user, after=_after(request.GET.get("apres"))
    )
    projector = request.GET.get("ecran") == "1"
    return render(
        request,
        "day/closing_standings.html",
        {
            "tournament": tournament,
            "view": view,
            "lines": _lines(view, view.names),
            "projector": projector,
            "refresh": REFRESH_SECONDS if projector else None,
            "may_run": may_run_day(request.user, tournament),
        },
    )


def _lines(view: closing.StandingsView, names: dict[int, str]) -> list[dict]:
    return [
        {
            "place": line.place,
            "entry": line.entry,
            "name": names.get(line.entry, ""),
            "score": line.score,
            "penalty_points": line.penalty_points,
            "total": line.total,
            "abandoned": line.abandoned,
            # The first session not played, or the last position played before the cut.
            "eliminated_before": line.eliminated_at[0]
            if line.eliminated_at is not None and line.eliminated_at[1] == 1
            else None,
            "eliminated_after": (line.eliminated_at[0], line.eliminated_at[1] - 1)
            if line.eliminated_at is not None and line.eliminated_at[1] > 1
            else None,
        }
        for line in view.standings.lines
    ]


class PenaltyForm(forms.Form):
    member = forms.TypedChoiceField(label=_("Player"), coerce=int)
    kind = forms.ChoiceField(label=_("Fault"))
    lateness_minutes = forms.IntegerField(
        label=_("Lateness (minutes, late arrival only)"), required=False, min_value=1
    )
    points = forms.IntegerField(
        label=_("Points (when the texts set no amount)"), required=False, min_value=0
    )
    session = forms.IntegerField(label=_("Session"), required=False, min_value=1)
    position = forms.IntegerField(label=_("Position"), required=False, min_value=1)
    reason = forms.CharField(label=_("Reason"), max_length=300)

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        members = EntryMember.objects.filter(
            tournament=tournament, active=True, player__isnull=False
        ).select_related("player", "entry")
        self.fields["member"].choices = [  # type: ignore[attr-defined]
            (m.pk, f"n° {m.entry.number} – {closing.member_name(m)}")
            for m in members.order_by("entry__number", "order")
        ]
        self.fields["kind"].choices = [  # type: ignore[attr-defined]
            (k.value, CATALOGUE[k].label_fr) for k in PenaltyKind if k not in SCORE_SHEET_KINDS
        ]


class SheetFaultForm(forms.Form):
    session = forms.IntegerField(label=_("Session"), min_value=1)
    position = forms.IntegerField(label=_("Position"), min_value=1)
    table = forms.IntegerField(label=_("Table"), min_value=1)
    kind = forms.ChoiceField(
        label=_("Fault"),
        choices=[(k.value, CATALOGUE[k].label_fr) for k in PenaltyKind if k in SCORE_SHEET_KINDS],
    )
    reason = forms.CharField(label=_("Reason"), max_length=300)


class RemovalForm(forms.Form):
    penalty = forms.IntegerField(widget=forms.HiddenInput)
    removal_reason = forms.CharField(label=_("Why it is removed"), max_length=300)


class AbandonForm(forms.Form):
    entry = forms.IntegerField(label=_("Entry number"), min_value=1)
    session = forms.IntegerField(label=_("Session"), min_value=1)
    position = forms.IntegerField(label=_("After position"), min_value=1)
    agreed = forms.BooleanField(label=_("With the arbiter's accord"), required=False)


def _refused(form: forms.Form, refusal: RuleViolation) -> None:
    """Each problem on its field (the whole form's when no field matches)."""
    for problem in refusal.problems:
        field = problem.field.split(".")[0]
        form.add_error(field if field in form.fields else None, problem_message(problem))


@login_required
def day_penalties_page(request, pk: int):
    tournament = day_tournament(request, pk)
    runs = may_run_day(request.user, tournament)
    forms_ = {
        "penalty_form": PenaltyForm(tournament=tournament),
        "sheet_form": SheetFaultForm(),
        "abandon_form": AbandonForm(),
        "removal_form": RemovalForm(),
    }
    status = 200
    if request.method == "POST":
        if not runs:
            raise Http404
        action = request.POST.get("action")
        done = _act(request, tournament, action, forms_)
        if done:
            return redirect("day-penalties", pk=tournament.pk)
        status = 400
    labels = {k.value: CATALOGUE[k].label_fr for k in PenaltyKind}
    listed = list(
        DayPenalty.objects.filter(tournament=tournament).select_related(
            "member__player", "member__entry"
        )
    )
    for p in listed:
        p.label = labels.get(p.kind, p.kind)  # type: ignore[attr-defined]
    context = {
        "tournament": tournament,
        "may_run": runs,
        "penalties": listed,
        "abandons": TournamentEntry.objects.filter(
            tournament=tournament, abandoned_session__isnull=False
        ),
        **forms_,
    }
    return render(request, "day/closing_penalties.html", context, status=status)


def _act(request, tournament: Tournament, action: str | None, forms_: dict) -> bool:
    """One write of the penalties page; False with the errors on the form's fields."""
    form: forms.Form
    call: Callable[[dict[str, Any]], object]
    if action == "penalty":
        form = forms_["penalty_form"] = PenaltyForm(request.POST, tournament=tournament)
        call = lambda d: penalties.penalty_record(  # noqa: E731
            tournament=tournament,
            member_id=d["member"],
            kind=d["kind"],
            reason=d["reason"],
            points=d["points"],
            lateness_minutes=d["lateness_minutes"],
            session=d["session"],
            position=d["position"],
            by=request.user,
        )
    elif action == "sheet_fault":
        form = forms_["sheet_form"] = SheetFaultForm(request.POST)
        call = lambda d: penalties.sheet_fault_record(tournament=tournament, by=request.user, **d)  # noqa: E731
    elif action == "remove":
        form = forms_["removal_form"] = RemovalForm(request.POST)
        call = lambda d: penalties.penalty_remove(  # noqa: E731
            penalty=get_object_or_404(DayPenalty, pk=d["penalty"], tournament=tournament),
            reason=d["removal_reason"],
            by=request.user,
        )
    elif action == "abandon":
        form = forms_["abandon_form"] = AbandonForm(request.POST)
        call = lambda d: penalties.abandon_record(  # noqa: E731
            tournament=tournament,
            entry_number=d["entry"],
            session=d["session"],
            position=d["position"],
            agreed=d["agreed"],
            by=request.user,
        )
    elif action == "abandon_cancel":
        form = forms_["abandon_form"] = AbandonForm(
            {"entry": request.POST.get("entry"), "session": 1, "position": 1}
        )
        call = lambda d: penalties.abandon_cancel(  # noqa: E731
            tournament=tournament, entry_number=d["entry"], by=request.user
        )
    else:
        raise Http404
    if not form.is_valid():
        return False
    try:
        call(form.cleaned_data)
    except RuleViolation as refusal:
        _refused(form, refusal)
        return False
    except PermissionDenied as refusal:
        form.add_error(None, error_message(refusal))
        return False
    return True


@login_required
def day_closing_page(request, pk: int):
    """The end: the preview of the results built from the day, then « Envoyer pour
    homologation » (what was previewed is what is sent)."""
    tournament = day_tournament(request, pk)
    runs = may_run_day(request.user, tournament)
    context: dict = {"tournament": tournament, "may_run": runs}
    confirmed = [int(n) for n in request.POST.getlist("confirm") if n.isdigit()]
    status = 200
    if request.method == "POST":
        if not runs:
            raise Http404
        if request.POST.get("action") == "send":
            try:
                context["submitted"] = closing.closing_submit(
                    tournament=tournament,
                    by=request.user,
                    digest=request.POST.get("digest") or None,
                    confirmed_licences=confirmed,
                )
                context["tournament"] = selectors.tournaments().get(pk=tournament.pk)
                return render(request, "day/closing_end.html", context)
            except (PermissionDenied, Conflict) as refusal:
                context["refusal"] = error_message(refusal)
                status = 409 if isinstance(refusal, Conflict) else 403
            except RuleViolation as refusal:
                context["problems"] = [problem_message(p) for p in refusal.problems]
                status = 400
    context["may_send"] = closing.may_send_results(request.user, tournament)
    if runs and context["may_send"]:
        try:
            built = closing.closing_preview(
                tournament=tournament, by=request.user, confirmed_licences=confirmed
            )
            context.update(preview=built.preview, digest=built.digest, confirmed=confirmed)
        except PermissionDenied as refusal:
            context.setdefault("refusal", error_message(refusal))
        except RuleViolation as refusal:
            context["problems"] = [
                {"message": problem_message(p), "licence": p.params.get("licence_number")}
                for p in refusal.problems
            ]
    return render(request, "day/closing_end.html", context, status=status)


@require_safe
@login_required
def day_report_pdf(request, pk: int):
    tournament = day_tournament(request, pk)
    content = arbiter_report_pdf(tournament=tournament, by=request.user)
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="rapport-arbitrage-{tournament.pk}.pdf"'
    return response


def live_version(request, pk: int) -> tuple[str, dt.datetime | None] | None:
    """The live page's version: what the day entered last (a change makes a new page)."""
    tournament = Tournament.objects.filter(pk=pk, live_page=True).only("pk").first()
    if tournament is None:
        return None
    deals = DealRecord.objects.filter(session__tournament_id=pk).aggregate(
        n=Count("pk"), last=Max("changed_at")
    )
    others = (
        TableTotals.objects.filter(session__tournament_id=pk).count(),
        DayPenalty.objects.filter(tournament_id=pk).aggregate(n=Count("pk"), r=Max("removed_at")),
        TournamentEntry.objects.filter(tournament_id=pk, abandoned_session__isnull=False).count(),
        PlayedSession.objects.filter(tournament_id=pk).count(),
    )
    last = deals["last"]
    token = f"{deals['n']}.{last.timestamp() if last else 0}.{others}"
    return token, last


@require_safe
@public_read("day-live", live_version, params=(), html=True)
def day_live_page(request, pk: int):
    """The tournament's public live standings, when its organiser opened them: names as
    every public page writes them; nothing else of the day."""
    tournament = get_object_or_404(selectors.tournaments(), pk=pk, live_page=True)
    view = closing.live_standings(tournament=tournament)
    members = EntryMember.objects.filter(
        tournament=tournament, active=True, entry__state="entered"
    ).select_related("player", "entry")
    names: dict[int, list[str]] = {}
    for m in members.order_by("entry__number", "order"):
        names.setdefault(m.entry.number, []).append(
            public_result_name(player=m.player, name_as_submitted=m.name).name
        )
    return render(
        request,
        "day/live.html",
        {
            "tournament": tournament,
            "view": view,
            "lines": _lines(view, {n: " – ".join(v) for n, v in names.items()}),
            "refresh": REFRESH_SECONDS,
        },
    )
