"""The Celery application: broker from CELERY_BROKER_URL, tasks from every app.

A worker that starts sends what the outbox still holds (``core.send_outbox``: tasks
whose transaction committed while the broker was unreachable, see ``core/tasks.py``).
"""

import logging
import os

from celery import Celery
from celery.signals import setup_logging, worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("fft")
app.config_from_object("django.conf:settings", namespace="CELERY")
# The current app of every thread, not only of this one: core.tasks and shared tasks use
# celery.current_app, which a thread of its own (a threaded server's request, a test's
# live server) would otherwise find to be Celery's unconfigured fallback. (Celery's Django
# fix-up does the same when it loads; said here so it does not rest on that.)
app.set_default()
app.autodiscover_tasks()

log = logging.getLogger(__name__)


@setup_logging.connect
def use_the_project_logging(loglevel=None, **kwargs) -> None:
    """Workers and beat log as the web processes do (``settings.LOGGING``: JSON lines
    in production, each with the request id of the task's request), at the level given
    on the command line (``--loglevel``), instead of Celery's own handlers and format."""
    from logging.config import dictConfig

    from django.conf import settings

    dictConfig(settings.LOGGING)
    if loglevel:
        logging.getLogger().setLevel(loglevel)


@worker_ready.connect
def send_outbox_on_start(sender, **kwargs) -> None:
    """Run the outbox sweep in the worker that has just started (by the task's name:
    this module is imported before the apps' models are ready)."""
    try:
        app.tasks["core.send_outbox"]()
    except Exception:  # a failed sweep must not stop the worker: beat retries it
        log.exception("outbox sweep at worker start failed")
