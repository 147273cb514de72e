from django.urls import path

from rankings.api import pcn, ranking, simulation

urlpatterns = [
    path("scale/", pcn.ScaleView.as_view(), name="pcn-scale"),
    path("allocate/", pcn.AllocationView.as_view(), name="pcn-allocate"),
    path("simulation/", simulation.SimulationView.as_view(), name="pcn-simulation"),
    path("rulebooks/<str:season>/", pcn.RulebookView.as_view(), name="rulebook"),
    path(
        "players/<int:licence_number>/tournaments/",
        pcn.PlayerTournamentsView.as_view(),
        name="player-tournaments",
    ),
    # National ranking (docs/rankings-national.md)
    path("ranking/", ranking.RankingView.as_view(), name="ranking"),
    path("ranking/export/", ranking.ExportView.as_view(), name="ranking-export"),
    path("ranking/snapshots/", ranking.SnapshotsView.as_view(), name="ranking-snapshots"),
    path(
        "ranking/players/<int:licence_number>/",
        ranking.PlayerRankingView.as_view(),
        name="ranking-player",
    ),
    path("series-policies/<str:season>/", ranking.PolicyView.as_view(), name="series-policy"),
    path(
        "manual-placements/<str:season>/",
        ranking.PlacementsView.as_view(),
        name="manual-placements",
    ),
    path(
        "manual-placements/<str:season>/<int:licence_number>/",
        ranking.PlacementView.as_view(),
        name="manual-placement",
    ),
    path("recomputes/", ranking.RecomputesView.as_view(), name="recomputes"),
    path("recomputes/<int:pk>/", ranking.RecomputeView.as_view(), name="recompute"),
]
