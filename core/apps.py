from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    name = "core"
    verbose_name = _("core")

    def ready(self) -> None:
        # The request id: bound while the handler serves a request, carried in the headers
        # of the tasks this process sends, bound in the tasks it runs (web, worker, beat).
        from core.observability import requests, task_signals  # noqa: F401
