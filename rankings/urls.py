from django.urls import path

from core.http.http_cache import number, public_read, text
from rankings.api import pcn, ranking, simulation
from rankings.reads import read_versions

# The public reads, through the read cache (core/http/http_cache.py::public_read): a stored
# answer is sent before DRF, a miss is built by the view and stored.
# Each declares the query parameters it reads (its serializer's fields, and DRF's
# ``format``) and how: the others are dropped, never a new cache entry.
RANKING_PARAMS = {
    "season": None, "kind": None, "as_of": None, "format": None, "q": text,
    **dict.fromkeys(("snapshot", "committee", "club", "series", "page", "page_size"), number),
}  # fmt: skip
ranking_read = public_read(
    read_versions.RANKING_API, read_versions.ranking_api_version, params=RANKING_PARAMS
)(ranking.RankingView.as_view())
player_read = public_read(
    read_versions.PLAYER_API, read_versions.player_api_version,
    params=("season", "kind", "format"),
)(ranking.PlayerRankingView.as_view())  # fmt: skip

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
    path("ranking/", ranking_read, name="ranking"),
    path("ranking/export/", ranking.ExportView.as_view(), name="ranking-export"),
    path("ranking/snapshots/", ranking.SnapshotsView.as_view(), name="ranking-snapshots"),
    path(
        "ranking/players/<int:licence_number>/",
        player_read,
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
