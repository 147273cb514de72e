from django.urls import path

from competitions.tournaments import pages, results_pages

urlpatterns = [
    path("", pages.my_tournaments, name="my-tournaments"),
    path("<int:pk>/resultats/", results_pages.upload_results, name="upload-results"),
]
