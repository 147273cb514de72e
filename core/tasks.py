"""Sending a background task once the caller's transaction has committed.

Services ask for background work (a ranking refresh, a recompute…) from inside their
transaction. The task must be sent only after the commit: sent earlier, a worker could
read the database before the rows it is about to process exist, and a rollback would
leave a task about changes that never happened.

Services name the task by its registered name (``"rankings.refresh_live_ranking"``)
instead of importing the tasks module: a tasks module imports the services it calls, so
a service importing it back would make an import cycle.

The task is looked up in the Celery app's registry at send time and sent with
``apply_async``, which honours ``CELERY_TASK_ALWAYS_EAGER`` (the embedded default with no
broker, and the tests): the task then runs in-process right after the commit.
``app.send_task`` would not: it always goes through a broker.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from config.celery import app


def send_on_commit(
    task_name: str, /, *args: Any, countdown: float | None = None, **kwargs: Any
) -> None:
    """Send task ``task_name`` with these arguments after the current transaction commits.

    Outside a transaction (autocommit) it is sent at once; on rollback, never.
    ``countdown`` delays its execution by that many seconds (ignored when eager).
    """
    transaction.on_commit(lambda: send_now(task_name, *args, countdown=countdown, **kwargs))


def send_now(task_name: str, /, *args: Any, countdown: float | None = None, **kwargs: Any):
    """Send task ``task_name`` now (eagerly when ``CELERY_TASK_ALWAYS_EAGER``)."""
    task = app.tasks.get(task_name)
    if task is None:  # its module is not imported yet in this process: discover tasks
        app.loader.import_default_modules()
        task = app.tasks.get(task_name)
    if task is None:  # registered only in the workers: send it by name
        return app.send_task(task_name, args=args, kwargs=kwargs, countdown=countdown)
    return task.apply_async(args, kwargs, countdown=countdown)
