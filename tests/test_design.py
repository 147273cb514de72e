"""The one design, readable for older eyes: the colours' contrast (WCAG 2.1 AA) computed
from the stylesheet, no text below 14 px, a label for every field, a skip link, the PCN
plot's labels at 12 px or more on a 360-px-wide phone."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders

from rankings.reads.pcn_plot import SeasonPoint, pcn_plot_svg
from rankings.reads.svg_plot import PHONE_PLOT_WIDTH

CSS = Path(finders.find("core/site.css")).read_text()
PHONE = 360  # CSS pixels
ROOT_PX = 16  # the browsers' default text size, which the stylesheet keeps (100 %)


def colours() -> dict[str, str]:
    root = re.search(r":root\s*{([^}]*)}", CSS)
    assert root
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", root[1]))


def luminance(hex_colour: str) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(one: str, other: str) -> float:
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


TEXT, LARGE_OR_GRAPHIC = 4.5, 3.0
PAIRS = [  # foreground, background, the ratio WCAG AA asks
    ("ink", "white", TEXT), ("ink", "bg", TEXT), ("ink", "note-bg", TEXT),
    ("blue", "white", TEXT), ("blue", "bg", TEXT), ("muted", "white", TEXT),
    ("muted", "bg", TEXT), ("white", "blue", TEXT), ("white", "red", TEXT),
    ("bad", "white", TEXT), ("bad", "bad-bg", TEXT), ("warn", "white", TEXT),
    ("warn", "note-bg", TEXT), ("good", "good-bg", TEXT),
    ("white", "s1", TEXT), ("white", "s2", TEXT), ("white", "s3", TEXT), ("white", "s4", TEXT),
    ("focus", "blue", LARGE_OR_GRAPHIC), ("ink", "white", LARGE_OR_GRAPHIC),
    ("field", "white", LARGE_OR_GRAPHIC), ("bar", "white", LARGE_OR_GRAPHIC),
    ("red", "white", LARGE_OR_GRAPHIC),
]  # fmt: skip


@pytest.mark.parametrize(("foreground", "background", "minimum"), PAIRS)
def test_colour_contrast_meets_wcag_aa(foreground, background, minimum):
    palette = colours()
    assert contrast(palette[foreground], palette[background]) >= minimum


def test_text_follows_the_browser_size_and_is_never_below_14_px():
    assert re.search(r"html\s*{\s*font-size:\s*100%;", CSS)
    assert re.search(r"body\s*{[^}]*font:\s*1rem/", CSS)
    sizes = re.findall(r"font-size:\s*([\d.]+)(rem|em|px)", CSS)
    assert sizes
    for value, unit in sizes:
        px = float(value) * (ROOT_PX if unit in ("rem", "em") else 1)
        assert px >= 14, f"font-size {value}{unit}"


def test_the_plot_labels_are_at_least_12_px_on_a_phone():
    main = re.search(r"\nmain\s*{[^}]*padding:\s*([\d.]+)rem", CSS)
    assert main
    plot_px = PHONE - 2 * float(main[1]) * ROOT_PX - 2  # main's padding, the plot's border
    assert plot_px >= PHONE_PLOT_WIDTH
    assert not re.search(r"\.plot[^{]*{[^}]*font-size", CSS)  # the SVG sets its sizes
    years = range(2012, 2026)
    points = [SeasonPoint(f"{y}-{y + 1}", 40 * (y - 2000), 50 * (y - 2000)) for y in years]
    svg = ET.fromstring(pcn_plot_svg(points))
    width = float(svg.attrib["viewBox"].split()[2])
    size = float(svg.attrib["font-size"])
    assert size * PHONE_PLOT_WIDTH / width >= 12
    texts = list(svg.iter("{http://www.w3.org/2000/svg}text"))
    assert texts
    assert all(float(t.attrib.get("font-size", size)) >= size for t in texts)
    # the seasons' labels, thinned out, do not overlap (a digit is at most 0.6 em wide)
    seasons = [t for t in texts if re.fullmatch(r"\d{4}-\d\d", t.text or "")]
    assert seasons[-1].text == "2025-26"  # the last season is always labelled
    xs = [float(t.attrib["x"]) for t in seasons]
    gaps = [b - a for a, b in itertools.pairwise(xs)]
    assert min(gaps) >= 7 * 0.6 * size


class Fields(HTMLParser):
    """The form fields of a page: labelled by a <label for> or inside their <label>."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: list[tuple[str | None, bool]] = []  # (id, inside a label)
        self.labels: set[str] = set()
        self.ids: set[str] = set()
        self.open_labels = 0

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if attributes.get("id"):
            self.ids.add(attributes["id"])
        if tag == "label":
            self.open_labels += 1
            if attributes.get("for"):
                self.labels.add(attributes["for"])
        hidden = attributes.get("type") in ("hidden", "submit")
        if tag in ("input", "select", "textarea") and not hidden:
            self.fields.append((attributes.get("id"), self.open_labels > 0))

    def handle_endtag(self, tag):
        if tag == "label":
            self.open_labels -= 1

    def unlabelled(self) -> list[str | None]:
        return [id_ for id_, inside in self.fields if not inside and id_ not in self.labels]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    ["/", "/compte/connexion/", "/compte/mot-de-passe/oubli/", "/classement/", "/pas-une-page/"],
)
def test_every_field_has_its_label_and_a_skip_link_leads_to_the_content(client, registry, url):
    response = client.get(url)
    html = response.content.decode()
    page = Fields()
    page.feed(html)
    assert page.fields
    assert page.unlabelled() == []
    assert '<a class="skip" href="#main">Aller au contenu</a>' in html
    assert "main" in page.ids
    # the design is a stylesheet of this site (the Content-Security-Policy allows 'self')
    assert '<link rel="stylesheet" href="/static/core/site.css">' in html
    assert "default-src 'self'" in response["Content-Security-Policy"]
    assert "<script" not in html
