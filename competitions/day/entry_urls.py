"""The entry pages (full paths, mounted at the site's root by ``competitions/day/urls.py``):
the organiser's entries of a tournament and their exports, a licensee's « S'inscrire »
from the calendar, the player's « Mes inscriptions » and « Mes arbitrages », and the same
entries as JSON for club software (``competitions/day/api/entries.py``)."""

from django.urls import path

from competitions.day import entry_pages
from competitions.day.api import entries as entries_api

urlpatterns = [
    path("tournois/<int:pk>/inscriptions/", entry_pages.entries_page, name="day-entries"),
    path(
        "tournois/<int:pk>/inscriptions.csv",
        entry_pages.entries_export,
        {"file_format": "csv"},
        name="day-entries-csv",
    ),
    path(
        "tournois/<int:pk>/inscriptions.pdf",
        entry_pages.entries_export,
        {"file_format": "pdf"},
        name="day-entries-pdf",
    ),
    path("calendrier/tournoi/<int:pk>/inscription/", entry_pages.enter_page, name="day-enter"),
    path("compte/inscriptions/", entry_pages.my_entries_page, name="my-entries"),
    path("compte/inscriptions/retrait/", entry_pages.my_entry_withdraw, name="my-entry-withdraw"),
    path("compte/arbitrages/", entry_pages.my_arbitrations_page, name="my-arbitrations"),
    path(
        "api/day/tournaments/<int:pk>/entries/",
        entries_api.DayEntries.as_view(),
        name="day-entries-api",
    ),
    path(
        "api/day/tournaments/<int:pk>/entries/<int:number>/withdraw/",
        entries_api.DayEntryWithdraw.as_view(),
        name="day-entry-withdraw-api",
    ),
]
