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
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings

REPLICA = "replica"
_public = ContextVar("public_reads", default=False)


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


def replica_in_use() -> bool:
    return REPLICA in settings.DATABASES and bool(getattr(settings, "READ_REPLICA", False))


class PublicReadsRouter:
    """``db_for_read``: the replica inside :func:`public_reads`; otherwise Django's
    default choice (the primary, or the instance's own database)."""

    def db_for_read(self, model, **hints):
        if _public.get() and replica_in_use():
            return REPLICA
        return None

    def db_for_write(self, model, **hints):
        return None

    def allow_relation(self, obj1, obj2, **hints):
        return True  # the replica is a copy of the primary: same rows, same ids
