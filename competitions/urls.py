from django.urls import path

from competitions.api import engine, tournaments

app_name = "competitions"

engine_urlpatterns = [
    path("deals/score/", engine.ScoreDeal.as_view(), name="engine-score-deal"),
    path("sheets/total/", engine.TotalSheet.as_view(), name="engine-total-sheet"),
    path("penalties/", engine.PenaltyCatalogue.as_view(), name="engine-penalties"),
]

tournament_urlpatterns = [
    path("", tournaments.TournamentListCreate.as_view(), name="tournament-list"),
    path("<int:pk>/", tournaments.TournamentDetail.as_view(), name="tournament-detail"),
]
