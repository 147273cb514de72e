from django.urls import path

from competitions.tournaments import declaration_pages, pages, results_pages, typed_results_pages

urlpatterns = [
    path("", pages.my_tournaments, name="my-tournaments"),
    path("declarer/", declaration_pages.declare_tournament, name="declare-tournament"),
    path("<int:pk>/", pages.club_tournament, name="club-tournament"),
    path("<int:pk>/resultats/", results_pages.upload_results, name="upload-results"),
    path(
        "modele-resultats.<str:file_format>",
        results_pages.results_template,
        name="results-template",
    ),
    path("<int:pk>/saisie/", typed_results_pages.type_results, name="type-results"),
]
