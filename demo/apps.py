from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DemoConfig(AppConfig):
    """The demo federation and synthetic seasons: data for `make run` and the benchmarks,
    never needed in production."""

    name = "demo"
    verbose_name = _("demo data")
