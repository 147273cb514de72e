"""Tasks go to queues by kind (``CELERY_TASK_ROUTES``): a homologation's refresh never
waits behind a recompute, an e-mail or the ranking as of a day asked by anyone; every
queue a task may reach is in ``CELERY_QUEUES_BY_KIND``, which the deployment runs a
worker on each of (docs/scaling.md)."""

from __future__ import annotations

from django.conf import settings

from config.celery import app


def _queue(task: str) -> str:
    route = app.amqp.router.route({}, task)
    return route["queue"].name


def _kind(queue: str) -> str:
    return queue[len(settings.CELERY_QUEUE_PREFIX) :]


def test_every_task_goes_to_the_queue_of_its_kind():
    app.loader.import_default_modules()
    names = [name for name in app.tasks if not name.startswith("celery.")]
    queues = {name: _kind(_queue(name)) for name in names}
    assert {_kind(q) for q in settings.CELERY_QUEUES_BY_KIND} == {
        "live", "publication", "asof", "email", "celery"
    }  # fmt: skip
    for name, queue in queues.items():
        assert settings.CELERY_QUEUE_PREFIX + queue in settings.CELERY_QUEUES_BY_KIND, name
    assert queues["rankings.refresh_season_totals"] == "live"
    assert queues["rankings.refresh_live_ranking"] == "live"
    for name in ("rankings.run_recompute", "rankings.recompute_season", "rankings.nightly_ranking"):
        assert queues[name] == "publication"
    assert queues["rankings.as_of_days"] == queues["rankings.as_of_nightly"] == "asof"
    mail = [name for name in names if "mail" in name]
    assert len(mail) >= 5
    assert {queues[name] for name in mail} == {"email"}
    assert queues["core.send_outbox"] == queues["rankings.fail_stale_runs"] == "celery"


def test_the_default_queue_is_the_last_named():
    assert settings.CELERY_QUEUES_BY_KIND[-1] == settings.CELERY_TASK_DEFAULT_QUEUE
