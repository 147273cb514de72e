from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FederationConfig(AppConfig):
    name = "federation"
    verbose_name = _("federation registry")

    def ready(self) -> None:
        # The admin names every table in French: the libraries' tables without a
        # translated name of their own get one here (display only, no migration).
        from axes.models import AccessAttemptExpiration
        from knox.models import AuthToken

        AuthToken._meta.verbose_name = _("API token")
        AuthToken._meta.verbose_name_plural = _("API tokens")
        AccessAttemptExpiration._meta.verbose_name = _("access attempt expiration")
        AccessAttemptExpiration._meta.verbose_name_plural = _("access attempt expirations")
