"""This app's URLs, at their full paths (config/urls.py includes them at the root): the
home page, the personal data page, the staff desk (/bureau/, portal/desk_urls.py), and
the API's personal data and duplicates under /api/federation/ (beside the registry's
API, federation/urls.py, whose paths they keep)."""

from django.urls import include, path

from portal import pages
from portal.api.duplicates import DuplicateList, MergeCreate
from portal.api.personal_data import MyData, PlayerData

urlpatterns = [
    path("", pages.home, name="home"),
    path("aide/", pages.help_page, name="help-page"),
    path("compte/mes-donnees/", pages.my_data_page, name="my-data-page"),
    path("bureau/", include("portal.desk_urls")),
    path("api/federation/me/data/", MyData.as_view(), name="my-data"),
    path(
        "api/federation/players/<int:licence_number>/data/",
        PlayerData.as_view(),
        name="player-data",
    ),
    path("api/federation/duplicates/", DuplicateList.as_view(), name="duplicate-list"),
    path("api/federation/merges/", MergeCreate.as_view(), name="player-merge"),
]
