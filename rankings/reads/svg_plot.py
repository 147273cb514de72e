"""What the ranking's small SVG charts share (``pcn_plot``, ``place_plot``): their size for a
phone, the opening tag with its accessible title and description, the axis grid, and a line
of dots with their tooltips. Pure: no Django."""

from __future__ import annotations

import math
from collections.abc import Iterable
from html import escape

# The SVG scales to its box (width 100 %, at most 40rem: site.css), so its text is drawn
# at font size × rendered width / WIDTH. On a 360-px-wide phone the page gives the plot
# 332 px (main's side padding 2 × 12.8 px, its border 2 × 1 px); with 320 for margin, a
# label of LABEL_SIZE units renders at 18 × 320 / 480 = 12 px or more (larger on wider
# screens: 24 px at 40rem).
PHONE_PLOT_WIDTH = 320  # CSS pixels
MIN_LABEL_PX = 12
WIDTH = 480
LABEL_SIZE = math.ceil(MIN_LABEL_PX * WIDTH / PHONE_PLOT_WIDTH)  # 18 units
ROW = LABEL_SIZE + 8  # one line of labels under the plot
RIGHT, TOP, PLOT_HEIGHT = 16, 16, 200


def svg_open(*, height: float, ids: str, title: str, describe: str) -> list[str]:
    """The opening tag and its accessible title and description (``ids``: their id prefix)."""
    return [
        f'<svg class="plot" viewBox="0 0 {WIDTH} {height}" font-size="{LABEL_SIZE}" role="img" '
        f'aria-labelledby="{ids}-title {ids}-desc" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{ids}-title">{escape(title)}</title>',
        f'<desc id="{ids}-desc">{escape(describe)}</desc>',
    ]


def grid_line(*, left: float, y: float, label: object) -> str:
    """A horizontal line of the grid at ``y`` with its value on the left axis."""
    return (
        f'<line class="grid" x1="{left}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}"/>'
        f'<text class="axis" x="{left - 6}" y="{y + LABEL_SIZE / 3:.1f}" '
        f'text-anchor="end">{label}</text>'
    )


def axis_label(*, x: float, text: str) -> str:
    """A label under the plot, centred on ``x``."""
    return (
        f'<text class="axis" x="{x:.1f}" y="{TOP + PLOT_HEIGHT + ROW}" '
        f'text-anchor="middle">{escape(text)}</text>'
    )


def dotted_line(points: Iterable[tuple[float, float, str]]) -> list[str]:
    """A line through ``points`` (x, y, tooltip) and a dot at each with its tooltip."""
    points = list(points)
    parts = []
    if len(points) > 1:
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y, _ in points)
        parts.append(f'<polyline class="line" points="{path}"/>')
    parts.extend(
        f'<circle class="dot" cx="{x:.1f}" cy="{y:.1f}" r="4"><title>{escape(tip)}</title></circle>'
        for x, y, tip in points
    )
    return parts
