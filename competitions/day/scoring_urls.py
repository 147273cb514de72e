"""The day's scoring pages and endpoints: the table's phone page and its JSON endpoints
(under the table's QR token), the arbiter's grid and a table's deals."""

from django.urls import URLPattern, path

from competitions.day import scoring_pages
from competitions.day.api import scoring as scoring_api

urlpatterns: list[URLPattern] = [
    path("table/<str:token>/", scoring_pages.table_page, name="day-table"),
    path("api/day/tables/<str:token>/", scoring_api.TableSheet.as_view(), name="day-table-sheet"),
    path(
        "api/day/tables/<str:token>/deals/",
        scoring_api.TableDeal.as_view(),
        name="day-table-deals",
    ),
    path(
        "api/day/tables/<str:token>/totals/",
        scoring_api.TableTotals.as_view(),
        name="day-table-totals",
    ),
    path("tournois/<int:pk>/jour/saisie/", scoring_pages.scores_grid, name="day-scores"),
    path(
        "tournois/<int:pk>/jour/saisie/seances/<int:session>/positions/<int:position>/tables/<int:table>/",
        scoring_pages.scores_table,
        name="day-scores-table",
    ),
]
