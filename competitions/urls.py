from django.urls import path

from competitions.api import engine, results, tournaments

app_name = "competitions"

engine_urlpatterns = [
    path("deals/score/", engine.ScoreDeal.as_view(), name="engine-score-deal"),
    path("sheets/total/", engine.TotalSheet.as_view(), name="engine-total-sheet"),
    path("penalties/", engine.PenaltyCatalogue.as_view(), name="engine-penalties"),
    path("movements/plan/", engine.PlanMovement.as_view(), name="engine-plan-movement"),
    path("standings/rank/", engine.RankEntries.as_view(), name="engine-rank"),
]

tournament_urlpatterns = [
    path("", tournaments.TournamentListCreate.as_view(), name="tournament-list"),
    path("<int:pk>/", tournaments.TournamentDetail.as_view(), name="tournament-detail"),
    path("<int:pk>/results/", results.ResultsView.as_view(), name="tournament-results"),
    path("<int:pk>/revisions/", results.RevisionsView.as_view(), name="tournament-revisions"),
    path("<int:pk>/homologate/", results.HomologateView.as_view(), name="tournament-homologate"),
    path("<int:pk>/refuse/", results.RefuseView.as_view(), name="tournament-refuse"),
    path("<int:pk>/corrections/", results.CorrectionView.as_view(), name="tournament-correct"),
]
