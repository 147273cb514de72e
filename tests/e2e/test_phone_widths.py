"""Every page a person reaches from where they land fits a 360 px phone and speaks to
them in words: a small demo federation (as ``seed_demo`` builds it, with the demo's users
and password), each demo user and a visitor walking the site breadth first from their
landing page by its links (tests/e2e/crawl.py), at 360 px. A page wider than the screen,
an ISO timestamp or a bare True/False/None fails the test, naming the page."""

from __future__ import annotations

import pytest
from django.test import override_settings

from demo.registry import DEMO_PASSWORD, DEMO_USERNAMES
from tests.e2e.crawl import walk

PAGES_PER_PERSON = 80  # distinct page shapes; the demo's surface is about 25 to 50 each


@pytest.fixture
def demo(transactional_db):
    """A small demo federation (debug on, as the demo requires): two seasons of
    tournaments in every state, the rankings, committee 1's championships."""
    from demo.championships import build_demo_championships
    from demo.registry_build import build_demo_registry
    from demo.tournaments import build_demo_tournaments

    with override_settings(DEBUG=True):
        registry = build_demo_registry(players=300, clubs=20)
        build_demo_tournaments(registry, tournaments=12)
        build_demo_championships(registry)
    return registry


@pytest.mark.parametrize("window", ["phone"], indirect=True)
def test_no_page_scrolls_sideways_or_shows_raw_values_on_a_phone(
    window, demo, sign_in, live_server
):
    page = window.page
    faults: list[str] = []
    visited: dict[str, int] = {}
    for username in ("", *DEMO_USERNAMES):
        page.context.clear_cookies()
        if username:
            sign_in(window, username, DEMO_PASSWORD)
            start = page.url.removeprefix(live_server.url)
            assert "/connexion/" not in start, f"{username} could not sign in"
        else:
            start = "/"
        seen = walk(page, live_server.url, start, PAGES_PER_PERSON, window.sideways)
        visited[username or "visitor"] = len(seen.visited)
        faults += [f"{username or 'visitor'}: {fault}" for fault in seen.faults]
    window.shot("last-page")
    assert not faults, "\n".join(faults)
    assert all(count >= 10 for count in visited.values()), visited  # the walks went far
    assert not window.refused, window.refused
