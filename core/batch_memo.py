"""Reads shared by a batch of service calls: each asked once, the answers kept for the batch.

A bulk load (``manage.py load_results``) runs the same services, with the same checks, for
hundreds of tournaments in a row; most of what they read does not change during the load
and is the same from one tournament to the next: a season's rulebook, which season holds a
date, an organiser, an arbiter and their accreditation, a club's affiliation. Inside
:func:`batch_reads`, :func:`memoized` answers each such read once (or from what the batch
preloaded with one query for all its lines, :func:`preload`); outside it (every API
request), :func:`memoized` simply reads: nothing is kept between requests.

Only reads that the batch itself cannot change go through here; the caller of
:func:`batch_reads` guarantees it (a bulk load writes tournaments and results, never
seasons, organisers, arbiters, accreditations, affiliations or rulebooks).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

T = TypeVar("T")

_memo: ContextVar[dict[Hashable, Any] | None] = ContextVar("batch_memo", default=None)


@contextmanager
def batch_reads() -> Iterator[dict[Hashable, Any]]:
    """Within this block, :func:`memoized` keeps its answers (a nested block shares the
    outer one's)."""
    if _memo.get() is not None:
        yield _memo.get()  # type: ignore[misc]
        return
    memo: dict[Hashable, Any] = {}
    token = _memo.set(memo)
    try:
        yield memo
    finally:
        _memo.reset(token)


def active() -> bool:
    """Whether a batch keeps the answers (else preloading is pointless)."""
    return _memo.get() is not None


def memoized(key: Hashable, read: Callable[[], T]) -> T:
    """``read()``, once per batch for ``key`` (every time outside a batch)."""
    memo = _memo.get()
    if memo is None:
        return read()
    try:
        return memo[key]  # type: ignore[no-any-return,unused-ignore]
    except KeyError:
        value = memo[key] = read()
        return value


def preload(answers: Mapping[Hashable, Any]) -> None:
    """Answers read for many keys at once (one query for a batch's lines); outside a
    batch, nothing."""
    memo = _memo.get()
    if memo is not None:
        for key, value in answers.items():
            memo.setdefault(key, value)
