"""The staff desk's national ranking screen (/bureau/classement/): the live ranking's
state, the recompute runs with a progress bar that updates itself (a small JSON
endpoint polled by rankings/static/rankings/desk_progress.js), starting a full
recompute or publishing the official ranking (federation staff, after a confirmation
page, through ``recompute.recompute_request``), the manual placements, the series
policy in force and what publishing would change. Zone and committee staff read it,
their placements and comparison limited to their committees."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied as PageForbidden
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from core.errors import Conflict, ServiceError
from core.messages import error_message, problem_message
from core.problems import RuleViolation
from federation.access import scope_of
from rankings.models import RecomputeKind, RecomputeRun, RunStatus, SeasonRanking
from rankings.reads import desk_reads, selectors
from rankings.season.official_ranking import EARLY_REASON, season_ended
from rankings.season.recompute import recompute_request, run_under_way
from rankings.season.series_policies import series_policy_in_force


def _staff(request):
    scope = scope_of(request.user)
    if not scope.is_staff:
        raise PageForbidden
    return scope


def _season(request):
    season = selectors.season_named(request.GET.get("season") or request.POST.get("season"))
    if season is None:
        raise Http404("Unknown season.")
    return season


@require_safe
@login_required
def ranking_desk(request):
    scope = _staff(request)
    season = _season(request)
    state = (
        SeasonRanking.objects.filter(season=season)
        .select_related("live__policy", "official__policy")
        .first()
    )
    live = selectors.ranking_for_season(season, selectors.LIVE) if state is not None else None
    # the inputs version the live ranking reflects
    if live is not None:
        live_version = live.reflects
    else:
        live_version = state.live_version if state is not None else 0
    history = list(desk_reads.runs(season))
    active = next((r for r in history if r.status in (RunStatus.QUEUED, RunStatus.RUNNING)), None)
    version, policy = series_policy_in_force(season=season)
    return render(
        request,
        "desk/ranking.html",
        {
            "scope": scope,
            "season": season,
            "state": state,
            "live": live,
            "live_version": live_version,
            "live_behind": state is not None and live_version < state.inputs_version,
            "history": [(run, desk_reads.run_progress_data(run)) for run in history],
            "active": active and desk_reads.run_progress_data(active),
            "placements": desk_reads.placements(season, scope),
            "policy_version": version,
            "policy": policy,
        },
    )


KIND_TEXT = {
    RecomputeKind.FULL: gettext_lazy(
        "Every player's season totals and standings are rebuilt from the homologated "
        "results, then the live ranking is computed again. Nothing is published; the "
        "official ranking does not change. It takes a few minutes for a whole season."
    ),
    RecomputeKind.OFFICIAL: gettext_lazy(
        "The standings are rebuilt, then the ranking is computed and published as the "
        "season's official ranking: it becomes the ranking everyone reads, and each "
        "player's step in it is their step for the next season (the next seasons are "
        "recomputed after it). It cannot be unpublished; publishing again adds a new "
        "official ranking."
    ),
}


@require_http_methods(["GET", "POST"])
@login_required
def run_start(request, kind: str):
    """GET: the confirmation page saying what will happen; POST: queue the run
    (federation staff only, checked by the service too, as are one run of a season at a
    time and the reason for publishing before the season's end, shown on its field)."""
    if kind not in KIND_TEXT:
        raise Http404("Unknown kind of run.")
    if not _staff(request).national:
        raise PageForbidden
    season = _season(request)
    desk = f"{reverse('desk-ranking')}?{urlencode({'season': season.name})}"
    if run_under_way(season):  # a double click, or a second run asked for meanwhile
        messages.error(
            request, _("A run of this season is under way: start another once it has ended.")
        )
        return redirect(desk)
    early_error = None
    if request.method == "POST":
        try:
            recompute_request(
                season=season,
                kind=kind,
                by=request.user,
                note=request.POST.get("note", ""),
                early_reason=request.POST.get(EARLY_REASON, ""),
            )
        except Conflict as busy:  # another run was queued meanwhile
            messages.error(request, error_message(busy))
            return redirect(desk)
        except RuleViolation as refusal:
            early_error = " ".join(problem_message(p) for p in refusal.problems)
        except ServiceError as refusal:
            raise PageForbidden(error_message(refusal)) from refusal
        else:
            messages.success(request, _("Queued: the progress shows below."))
            return redirect(desk)
    context = {
        "season": season,
        "kind": kind,
        "text": KIND_TEXT[RecomputeKind(kind)],
        "early": kind == RecomputeKind.OFFICIAL and not season_ended(season),
        "early_error": early_error,
        "note": request.POST.get("note", ""),
        "early_reason": request.POST.get(EARLY_REASON, ""),
    }
    if kind == RecomputeKind.OFFICIAL:
        live = selectors.ranking_for_season(season, selectors.LIVE)
        if live is not None:
            context["comparison"] = desk_reads.publish_comparison(live, scope_of(request.user))
    return render(request, "desk/run_confirm.html", context, status=400 if early_error else 200)


@require_safe
@login_required
def run_progress(request, pk: int):
    _staff(request)
    run = get_object_or_404(RecomputeRun.objects.select_related("snapshot"), pk=pk)
    return JsonResponse(desk_reads.run_progress_data(run))


@require_safe
@login_required
def publish_comparison(request):
    scope = _staff(request)
    season = _season(request)
    live = selectors.ranking_for_season(season, selectors.LIVE)
    comparison = desk_reads.publish_comparison(live, scope) if live is not None else None
    return render(
        request,
        "desk/publish_comparison.html",
        {"season": season, "comparison": comparison, "scope": scope},
    )
