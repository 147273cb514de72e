"""A bounded breadth-first walk of the site as one person sees it, looking on each page
for what a person should never meet: a page wider than the screen, an ISO timestamp, a
bare ``True``/``False``/``None``.

Links followed: same-origin ``<a href>`` answered by a GET (never a form, never a
download: a ``download`` attribute, ``?format=``, a ``.ics``/``.csv``/``.pdf``/``.xlsx``
file), outside the API (``/api/``: its documentation is for integrators) and Django's
admin (its own design). One page per address *shape* (digits folded, query keys kept):
ten tournaments' pages are one page's design.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlsplit

from playwright.sync_api import Page

ISO_TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:")
BARE_PYTHON = re.compile(r"(?<![\w-])(True|False|None)(?![\w-])")
SKIPPED_PREFIXES = ("/api/", "/admin/", "/static/", "/i18n/", "/compte/deconnexion")
DOWNLOADS = re.compile(r"\.(ics|csv|pdf|xlsx|json)$|[?&]format=")
LINKS = """() => [...document.querySelectorAll("a[href]")]
  .filter(a => !a.hasAttribute("download"))
  .map(a => a.href)"""
MEASURE = """() => ({
  scroll: document.documentElement.scrollWidth,
  inner: window.innerWidth,
  text: document.body.innerText,
})"""


def shape(path_and_query: str) -> str:
    """``/tournois/12/?page=3`` and ``/tournois/40/?page=1`` are one shape."""
    parts = urlsplit(path_and_query)
    keys = sorted({key for key, _ in parse_qsl(parts.query, keep_blank_values=True)})
    return re.sub(r"\d+", "N", parts.path) + ("?" + "&".join(keys) if keys else "")


@dataclass
class Walk:
    """What a walk saw: the pages visited and, for each fault, the page that shows it."""

    visited: list[str] = field(default_factory=list)
    faults: list[str] = field(default_factory=list)


def walk(page: Page, base_url: str, start: str, limit: int, sideways=None) -> Walk:
    """Visit, breadth first, at most ``limit`` pages of distinct shapes reachable from
    ``start`` by links, measuring each; ``sideways`` names what sticks out (optional)."""
    origin = urlsplit(base_url)
    seen = {shape(start)}
    queue = deque([start])
    result = Walk()
    while queue and len(result.visited) < limit:
        address = queue.popleft()
        answer = page.goto(address)
        if answer is None or "text/html" not in (answer.headers.get("content-type") or ""):
            continue
        result.visited.append(address)
        measured = page.evaluate(MEASURE)
        if measured["scroll"] > measured["inner"]:
            what = f" ({'; '.join(sideways()[:3])})" if sideways else ""
            result.faults.append(
                f"{address}: {measured['scroll']} px wide on a {measured['inner']} px screen{what}"
            )
        for pattern, name in ((ISO_TIMESTAMP, "an ISO timestamp"), (BARE_PYTHON, "a bare value")):
            found = pattern.search(measured["text"])
            if found:
                around = measured["text"][max(0, found.start() - 30) : found.end() + 30]
                result.faults.append(f"{address}: {name} «{' '.join(around.split())}»")
        for link in page.evaluate(LINKS):
            parts = urlsplit(link)
            if (parts.scheme, parts.netloc) != (origin.scheme, origin.netloc):
                continue
            target = parts.path + (f"?{parts.query}" if parts.query else "")
            if parts.path.startswith(SKIPPED_PREFIXES) or DOWNLOADS.search(target):
                continue
            if shape(target) not in seen:
                seen.add(shape(target))
                queue.append(target)
    return result
