"""GET /metrics (config/metrics.py): refused without its token, counting the requests
served before the scrape by view name (never the raw path), and reading at scrape time
the Celery queues' lengths on the real Redis broker and the outbox's backlog."""

from __future__ import annotations

import datetime as dt
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest
from django.utils import timezone
from kombu import Connection
from prometheus_client.mmap_dict import MmapedDict, mmap_key
from prometheus_client.parser import text_string_to_metric_families

from core.models import OutboxMessage
from core.observability.queues import queue_names

TOKEN = "a-metrics-token-for-the-tests-0123456789"
ROOT = Path(__file__).resolve().parents[2]
BROKER = os.environ.get("TEST_CELERY_BROKER_URL", "redis://127.0.0.1:6379/14")

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


@pytest.fixture
def metrics_token(settings) -> str:
    settings.METRICS_TOKEN = TOKEN
    return TOKEN


def scrape(client) -> Samples:
    response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200, response.content
    assert response["Cache-Control"] == "no-store"
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(response.content.decode())
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float | None:
    return samples.get((name, frozenset(labels.items())))


@pytest.mark.django_db
def test_without_a_token_configured_the_address_does_not_exist(client, settings):
    settings.METRICS_TOKEN = ""
    response = client.get("/metrics", HTTP_AUTHORIZATION="Bearer anything")
    assert response.status_code == 404
    assert b"fft_" not in response.content


@pytest.mark.django_db
@pytest.mark.parametrize(
    "authorization",
    [None, "Bearer ", f"Bearer {TOKEN}x", f"Token {TOKEN}", f"Basic {TOKEN}", TOKEN],
)
def test_without_the_token_the_metrics_are_refused(client, metrics_token, authorization):
    headers = {} if authorization is None else {"HTTP_AUTHORIZATION": authorization}
    response = client.get("/metrics", **headers)
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == 'Bearer realm="metrics"'
    assert response.content.decode() == "Un jeton de métriques valide est requis."


@pytest.mark.django_db
def test_a_request_made_before_the_scrape_is_counted_by_view_name(client, metrics_token):
    before = scrape(client)
    labels = {"view": "health", "method": "GET", "status": "200"}
    assert client.get("/healthz").status_code == 200
    secret_path = "/no-such-page-dupont/"
    assert client.get(secret_path).status_code == 404
    after = scrape(client)
    counted = value(after, "fft_http_requests_total", **labels)
    assert counted == (value(before, "fft_http_requests_total", **labels) or 0) + 1
    durations = ("fft_http_request_duration_seconds_count", {"view": "health", "method": "GET"})
    assert (
        value(after, durations[0], **durations[1])
        == (value(before, durations[0], **durations[1]) or 0) + 1
    )
    # the health check made one query: counted in the bucket "at most 1 query", not in "0"
    queries = "fft_http_request_db_queries_bucket"
    for le, grew in (("0.0", 0), ("1.0", 1)):
        was = value(before, queries, view="health", le=le) or 0
        assert value(after, queries, view="health", le=le) == was + grew
    # a URL no pattern matches is counted as such: the raw path is never a label
    unmatched = {"view": "unmatched", "method": "GET", "status": "404"}
    assert (
        value(after, "fft_http_requests_total", **unmatched)
        == (value(before, "fft_http_requests_total", **unmatched) or 0) + 1
    )
    assert not any("dupont" in str(key) for key in after)


@pytest.fixture
def broker_queue(settings):
    """A queue of its own on the tests' Redis broker, read by the metrics; emptied after."""
    name = f"fft-metrics-{uuid.uuid4().hex[:8]}"
    settings.CELERY_BROKER_URL = BROKER
    settings.CELERY_QUEUES_BY_KIND = (settings.CELERY_TASK_DEFAULT_QUEUE, name)
    yield name
    with Connection(BROKER) as connection:
        connection.default_channel.client.delete(name)


@pytest.mark.django_db
def test_the_scrape_reads_the_queues_lengths_on_the_broker(client, metrics_token, broker_queue):
    assert value(scrape(client), "fft_celery_queue_length", queue=broker_queue) == 0
    with Connection(BROKER) as connection:
        queue = connection.SimpleQueue(broker_queue)
        for n in range(3):
            queue.put({"n": n})
        queue.close()
    samples = scrape(client)
    assert value(samples, "fft_celery_queue_length", queue=broker_queue) == 3
    assert value(samples, "fft_metrics_source_up", source="celery_queues") == 1


@pytest.mark.django_db
def test_a_broker_down_is_said_and_hides_nothing_else(client, metrics_token, settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nobody listens on port 1
    samples = scrape(client)
    assert value(samples, "fft_metrics_source_up", source="celery_queues") == 0
    assert value(samples, "fft_metrics_source_up", source="outbox") == 1
    assert value(samples, "fft_outbox_unsent") == 0


def test_the_queues_are_the_routes_when_no_list_is_given(settings):
    if hasattr(settings, "CELERY_QUEUES_BY_KIND"):
        del settings.CELERY_QUEUES_BY_KIND
    settings.CELERY_TASK_DEFAULT_QUEUE = "celery"
    settings.CELERY_TASK_ROUTES = {
        "rankings.refresh_live_ranking": {"queue": "live"},
        "rankings.recompute_*": "publication",
        "competitions.email_*": {"queue": "email"},
    }
    assert queue_names() == ["celery", "email", "live", "publication"]


@pytest.mark.django_db
def test_the_scrape_shows_the_outbox_backlog_and_its_oldest_row(client, metrics_token):
    samples = scrape(client)
    assert value(samples, "fft_outbox_unsent") == 0
    assert value(samples, "fft_outbox_oldest_unsent_age_seconds") == 0
    OutboxMessage.objects.create(task="rankings.refresh_live_ranking", args=[1])
    old = OutboxMessage.objects.create(task="rankings.refresh_live_ranking", args=[2])
    OutboxMessage.objects.filter(pk=old.pk).update(
        created_at=timezone.now() - dt.timedelta(minutes=10)
    )
    OutboxMessage.objects.create(task="core.send_outbox", sent_at=timezone.now())
    samples = scrape(client)
    assert value(samples, "fft_outbox_unsent") == 2
    assert 600 <= value(samples, "fft_outbox_oldest_unsent_age_seconds") < 3600


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _stale_counts(directory: Path) -> None:
    """A counter file a previous run left (a dead worker's 1000 requests)."""
    stale = MmapedDict(str(directory / "counter_99999.db"))
    key = mmap_key(
        "fft_http_requests", "fft_http_requests_total", ["view", "method", "status"],
        ["unmatched", "GET", "404"], "stale",
    )  # fmt: skip
    stale.write_value(key, 1000.0, 0.0)
    stale.close()


def _wait_until_serving(url: str) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(url)
        except urllib.error.HTTPError:
            return  # it answers (a 404, counted)
        except OSError:
            assert time.monotonic() < deadline, "gunicorn did not start"
            time.sleep(0.2)


def test_gunicorns_workers_counts_are_summed_by_the_scrape(tmp_path):
    """Real gunicorn with the hooks of config/gunicorn.py, two workers each replaced after
    five requests: ten requests are served by several processes, and whichever answers
    the scrape shows them all (the replaced ones' too), and none of a previous run's."""
    directory = tmp_path / "prometheus"
    directory.mkdir()
    _stale_counts(directory)
    port = _free_port()
    env = {
        **os.environ,
        "PROMETHEUS_MULTIPROC_DIR": str(directory),
        "METRICS_TOKEN": TOKEN,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LOG_LEVEL": "ERROR",
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "python:config.gunicorn", "--workers", "2",
         "--max-requests", "5", "--bind", f"127.0.0.1:{port}", "config.wsgi:application"],
        env=env, cwd=ROOT, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_until_serving(f"{base}/no-such-page/")
        for _ in range(9):  # ten in all
            with pytest.raises(urllib.error.HTTPError):
                urllib.request.urlopen(f"{base}/no-such-page/")
        assert len(list(directory.glob("counter_*.db"))) >= 2  # one file per process
        scrape_request = urllib.request.Request(
            f"{base}/metrics", headers={"Authorization": f"Bearer {TOKEN}"}
        )
        body = urllib.request.urlopen(scrape_request).read().decode()
    finally:
        server.terminate()
        server.wait(timeout=30)
    samples = {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(body)
        for sample in family.samples
    }
    unmatched = {"view": "unmatched", "method": "GET", "status": "404"}
    assert value(samples, "fft_http_requests_total", **unmatched) == 10
    assert not (directory / "counter_99999.db").exists()
