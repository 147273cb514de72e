import os

from django.conf import settings
from django.core.signals import request_finished
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

if settings.GC_FREEZE:  # the p99 of the public reads (core/http/gc_freeze.py)
    from core.http.gc_freeze import DISPATCH_UID, freeze_loaded, freeze_once_warm

    freeze_loaded()
    request_finished.connect(freeze_once_warm, dispatch_uid=DISPATCH_UID)
