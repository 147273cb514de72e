"""What an operator sees of the running service (docs/observability.md).

- :mod:`~core.observability.context`: the request id (taken from ``X-Request-ID`` or made
  here) and the task being run, carried in a context variable into every log line;
- :mod:`~core.observability.requests`: the middleware that gives each request its id,
  writes its one log line and counts it in the metrics;
- :mod:`~core.observability.task_signals`: the request id carried in a task's headers
  from the process that sends it to the worker that runs it, and a log line per task;
- :mod:`~core.observability.metrics`: the Prometheus metrics (one registry per process,
  or the files of every gunicorn worker with ``PROMETHEUS_MULTIPROC_DIR``) and the
  exposition with the gauges read at scrape time;
- :mod:`~core.observability.queues`: the Celery queues' lengths, read from the broker.

The outbox's gauges live with the outbox (``core/tasks.py``), the ranking's with the
ranking (``rankings/gauges.py``); ``config/metrics.py`` wires every source.
"""
