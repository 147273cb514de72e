"""The day's closing pages: standings, penalties and abandons, the end, the arbiter's report,
and the public live page."""

from django.urls import URLPattern, path

from competitions.day import closing_pages

urlpatterns: list[URLPattern] = [
    path(
        "tournois/<int:pk>/jour/classement/",
        closing_pages.day_standings_page,
        name="day-standings",
    ),
    path(
        "tournois/<int:pk>/jour/penalites/",
        closing_pages.day_penalties_page,
        name="day-penalties",
    ),
    path("tournois/<int:pk>/jour/fin/", closing_pages.day_closing_page, name="day-closing"),
    path("tournois/<int:pk>/jour/rapport.pdf", closing_pages.day_report_pdf, name="day-report"),
    path("tournois/<int:pk>/direct/", closing_pages.day_live_page, name="day-live"),
]
