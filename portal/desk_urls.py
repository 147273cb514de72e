"""The staff desk's URLs (/bureau/): where federation, zone and committee staff work,
each screen scoped to the caller's role. The screens live with their app
(competitions/tournaments/desk_pages.py, rankings/desk_pages.py,
competitions/championships/desk_pages.py); the desk's home and the duplicates screen
are this app's (portal/desk_pages.py)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpResponseBase
from django.urls import path

from competitions.championships import desk_pages as championships
from competitions.tournaments import desk_pages as queue
from competitions.tournaments import suspension_pages as suspensions
from portal import desk_pages as desk
from rankings import desk_pages as ranking

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
    path("", desk.desk_home, name="desk-home"),
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
    path("suspensions/", suspensions.suspensions, name="desk-suspensions"),
    path(
        "suspensions/<int:pk>/confirmer/",
        suspensions.suspension_confirm,
        name="desk-suspension-confirm",
    ),
    path(
        "suspensions/<int:pk>/classer/",
        suspensions.suspension_dismiss,
        name="desk-suspension-dismiss",
    ),
    path("classement/", ranking.ranking_desk, name="desk-ranking"),
    path("classement/lancer/<str:kind>/", ranking.run_start, name="desk-run-start"),
    path("classement/calculs/<int:pk>/", ranking.run_progress, name="desk-run-progress"),
    path("classement/publication/", ranking.publish_comparison, name="desk-publish-comparison"),
    path("doublons/", desk.duplicates, name="desk-duplicates"),
    path("doublons/fusionner/", desk.merge, name="desk-merge"),
    *[path(f"championnats/{route}", view, name=name) for route, view, name in CHAMPIONSHIPS],
]
