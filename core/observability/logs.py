"""The logging configuration: JSON lines in production, text in development.

``LOG_FORMAT`` chooses (``json`` by default when ``DJANGO_DEBUG`` is off, else ``text``):
one handler on the root logger, writing to the standard error, every process alike
(gunicorn's workers, Celery's workers and beat: ``config/celery.py`` hands Celery this
configuration instead of its own).

A JSON line holds ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``, then the
record's fields: ``request_id`` whenever one is bound, ``task_id`` and ``task_name`` in
a task (:class:`LogContext`), and what the caller passed in ``extra`` (the request line's
``method``, ``route``, ``status``…, :mod:`core.observability.requests`). No Django
import here: settings build this before the apps load.
"""

from __future__ import annotations

import logging
from typing import Any

from pythonjsonlogger.core import RESERVED_ATTRS

from core.observability.context import current_request_id, current_task

FORMATS = ("json", "text")


class LogContext(logging.Filter):
    """Copies the request id and the running task onto each record (attributes a caller
    passed in ``extra`` win)."""

    def filter(self, record: logging.LogRecord) -> bool:
        request_id = current_request_id()
        if request_id is not None and not hasattr(record, "request_id"):
            record.request_id = request_id
        task = current_task()
        if task is not None:
            if not hasattr(record, "task_id"):
                record.task_id = task.task_id
            if not hasattr(record, "task_name"):
                record.task_name = task.name
        return True


class TextFormatter(logging.Formatter):
    """The development format: the standard line, then ``[request <id>]`` when there is one."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        line = super().formatMessage(record)
        request_id = getattr(record, "request_id", None)
        return f"{line} [request {request_id}]" if request_id else line


def logging_config(*, log_format: str, level: str) -> dict[str, Any]:
    """The ``LOGGING`` dictionary (``logging.config.dictConfig``) for this format and level."""
    if log_format not in FORMATS:
        raise ValueError(f"LOG_FORMAT must be one of {', '.join(FORMATS)}, got {log_format!r}")
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": LogContext}},
        "formatters": {
            "json": {
                "()": "pythonjsonlogger.json.JsonFormatter",
                "fmt": "levelname,name,message",
                "style": ",",
                "timestamp": "time",
                "rename_fields": {"levelname": "level", "name": "logger"},
                # Django's error records carry the request, whose text holds the path and
                # query string (a name searched for, say): left out of the line.
                "reserved_attrs": [*RESERVED_ATTRS, "request"],
            },
            "text": {"()": TextFormatter, "fmt": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        },
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "formatter": log_format,
                "filters": ["context"],
            }
        },
        "root": {"handlers": ["console"], "level": level},
    }
