from django.urls import include, path
from rest_framework.routers import DefaultRouter

from federation.api import registry
from federation.api.licence_imports import LicenceImportView
from federation.api.notifications import NotificationChoicesView
from federation.api.privacy import PlayerPrivacy
from federation.api.sanctions import SanctionList
from federation.api.tokens import TokenDetail, TokenFromPassword, TokenList

router = DefaultRouter()
router.register("seasons", registry.SeasonViewSet)
router.register("zones", registry.ZoneViewSet)
router.register("committees", registry.CommitteeViewSet)
router.register("clubs", registry.ClubViewSet)

urlpatterns = [
    path("", include(router.urls)),
    path("licensees/", registry.LicenseeList.as_view(), name="licensee-list"),
    path("players/<int:licence_number>/", registry.PlayerDetail.as_view(), name="player-detail"),
    path(
        "players/<int:licence_number>/privacy/",
        PlayerPrivacy.as_view(),
        name="player-privacy",
    ),
    path("me/", registry.Me.as_view(), name="me"),
    path("me/notifications/", NotificationChoicesView.as_view(), name="my-notification-choices"),
    path("licence-imports/", LicenceImportView.as_view(), name="licence-import"),
    path("sanctions/", SanctionList.as_view(), name="sanction-list"),
    path("tokens/", TokenList.as_view(), name="token-list"),
    path("tokens/password/", TokenFromPassword.as_view(), name="token-from-password"),
    path("tokens/<str:token_key>/", TokenDetail.as_view(), name="token-detail"),
]
