"""A small SVG line chart of a player's PCN over the seasons, drawn on the server
(no JavaScript, no external library). Pure: no Django."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from html import escape

from rankings.reads.svg_plot import (
    LABEL_SIZE,
    PLOT_HEIGHT,
    RIGHT,
    ROW,
    TOP,
    WIDTH,
    axis_label,
    dotted_line,
    grid_line,
    svg_open,
)


@dataclass(frozen=True)
class SeasonPoint:
    season: str  # "2025-2026"
    season_pcn: int  # PCN earned in the season
    total_pcn: int | None  # total of the ranking (season + carried), if ranked


CHAR_WIDTH = 0.6 * LABEL_SIZE  # an upper estimate of a digit's advance in system fonts
LEFT = 64
BOTTOM = 3 * ROW + 8  # the seasons, then two legend lines
HEIGHT = TOP + PLOT_HEIGHT + BOTTOM


def _nice_max(value: int) -> int:
    """A round upper bound for the axis (1, 2, 2.5 or 5 × 10^k)."""
    if value <= 0:
        return 100
    magnitude = 10 ** (len(str(int(value))) - 1)
    for factor in (1, 2, 2.5, 5, 10):
        bound = int(factor * magnitude)
        if bound >= value:
            return bound
    return 10 * magnitude


def _short(season: str) -> str:
    """ "2025-2026" → "2025-26": the axis label (the bar's tooltip keeps the full name)."""
    match = re.fullmatch(r"(\d{4})-\d\d(\d\d)", season)
    return f"{match[1]}-{match[2]}" if match else season


def pcn_plot_svg(points: list[SeasonPoint], title: str = "PCN par saison") -> str:
    """An accessible inline SVG: bars of season PCN, a line of total PCN."""
    if not points:
        return ""
    top = _nice_max(max(max(p.season_pcn, p.total_pcn or 0) for p in points))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, PLOT_HEIGHT
    slot = plot_w / len(points)
    bar = min(40.0, slot * 0.5)
    # Label every season when they fit side by side, else every n-th back from the last.
    widest = max(len(_short(p.season)) for p in points) * CHAR_WIDTH + LABEL_SIZE / 2
    every = max(1, math.ceil(widest / slot))

    def y(value: int) -> float:
        return TOP + plot_h * (1 - value / top)

    describe = "; ".join(
        f"{p.season} : {p.season_pcn} PCN dans la saison"
        + (f", {p.total_pcn} PCN au total" if p.total_pcn is not None else "")
        for p in points
    )
    parts = svg_open(height=HEIGHT, ids="plot", title=title, describe=describe)
    for tick in range(5):
        value = top * tick // 4
        parts.append(grid_line(left=LEFT, y=y(value), label=value))
    line = []
    for index, p in enumerate(points):
        cx = LEFT + slot * (index + 0.5)
        by = y(p.season_pcn)
        parts.append(
            f'<rect class="bar" x="{cx - bar / 2:.1f}" y="{by:.1f}" width="{bar:.1f}" '
            f'height="{TOP + plot_h - by:.1f}"><title>{escape(p.season)} : '
            f"{p.season_pcn} PCN</title></rect>"
        )
        if (len(points) - 1 - index) % every == 0:
            parts.append(axis_label(x=cx, text=_short(p.season)))
        if p.total_pcn is not None:
            line.append((cx, y(p.total_pcn), p))
    parts.extend(
        dotted_line((x, yy, f"{p.season} : {p.total_pcn} PCN au total") for x, yy, p in line)
    )
    first, second = TOP + plot_h + 2 * ROW, TOP + plot_h + 3 * ROW  # the legend's baselines
    swatch = LABEL_SIZE * 0.7
    parts.append(
        f'<g class="legend"><rect class="bar" x="{LEFT}" y="{first - swatch:.1f}" '
        f'width="{swatch:.1f}" height="{swatch:.1f}"/>'
        f'<text x="{LEFT + 32}" y="{first}">PCN de la saison</text>'
        f'<line class="line" x1="{LEFT}" y1="{second - swatch / 2:.1f}" x2="{LEFT + 24}" '
        f'y2="{second - swatch / 2:.1f}"/><text x="{LEFT + 32}" y="{second}">PCN au classement '
        "(avec report)</text></g>"
    )
    parts.append("</svg>")
    return "".join(parts)
