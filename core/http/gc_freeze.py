"""Python's cyclic garbage collector kept off the long-lived heap of a web process.

A full (generation 2) collection walks every tracked object of the process: in a web
worker, Django, the apps, the URL conf, compiled templates, the read cache's index…
— objects that live as long as the process and are never garbage. Measured on the
150,000-player season (``benchmarks/gc_pauses.py``: player records and pages answered
20,000 times from the read cache, in process): a full collection stopped the process for
134 ms (median), which under load is the p99 of every public read (both threads of a
gunicorn worker wait for it).
:func:`gc.freeze` moves the objects alive at that moment out of the collector's reach:

- :func:`freeze_loaded` — when the process has loaded the site (``config/wsgi.py``):
  full collections then took 21 ms;
- :func:`freeze_once_warm`, a ``request_finished`` receiver — once more after the
  process's first ``GC_FREEZE_AFTER_REQUESTS`` requests (default 1,000; 0: never), when
  the lazily built state (templates, resolvers' caches, the first stored answers) is in
  memory: 13 ms.

Garbage is still collected: only what was alive at a freeze is left alone (a cycle that
became garbage before it stays in memory: the state of a warm process, once).
"""

from __future__ import annotations

import gc
import threading

from django.conf import settings
from django.core.signals import request_finished

DISPATCH_UID = "gc_freeze_once_warm"
"""How :func:`freeze_once_warm` is connected to ``request_finished`` (``config/wsgi.py``)."""
_lock = threading.Lock()
_served = 0
_frozen_warm = False


def freeze_loaded() -> None:
    """Collect, then freeze what is alive: the loaded site (its URL conf imported: every
    view module)."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 — imports every view module
    gc.collect()
    gc.freeze()


def freeze_once_warm(**_signal: object) -> None:
    """After the process's first ``GC_FREEZE_AFTER_REQUESTS`` requests, freeze once more."""
    global _served, _frozen_warm
    after = int(getattr(settings, "GC_FREEZE_AFTER_REQUESTS", 1000))
    if _frozen_warm or after <= 0:
        return
    with _lock:
        _served += 1
        if _served < after or _frozen_warm:
            return
        _frozen_warm = True
    request_finished.disconnect(dispatch_uid=DISPATCH_UID)  # nothing more to count
    gc.collect()
    gc.freeze()
