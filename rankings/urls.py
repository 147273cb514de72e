from django.urls import path

from rankings import api, ranking_api

urlpatterns = [
    path("scale/", api.ScaleView.as_view(), name="pcn-scale"),
    path("allocate/", api.AllocationView.as_view(), name="pcn-allocate"),
    path("rulebooks/<str:season>/", api.RulebookView.as_view(), name="rulebook"),
    path(
        "players/<int:licence_number>/tournaments/",
        api.PlayerTournamentsView.as_view(),
        name="player-tournaments",
    ),
    # National ranking (docs/rankings-national.md)
    path("ranking/", ranking_api.RankingView.as_view(), name="ranking"),
    path("ranking/export/", ranking_api.ExportView.as_view(), name="ranking-export"),
    path("ranking/snapshots/", ranking_api.SnapshotsView.as_view(), name="ranking-snapshots"),
    path(
        "ranking/players/<int:licence_number>/",
        ranking_api.PlayerRankingView.as_view(),
        name="ranking-player",
    ),
    path("series-policies/<str:season>/", ranking_api.PolicyView.as_view(), name="series-policy"),
    path(
        "manual-placements/<str:season>/",
        ranking_api.PlacementsView.as_view(),
        name="manual-placements",
    ),
    path(
        "manual-placements/<str:season>/<int:licence_number>/",
        ranking_api.PlacementView.as_view(),
        name="manual-placement",
    ),
    path("recomputes/", ranking_api.RecomputesView.as_view(), name="recomputes"),
    path("recomputes/<int:pk>/", ranking_api.RecomputeView.as_view(), name="recompute"),
]
