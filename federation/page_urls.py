"""The account pages, mounted at /compte/: Django's own sign-in, sign-out and password
views (their templates in templates/registration/), and the person's space."""

from django.contrib.auth import views as auth_views
from django.urls import path

from federation import notification_pages, pages

urlpatterns = [
    path("", pages.my_space, name="my-space"),
    path("notifications/", notification_pages.my_notifications, name="my-notifications"),
    path(
        "notifications/desabonnement/<str:token>/",
        notification_pages.notification_unsubscribe_page,
        name="notification-unsubscribe",
    ),
    path("confidentialite/", pages.privacy_page, name="privacy-page"),
    path("connexion/", auth_views.LoginView.as_view(), name="login"),
    path("deconnexion/", auth_views.LogoutView.as_view(), name="logout"),
    path("mot-de-passe/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "mot-de-passe/modifie/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("mot-de-passe/oubli/", pages.PasswordResetView.as_view(), name="password_reset"),
    path(
        "mot-de-passe/oubli/envoye/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "mot-de-passe/nouveau/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "mot-de-passe/nouveau/fait/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]
