from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerView

from competitions.public.urls import (
    calendar_urlpatterns,
    club_urlpatterns,
    committee_urlpatterns,
)
from competitions.urls import (
    championship_urlpatterns,
    engine_urlpatterns,
    suspension_urlpatterns,
    tournament_urlpatterns,
)
from config.health import health
from config.metrics import metrics
from core.http.api_schema import SchemaView

admin.site.site_header = "Fédération Française de Tarot – donnes libres"
admin.site.site_title = "FFT donnes libres"
admin.site.index_title = "Administration"

urlpatterns = [
    path("", include("portal.urls")),
    path("compte/", include("federation.page_urls")),
    path("healthz", health, name="health"),
    path("metrics", metrics, name="metrics"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("tournois/", include("competitions.tournaments.page_urls")),
    path("", include("competitions.day.urls")),
    path("api/schema/", SchemaView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="redoc"),
    path("api/auth/", include("rest_framework.urls")),
    path("api/federation/", include("federation.urls")),
    path("api/engine/", include(engine_urlpatterns)),
    path("api/tournaments/", include(tournament_urlpatterns)),
    path("api/pcn/", include("rankings.urls")),
    path("classement/", include("rankings.page_urls")),
    path("calendrier/", include(calendar_urlpatterns)),
    path("clubs/", include(club_urlpatterns)),
    path("comites/", include(committee_urlpatterns)),
    path("api/public/", include("competitions.api.public_urls")),
    path("api/championships/", include(championship_urlpatterns)),
    path("api/suspension-proposals/", include(suspension_urlpatterns)),
]

# A URL no route matches: the API's error shape under /api/ (core/http/api_errors.py).
handler404 = "core.http.api_errors.page_not_found"
# Refused before any view (too many fields, a body over the limit): the API's shape under /api/.
handler400 = "core.http.api_errors.bad_request"
# The database unreachable: a 503 with Retry-After (the API's shape under /api/), else the 500 page.
handler500 = "core.http.api_errors.server_error"

if settings.DEBUG:
    from django.contrib.staticfiles.urls import staticfiles_urlpatterns

    urlpatterns += staticfiles_urlpatterns()
