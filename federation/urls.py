from django.urls import include, path
from rest_framework.routers import DefaultRouter

from federation import api
from federation.licence_import_api import LicenceImportView

router = DefaultRouter()
router.register("seasons", api.SeasonViewSet)
router.register("zones", api.ZoneViewSet)
router.register("committees", api.CommitteeViewSet)
router.register("clubs", api.ClubViewSet)

urlpatterns = [
    path("", include(router.urls)),
    path("licensees/", api.LicenseeList.as_view(), name="licensee-list"),
    path("players/<int:licence_number>/", api.PlayerDetail.as_view(), name="player-detail"),
    path("me/", api.Me.as_view(), name="me"),
    path("licence-imports/", LicenceImportView.as_view(), name="licence-import"),
]
