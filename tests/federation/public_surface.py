"""The public surface of the site, discovered rather than listed: every route of the
URLconf with its path parameters filled, every query parameter the OpenAPI schema
documents for a GET, and the same-site links and GET forms of the pages reached.

Used by the privacy walk (test_public_surface_privacy.py): a route added tomorrow is
walked without anyone adding it to a list, and a path parameter the walker does not know
how to fill fails the walk instead of being skipped."""

from __future__ import annotations

import html
import io
import json
import re
import zipfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import parse_qsl, urlencode, urlsplit

from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern, RoutePattern


@dataclass(frozen=True)
class Route:
    """A route of the URLconf: its pattern pieces, outermost first, and its view."""

    pieces: tuple[RoutePattern | RegexPattern, ...]
    name: str | None
    view: Callable

    @property
    def template(self) -> str:
        return "".join(str(p) for p in self.pieces)

    def parameters(self) -> list[str]:
        names: list[str] = []
        for piece in self.pieces:
            if isinstance(piece, RoutePattern):
                names += list(piece.converters)
            else:
                names += list(piece.regex.groupindex)
        return names

    def fill(self, values: Mapping[str, str]) -> str:
        """The route's address with ``values`` for its parameters."""
        url = ""
        for piece in self.pieces:
            text = str(piece)
            if isinstance(piece, RoutePattern):
                text = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: values[m.group(1)], text)
            else:
                text = _fill_regex(text, values)
            url += text
        return "/" + url


def _fill_regex(text: str, values: Mapping[str, str]) -> str:
    """A regular-expression route (DRF's router, format suffixes) made an address."""
    out, i = "", 0
    while i < len(text):
        if text.startswith("(?P<", i):
            end = text.index(">", i)
            name = text[i + 4 : end]
            depth, j = 1, end + 1
            while depth:
                depth += {"(": 1, ")": -1}.get(text[j], 0) if text[j - 1] != "\\" else 0
                j += 1
            out += values[name]
            i = j
        elif text[i] == "\\":
            out += text[i + 1]
            i += 2
        elif text[i] in "^$":
            i += 1
        elif text[i] == "?" and out.endswith("/"):
            i += 1  # an optional trailing slash: keep it
        else:
            out += text[i]
            i += 1
    return out


def routes() -> list[Route]:
    """Every route of the URLconf, admin and static files included."""

    def walk(patterns, pieces) -> Iterator[Route]:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, (*pieces, pattern.pattern))
            elif isinstance(pattern, URLPattern):
                yield Route((*pieces, pattern.pattern), pattern.name, pattern.callback)

    return list(walk(get_resolver().url_patterns, ()))


def preceding_word(route: Route, parameter: str) -> str:
    """The literal path segment just before ``parameter`` in the route: the resource it
    names (``tournaments`` for ``tournaments/<pk>/``)."""
    template = route.template
    opening = re.search(rf"\(\?P<{parameter}>|<(?:\w+:)?{parameter}>", template)
    at = opening.start() if opening else len(template)
    before = re.sub(r"<[^>]*>|\(\?P<[^)]*\)", "", template[:at]).replace("\\", "").strip("/^")
    return re.split(r"[/^]+", before)[-1] if before else ""


def schema_query_parameters() -> dict[str, list[dict]]:
    """The query parameters of every GET operation of the OpenAPI schema, by path
    (``/api/pcn/ranking/``, with ``{name}`` for path parameters)."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    found: dict[str, list[dict]] = {}
    for path, operations in schema["paths"].items():
        get = operations.get("get")
        if get is not None:
            found[path] = [p for p in get.get("parameters", []) if p.get("in") == "query"]
    return found


def schema_path_matches(schema_path: str, route: Route) -> bool:
    """Does the schema's ``/api/.../{pk}/`` describe ``route``?"""
    pattern = re.sub(r"\\\{\w+\\\}", r"[^/]+", re.escape(schema_path))
    sample = route.fill(dict.fromkeys(route.parameters(), "1"))
    return re.fullmatch(pattern, sample) is not None


class _Links(HTMLParser):
    """Same-site links and GET forms of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.forms: list[tuple[str, list[tuple[str, str, str]]]] = []
        self._form: tuple[str, list[tuple[str, str, str]]] | None = None
        self._select: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if (tag == "a" and a.get("href")) or (
            tag == "link" and a.get("href") and a.get("rel") == "alternate"
        ):
            self.links.append(a["href"])
        elif tag == "form" and (a.get("method") or "get").lower() == "get":
            self._form = (a.get("action") or "", [])
        elif self._form is not None and tag == "input" and a.get("name"):
            kind = (a.get("type") or "text").lower()
            if kind not in {"submit", "button", "checkbox", "radio"} or "checked" in a:
                self._form[1].append((a["name"], kind, a.get("value") or ""))
        elif self._form is not None and tag == "select" and a.get("name"):
            self._select = a["name"]
            self._form[1].append((a["name"], "select", ""))
        elif self._form is not None and tag == "option" and self._select:
            name, kind, value = self._form[1][-1]
            if not value:
                self._form[1][-1] = (name, kind, a.get("value") or "")

    def handle_endtag(self, tag):
        if tag == "form" and self._form is not None:
            self.forms.append(self._form)
            self._form = None
        elif tag == "select":
            self._select = None


def page_links(page_url: str, body: str, searches: Iterable[str]) -> set[str]:
    """The same-site addresses a page leads to: its links, and each GET form submitted
    with each of ``searches`` in its text boxes (the rest as the page fills it)."""
    parser = _Links()
    parser.feed(body)
    found: set[str] = set()
    base = urlsplit(page_url).path
    for href in parser.links:
        found.add(_same_site(base, html.unescape(href)))
    for action, inputs in parser.forms:
        texts = [name for name, kind, _ in inputs if kind in {"text", "search"}]
        fixed = [(name, value) for name, kind, value in inputs if kind not in {"text", "search"}]
        target = _same_site(base, action or base)
        for term in searches if texts else [""]:
            query = fixed + [(name, term) for name in texts]
            found.add(f"{target.split('?')[0]}?{urlencode(query)}" if query else target)
    return {url for url in found if url}


def _same_site(base: str, href: str) -> str:
    parts = urlsplit(href)
    if parts.scheme and parts.scheme not in {"http", "https"}:
        return ""
    if parts.netloc and parts.netloc not in {"testserver", "localhost"}:
        return ""
    path = parts.path or base
    if not path.startswith("/"):
        path = base.rsplit("/", 1)[0] + "/" + path
    return path + (f"?{parts.query}" if parts.query else "")


def canonical(url: str) -> str:
    """One address per page: the query's parameters sorted."""
    parts = urlsplit(url)
    query = urlencode(sorted(parse_qsl(parts.query, keep_blank_values=True)))
    return parts.path + (f"?{query}" if query else "")


@dataclass
class Read:
    """What a reader got: the status and the text a person or a program reads in it."""

    status: int
    content_type: str
    text: str
    links: set[str] = field(default_factory=set)


def readable_text(content_type: str, body: bytes) -> str:
    """The text of an answer as its reader sees it: HTML entities decoded, JSON's escapes
    decoded, an iCalendar's folded lines unfolded, a spreadsheet's cells."""
    kind = content_type.split(";")[0].strip().lower()
    if kind in {"application/json", "application/problem+json", "application/vnd.oai.openapi+json",
                "application/schema+json"}:  # fmt: skip
        return json.dumps(json.loads(body or b"null"), ensure_ascii=False)
    if kind in {"text/html", "text/plain", "text/csv", "application/vnd.oai.openapi",
                "text/javascript", "text/css", "application/javascript"}:  # fmt: skip
        return html.unescape(body.decode("utf-8-sig", errors="replace"))
    if kind == "text/calendar":
        text = body.decode("utf-8").replace("\r\n ", "").replace("\r\n\t", "")
        return text.replace("\\,", ",").replace("\\;", ";").replace("\\n", "\n")
    if kind == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet":
        with zipfile.ZipFile(io.BytesIO(body)) as archive:
            return html.unescape(" ".join(
                archive.read(name).decode("utf-8") for name in archive.namelist()
                if name.endswith(".xml")
            ))  # fmt: skip
    if not body:
        return ""
    raise AssertionError(f"the walker cannot read {content_type!r}: teach readable_text")
