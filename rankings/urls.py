from django.urls import path

from rankings import api

urlpatterns = [
    path("scale/", api.ScaleView.as_view(), name="pcn-scale"),
    path("allocate/", api.AllocationView.as_view(), name="pcn-allocate"),
    path("rulebooks/<str:season>/", api.RulebookView.as_view(), name="rulebook"),
    path(
        "players/<int:licence_number>/tournaments/",
        api.PlayerTournamentsView.as_view(),
        name="player-tournaments",
    ),
]
