"""Public reads from a read replica (``DATABASE_REPLICA_URL``), everything else from the
primary.

Only the public reads of the ranking go to the replica: the cached read path
(``core/http/http_cache.py``, ``rankings/reads/read_versions.py``) runs its version lookup *and* the
build of a missed answer inside :func:`public_reads`, so both come from the same
database. A replica that lags behind then only delays a new version (the version it
reports is the one its rows have); it can never store yesterday's rows under today's
version. Writes, the staff desk, the admin, tasks and every read outside that block use
the primary (``default``). Without ``DATABASE_REPLICA_URL`` there is no ``replica`` alias
and the router sends everything to ``default``.

Read your writes: a reader who has just written (a signed cookie set on every write
answered, ``core/http/middleware.py::ReadYourWrites``, for ``READ_YOUR_WRITES_S`` seconds)
is served inside :func:`own_writes`, where even the public reads go to the primary: a
lagging replica never hides a person's own write from them. The versions such a reader
sees are read from the primary too, outside the process's memo of versions
(``rankings/reads/read_versions.py``), so that no replica reader is ever handed a version
its replica has not reached.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings

REPLICA = "replica"
_public = ContextVar("public_reads", default=False)
_own_writes = ContextVar("own_writes", default=False)


@contextmanager
def public_reads() -> Iterator[None]:
    """Reads in this block go to the replica when there is one."""
    token = _public.set(True)
    try:
        yield
    finally:
        _public.reset(token)


@contextmanager
def primary_reads() -> Iterator[None]:
    """Reads in this block go to the primary, even inside :func:`public_reads`: a read
    of rows this request has just written (the ranking as of a date, computed on a
    miss, ``rankings/season/as_of.py``)."""
    token = _public.set(False)
    try:
        yield
    finally:
        _public.reset(token)


@contextmanager
def own_writes() -> Iterator[None]:
    """Everything read in this block comes from the primary, the public reads included:
    the request of a person who wrote a moment ago (:func:`reads_own_writes`)."""
    token = _own_writes.set(True)
    try:
        yield
    finally:
        _own_writes.reset(token)


def reads_own_writes() -> bool:
    """Whether this request is a recent writer's, pinned to the primary by :func:`own_writes`."""
    return _own_writes.get()


def replica_in_use() -> bool:
    return REPLICA in settings.DATABASES and bool(getattr(settings, "READ_REPLICA", False))


class PublicReadsRouter:
    """``db_for_read``: the replica inside :func:`public_reads`, unless the reader has just
    written (:func:`own_writes`); otherwise Django's default choice (the primary, or the
    instance's own database)."""

    def db_for_read(self, model, **hints):
        if _public.get() and not _own_writes.get() and replica_in_use():
            return REPLICA
        return None

    def db_for_write(self, model, **hints):
        return None

    def allow_relation(self, obj1, obj2, **hints):
        return True  # the replica is a copy of the primary: same rows, same ids
