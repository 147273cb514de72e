"""The public tournament pages: /calendrier/ (calendar, tournaments, iCalendar feeds),
/clubs/<n>/ and /comites/<n>/ (mounted by config/urls.py)."""

from django.urls import path

from competitions.public import pages

calendar_urlpatterns = [
    path("", pages.calendar_page, name="public-calendar"),
    path("tournoi/<int:pk>/", pages.tournament_page, name="public-tournament"),
    path("comite/<int:number>.ics", pages.committee_feed, name="public-committee-feed"),
    path("club/<int:number>.ics", pages.club_feed, name="public-club-feed"),
]
club_urlpatterns = [path("<int:number>/", pages.club_page, name="public-club")]
committee_urlpatterns = [path("<int:number>/", pages.committee_page, name="public-committee")]
