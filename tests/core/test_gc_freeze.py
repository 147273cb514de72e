"""core/http/gc_freeze.py: a web process's long-lived objects frozen once loaded, and once more
after its first requests (the p99 of the public reads: a full collection no longer walks
them)."""

from __future__ import annotations

import gc

import pytest

from core.http import gc_freeze


@pytest.fixture
def unfrozen(monkeypatch):
    monkeypatch.setattr(gc_freeze, "_served", 0)
    monkeypatch.setattr(gc_freeze, "_frozen_warm", False)
    gc.unfreeze()
    yield
    gc.unfreeze()  # the suite's own objects back under the collector


def test_the_loaded_site_is_frozen(unfrozen):
    gc_freeze.freeze_loaded()
    assert gc.get_freeze_count() > 0


def test_frozen_once_more_after_the_first_requests(unfrozen, settings):
    settings.GC_FREEZE_AFTER_REQUESTS = 3
    for _ in range(2):
        gc_freeze.freeze_once_warm()
    assert gc.get_freeze_count() == 0
    gc_freeze.freeze_once_warm()
    frozen = gc.get_freeze_count()
    assert frozen > 0
    gc.unfreeze()
    for _ in range(5):
        gc_freeze.freeze_once_warm()
    assert gc.get_freeze_count() == 0  # once only


def test_not_again_when_set_to_zero(unfrozen, settings):
    settings.GC_FREEZE_AFTER_REQUESTS = 0
    for _ in range(3):
        gc_freeze.freeze_once_warm()
    assert gc.get_freeze_count() == 0


def test_the_wsgi_application_freezes_and_listens(unfrozen):
    import importlib

    from django.core.signals import request_finished

    import config.wsgi

    importlib.reload(config.wsgi)
    assert gc.get_freeze_count() > 0
    assert request_finished.disconnect(dispatch_uid=gc_freeze.DISPATCH_UID)  # it was connected


def test_the_receiver_leaves_once_it_has_frozen(unfrozen, settings):
    from django.core.signals import request_finished

    settings.GC_FREEZE_AFTER_REQUESTS = 1
    request_finished.connect(gc_freeze.freeze_once_warm, dispatch_uid=gc_freeze.DISPATCH_UID)
    gc_freeze.freeze_once_warm()
    assert gc.get_freeze_count() > 0
    assert not request_finished.disconnect(dispatch_uid=gc_freeze.DISPATCH_UID)  # already gone
