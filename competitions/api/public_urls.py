"""/api/public/…: the public, read-only API of tournaments, clubs and committees."""

from django.urls import path

from competitions.api import public

urlpatterns = [
    path("tournaments/", public.CalendarList.as_view(), name="public-api-calendar"),
    path("tournaments/<int:pk>/", public.TournamentDetail.as_view(), name="public-api-tournament"),
    path("clubs/", public.ClubList.as_view(), name="public-api-clubs"),
    path("clubs/<int:number>/", public.ClubDetail.as_view(), name="public-api-club"),
    path("committees/", public.CommitteeList.as_view(), name="public-api-committees"),
    path("committees/<int:number>/", public.CommitteeDetail.as_view(), name="public-api-committee"),
]
