"""A small SVG line chart of a player's PCN over the seasons, drawn on the server
(no JavaScript, no external library). Pure: no Django."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from html import escape


@dataclass(frozen=True)
class SeasonPoint:
    season: str  # "2025-2026"
    season_pcn: int  # PCN earned in the season
    total_pcn: int | None  # total of the ranking (season + carried), if ranked


# The SVG scales to its box (width 100 %, at most 40rem: site.css), so its text is drawn
# at font size × rendered width / WIDTH. On a 360-px-wide phone the page gives the plot
# 332 px (main's side padding 2 × 12.8 px, its border 2 × 1 px); with 320 for margin, a
# label of LABEL_SIZE units renders at 18 × 320 / 480 = 12 px or more (larger on wider
# screens: 24 px at 40rem).
PHONE_PLOT_WIDTH = 320  # CSS pixels
MIN_LABEL_PX = 12
WIDTH = 480
LABEL_SIZE = math.ceil(MIN_LABEL_PX * WIDTH / PHONE_PLOT_WIDTH)  # 18 units
CHAR_WIDTH = 0.6 * LABEL_SIZE  # an upper estimate of a digit's advance in system fonts
ROW = LABEL_SIZE + 8  # one line of labels under the plot
LEFT, RIGHT, TOP, PLOT_HEIGHT = 64, 16, 16, 200
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

    parts = [
        f'<svg class="plot" viewBox="0 0 {WIDTH} {HEIGHT}" font-size="{LABEL_SIZE}" role="img" '
        f'aria-labelledby="plot-title plot-desc" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="plot-title">{escape(title)}</title>',
        '<desc id="plot-desc">'
        + escape(
            "; ".join(
                f"{p.season} : {p.season_pcn} PCN dans la saison"
                + (f", {p.total_pcn} PCN au total" if p.total_pcn is not None else "")
                for p in points
            )
        )
        + "</desc>",
    ]
    for tick in range(5):
        value = top * tick // 4
        ty = y(value)
        parts.append(
            f'<line class="grid" x1="{LEFT}" y1="{ty:.1f}" x2="{WIDTH - RIGHT}" y2="{ty:.1f}"/>'
            f'<text class="axis" x="{LEFT - 6}" y="{ty + LABEL_SIZE / 3:.1f}" '
            f'text-anchor="end">{value}</text>'
        )
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
            parts.append(
                f'<text class="axis" x="{cx:.1f}" y="{TOP + plot_h + ROW}" '
                f'text-anchor="middle">{escape(_short(p.season))}</text>'
            )
        if p.total_pcn is not None:
            line.append((cx, y(p.total_pcn), p))
    if len(line) > 1:
        path = " ".join(f"{x:.1f},{yy:.1f}" for x, yy, _ in line)
        parts.append(f'<polyline class="line" points="{path}"/>')
    for x, yy, p in line:
        parts.append(
            f'<circle class="dot" cx="{x:.1f}" cy="{yy:.1f}" r="4"><title>'
            f"{escape(p.season)} : {p.total_pcn} PCN au total</title></circle>"
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
