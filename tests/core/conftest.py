"""The demo federation seeded into a fresh PostgreSQL database and backed up with
``manage.py backup_database``: the archive the restore drill (test_backups.py) and the
streaming replica (test_streaming_replica.py) start from.

The commands run in a subprocess with the production settings (``config.settings``) on a
database of their own beside the suite's, named after it (``<test database>_drill``), the
live ranking in the tests' Redis database; both are emptied after the session.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The demo, smaller than `make run`'s (300 tournaments): its registry whole, 40 tournaments.
DEMO_TOURNAMENTS = 40


@dataclass(frozen=True)
class DemoArchive:
    archive: Path
    database: str  # the database seeded, backed up (and, in the drill, dropped and restored)
    url: str  # its DATABASE_URL
    redis_url: str  # the live ranking store's
    host: str
    port: str
    user: str
    password: str

    def target(self, **changes: str):
        from core.management.backups import Target

        where = {"name": self.database, "host": self.host, "port": self.port, "user": self.user,
                 "password": self.password, **changes}  # fmt: skip
        return Target(**where)


def redis_url() -> str:
    """The tests' Redis database, as the live_store_redis fixture (tests/rankings/conftest.py)."""
    return os.environ.get("TEST_RANKING_STORE_URL") or os.environ.get(
        "TEST_CELERY_BROKER_URL", "redis://127.0.0.1:6379/14"
    )


def clear_ranking_store(url: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    for key in client.scan_iter(match="fft:rank:*", count=1000):
        client.unlink(key)


def run_django(script: str, *, database_url: str, store_url: str, **env: str
               ) -> subprocess.CompletedProcess[str]:  # fmt: skip
    """Run ``script`` (Python, Django set up, ``call_command`` imported) in a fresh process
    with the production settings on ``database_url``: tasks run eagerly (no broker), the
    live ranking in ``store_url``."""
    environ = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "CACHE_URL"))},
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "1",
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": "",
        "RANKING_STORE_URL": store_url,
        **env,
    }
    prelude = "import django\ndjango.setup()\nfrom django.core.management import call_command\n"
    run = subprocess.run(
        [sys.executable, "-c", prelude + script], cwd=ROOT, env=environ,
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return run


def admin_connection(demo: DemoArchive):
    import psycopg

    return psycopg.connect(
        host=demo.host, port=demo.port, user=demo.user, password=demo.password or None,
        dbname="postgres", autocommit=True,
    )  # fmt: skip


def drop_database(demo: DemoArchive) -> None:
    from psycopg import sql

    with admin_connection(demo) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(demo.database))
        )


@pytest.fixture(scope="session")
def demo_archive() -> Iterator[DemoArchive]:
    from django.conf import settings
    from psycopg import sql

    db = settings.DATABASES["default"]
    if "postgresql" not in db["ENGINE"]:
        pytest.fail("the backup drill needs PostgreSQL: run the suite with DATABASE_URL set")
    host, port = str(db.get("HOST") or "127.0.0.1"), str(db.get("PORT") or 5432)
    user, password = str(db.get("USER") or "postgres"), str(db.get("PASSWORD") or "")
    name = f"{db['NAME']}_drill"
    auth = f"{user}:{password}" if password else user
    url = f"postgres://{auth}@{host}:{port}/{name}"
    directory = Path(tempfile.mkdtemp(prefix="fft-backups-"))
    store = redis_url()
    demo = DemoArchive(directory, name, url, store, host, port, user, password)
    drop_database(demo)
    with admin_connection(demo) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    clear_ranking_store(store)
    try:
        run_django(
            "call_command('migrate', verbosity=0)\n"
            f"call_command('seed_demo', tournaments={DEMO_TOURNAMENTS})\n"
            "call_command('backup_database')\n",
            database_url=url, store_url=store, BACKUP_DIR=str(directory),
        )  # fmt: skip
        (archive,) = directory.glob(f"{name}-*.dump")
        yield DemoArchive(archive, name, url, store, host, port, user, password)
    finally:
        drop_database(demo)
        clear_ranking_store(store)
        shutil.rmtree(directory, ignore_errors=True)
