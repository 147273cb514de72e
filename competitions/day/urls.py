"""The day's pages, under /tournois/<n>/jour/ for those who run it, /table/ for the tables'
QR codes, and the players' own pages; one module of URLs per part of the day."""

from django.urls import path

from competitions.day import closing_urls, entry_urls, pages, room_urls, scoring_urls

urlpatterns = [
    path("tournois/<int:pk>/jour/", pages.day_hub, name="day-hub"),
    *entry_urls.urlpatterns,
    *room_urls.urlpatterns,
    *scoring_urls.urlpatterns,
    *closing_urls.urlpatterns,
]
