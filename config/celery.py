"""The Celery application: broker from CELERY_BROKER_URL, tasks from every app."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("fft")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
