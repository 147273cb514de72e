"""The site's URLs plus ``/bench/constant/``: a trivial JSON view through the same
middleware, the yardstick the load benchmark measures beside each target."""

from django.http import JsonResponse
from django.urls import path

from config.urls import urlpatterns as site_urlpatterns


def constant(request):
    return JsonResponse({"status": "ok", "answer": 42})


urlpatterns = [path("bench/constant/", constant), *site_urlpatterns]
