"""Locks that keep the ranking's writers from running over each other.

On PostgreSQL they are advisory locks keyed by (purpose, season id):

- :func:`season_writer_lock`: ``pg_advisory_xact_lock``, held until the end of
  the caller's transaction. Every writer of a season's standings (the
  incremental update, the full recompute, the official ranking) takes it, so
  they run one after the other and each reads the allocations committed
  before it started writing: none is lost. A writer waits at most
  ``ADVISORY_LOCK_TIMEOUT_MS`` (PostgreSQL's ``lock_timeout``, for that wait
  only), then gives up with :class:`SeasonBusy`: a request answers 409 ``busy``,
  a task retries later (``rankings/tasks.py``). Nobody waits forever behind a
  stuck or very long writer.
- :func:`try_refresh_lock`: ``pg_try_advisory_lock`` on the session, for the
  coalesced live-ranking refresh: one refresh of a season at a time; a second
  one asked meanwhile returns at once (the running one loops until it is up to
  date, see ``live_ranking.py``).
- :func:`publication_lock`: ``pg_try_advisory_lock`` on the session for the whole
  publication of a season's official ranking (several transactions): a second
  publication of the season meanwhile is refused with :class:`SeasonBusy` (a task
  retries later, ``rankings/season/official_ranking.py``).

On another database (SQLite, the embedded default) the writer lock falls back
to ``SELECT … FOR UPDATE`` on the season row (a no-op there: SQLite already
lets one writer at a time in) and the refresh lock to a lock of this process.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.db import OperationalError, connection, transaction

from core.errors import Conflict
from federation.models import Season

# First key of the advisory locks (an arbitrary constant, one per purpose).
WRITER = 0x46465401  # "FFT" 01
REFRESH = 0x46465402
PUBLICATION = 0x46465403
AS_OF = 0x46465404  # one computation of a season's ranking as of a day at a time
AS_OF_ASK = 0x46465405  # the count of a season's queued as-of computations (as_of.py)
LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL's SQLSTATE when lock_timeout expires

_local_locks: dict[tuple[int, int], threading.Lock] = {}
_local_guard = threading.Lock()


def _is_postgresql() -> bool:
    return connection.vendor == "postgresql"


def _sqlstate(exc: OperationalError) -> str | None:
    """The SQLSTATE of the driver's error Django wrapped (psycopg 3, or psycopg2)."""
    cause = exc.__cause__
    return getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)


class SeasonBusy(Conflict):
    """Another writer held the season's ranking longer than the lock timeout."""

    code = "busy"


def season_writer_lock(season_id: int) -> None:
    """Block until this transaction holds the season's writer lock (released at commit).

    Raises :class:`SeasonBusy` after ``ADVISORY_LOCK_TIMEOUT_MS`` (the transaction is
    then unusable: let the error roll it back).
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("season_writer_lock must be taken inside transaction.atomic")
    if _is_postgresql():
        with connection.cursor() as cursor:
            # The timeout bounds this wait only: the caller's later statements keep theirs.
            cursor.execute("SELECT current_setting('lock_timeout')")
            previous = cursor.fetchone()[0]
            timeout = f"{settings.ADVISORY_LOCK_TIMEOUT_MS}ms"
            cursor.execute("SELECT set_config('lock_timeout', %s, true)", [timeout])
            try:
                cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [WRITER, season_id])
            except OperationalError as exc:
                if _sqlstate(exc) == LOCK_NOT_AVAILABLE:
                    raise SeasonBusy(
                        "The season's ranking is being updated: busy, retry later."
                    ) from exc
                raise
            cursor.execute("SELECT set_config('lock_timeout', %s, true)", [previous])
    else:
        list(Season.objects.select_for_update().filter(pk=season_id).values_list("pk"))


@contextmanager
def try_refresh_lock(season_id: int) -> Iterator[bool]:
    """Hold the season's refresh lock if free; yields whether it was acquired."""
    with _try_session_lock(REFRESH, season_id) as acquired:
        yield acquired


@contextmanager
def publication_lock(season_id: int) -> Iterator[None]:
    """Hold the season's publication lock for the block, or raise :class:`SeasonBusy` at
    once if another publication of the season holds it."""
    with _try_session_lock(PUBLICATION, season_id) as acquired:
        if not acquired:
            raise SeasonBusy("The season's official ranking is being published: busy, retry later.")
        yield


@contextmanager
def _try_session_lock(purpose: int, season_id: int) -> Iterator[bool]:
    """Hold the (purpose, season) session lock if free; yields whether it was acquired."""
    if _is_postgresql():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [purpose, season_id])
            acquired = bool(cursor.fetchone()[0])
        try:
            yield acquired
        finally:
            if acquired:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [purpose, season_id])
        return
    with _local_guard:
        lock = _local_locks.setdefault((purpose, season_id), threading.Lock())
    acquired = lock.acquire(blocking=False)
    try:
        yield acquired
    finally:
        if acquired:
            lock.release()
