from django.urls import path

from competitions.tournaments import pages

urlpatterns = [
    path("", pages.my_tournaments, name="my-tournaments"),
    path("<int:pk>/resultats/", pages.upload_results, name="upload-results"),
]
