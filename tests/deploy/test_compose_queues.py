"""Every queue the application sends tasks to has a worker in docker-compose.yml, and
every worker a queue: the queues are read from the settings as the workers' environment
makes them (a fresh process, `.env.example` as the env_file), the workers' from their
``-Q``."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.deploy.compose import ENV_EXAMPLE, IMAGE_ENV, ROOT, read_env_file, services

READ_QUEUES = """
import json, django
import config  # what `celery -A config` loads first: it names the settings
django.setup()
from django.conf import settings
routes = getattr(settings, "CELERY_TASK_ROUTES", None) or {}
queues = {settings.CELERY_TASK_DEFAULT_QUEUE}
queues |= {r["queue"] if isinstance(r, dict) else r for r in routes.values()}
queues |= set(getattr(settings, "CELERY_QUEUES_BY_KIND", ()))
print(json.dumps(sorted(queues)))
"""


def test_a_worker_consumes_every_queue_the_tasks_are_sent_to():
    env_file = read_env_file(ENV_EXAMPLE)
    compose = services(env_file)
    consumed: dict[str, str] = {}
    for name, service in compose.items():
        command = service.command
        if "worker" in command:
            consumed[command[command.index("-Q") + 1]] = name
    assert len(consumed) == 5, consumed  # one worker per queue kind, none sharing a queue

    env = {**IMAGE_ENV, **compose["worker"].environment(env_file), "PATH": "/usr/bin:/bin"}
    read = subprocess.run(
        [sys.executable, "-c", READ_QUEUES], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert read.returncode == 0, read.stderr[-2000:]
    routed = set(json.loads(read.stdout))
    assert routed, "no queue read"
    assert not routed - set(consumed), f"queues without a worker: {sorted(routed - set(consumed))}"
    assert not set(consumed) - routed, f"workers on no queue: {sorted(set(consumed) - routed)}"


def test_the_workers_follow_the_queue_prefix():
    env_file = read_env_file(ENV_EXAMPLE) | {"CELERY_QUEUE_PREFIX": "fft-"}
    queues = set()
    for service in services(env_file).values():
        if "worker" in service.command:
            queues.add(service.command[service.command.index("-Q") + 1])
    assert queues == {"fft-live", "fft-publication", "fft-asof", "fft-email", "fft-celery"}
