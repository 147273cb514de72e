"""The staff desk (/bureau/): where federation, zone and committee staff work, each
screen scoped to the caller's role. Its entry page and its URLs; the screens live
with their app (competitions/tournaments/desk_pages.py, rankings/desk_pages.py)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseBase
from django.shortcuts import render
from django.urls import path
from django.views.decorators.http import require_GET

from competitions.championships import desk_pages as championships
from competitions.tournaments import desk_pages as queue
from competitions.tournaments.review import QueueFilter, homologation_queue
from federation import desk_pages as duplicates
from federation.access import scope_of
from rankings import desk_pages as ranking


@require_GET
@login_required
def desk_home(request):
    scope = scope_of(request.user)
    if not scope.is_staff:
        raise PermissionDenied
    waiting = homologation_queue(scope, QueueFilter()).count()
    return render(request, "desk/home.html", {"scope": scope, "waiting": waiting})


CHAMPIONSHIPS: list[tuple[str, Callable[..., HttpResponseBase], str]] = [
    ("", championships.championships_home, "desk-championships"),
    ("creer/", championships.championships_create, "desk-championships-create"),
    ("<int:pk>/", championships.championship_page, "desk-championship"),
    ("<int:pk>/regional/", championships.regional_open, "desk-regional-open"),
    ("<int:pk>/quotas/", championships.quotas_set, "desk-quotas"),
    ("<int:pk>/stades/", championships.stage_create, "desk-stage-create"),
    ("<int:pk>/qualification/", championships.qualification_page, "desk-qualification"),
    (
        "<int:pk>/qualification/enregistrer/",
        championships.qualification_record,
        "desk-qualification-record",
    ),
    ("regionaux/<int:pk>/reglement/", championships.regional_rules, "desk-regional-rules"),
    (
        "regionaux/<int:pk>/reglement/<int:version>/aval/",
        championships.regional_rules_approve,
        "desk-regional-rules-approve",
    ),
    ("stades/<int:pk>/", championships.stage_page, "desk-stage"),
    ("stades/<int:pk>/inscrire/", championships.stage_enter, "desk-stage-enter"),
    (
        "stades/<int:pk>/inscrits/<int:number>/retirer/",
        championships.entry_withdraw,
        "desk-entry-withdraw",
    ),
    ("stades/<int:pk>/retards/", championships.stage_penalty, "desk-stage-penalty"),
    ("stades/<int:pk>/homologuer/", championships.stage_homologate, "desk-stage-homologate"),
    ("stades/<int:pk>/placement/", championships.seating_draw, "desk-seating-draw"),
    ("stades/<int:pk>/placement.pdf", championships.seating_print, "desk-seating-pdf"),
    (
        "stades/<int:pk>/<str:what>.<str:file_format>",
        championships.stage_export,
        "desk-stage-export",
    ),
]
"""The championships desk (/bureau/championnats/, competitions/championships/desk_pages.py)."""

urlpatterns = [
    path("", desk_home, name="desk-home"),
    path("homologation/", queue.queue, name="desk-homologation"),
    path("homologation/lot/", queue.bulk_homologate, name="desk-bulk-homologation"),
    path("homologation/<int:pk>/", queue.tournament_review, name="desk-tournament"),
    path(
        "homologation/<int:pk>/homologuer/",
        queue.tournament_homologate,
        name="desk-homologate",
    ),
    path("homologation/<int:pk>/refuser/", queue.tournament_refuse, name="desk-refuse"),
    path("homologation/<int:pk>/corriger/", queue.tournament_correct, name="desk-correct"),
    path("classement/", ranking.ranking_desk, name="desk-ranking"),
    path("classement/lancer/<str:kind>/", ranking.run_start, name="desk-run-start"),
    path("classement/calculs/<int:pk>/", ranking.run_progress, name="desk-run-progress"),
    path("classement/publication/", ranking.publish_comparison, name="desk-publish-comparison"),
    path("doublons/", duplicates.duplicates, name="desk-duplicates"),
    path("doublons/fusionner/", duplicates.merge, name="desk-merge"),
    *[path(f"championnats/{route}", view, name=name) for route, view, name in CHAMPIONSHIPS],
]
