"""Public pages of the national ranking, mounted at /classement/."""

from django.urls import path

from rankings import pages, simulation_pages

urlpatterns = [
    path("", pages.ranking_page, name="ranking-page"),
    path("simulation/", simulation_pages.simulation_page, name="ranking-simulation-page"),
    path("joueur/<int:licence_number>/", pages.player_page, name="ranking-player-page"),
    path("comite/<int:number>/", pages.committee_page, name="ranking-committee-page"),
    path("club/<int:number>/", pages.club_page, name="ranking-club-page"),
]
