"""A small SVG line chart of a player's PCN over the seasons, drawn on the server
(no JavaScript, no external library). Pure: no Django."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape


@dataclass(frozen=True)
class SeasonPoint:
    season: str  # "2025-2026"
    season_pcn: int  # PCN earned in the season
    total_pcn: int | None  # total of the ranking (season + carried), if ranked


WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 16, 44


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


def pcn_plot_svg(points: list[SeasonPoint], title: str = "PCN par saison") -> str:
    """An accessible inline SVG: bars of season PCN, a line of total PCN."""
    if not points:
        return ""
    top = _nice_max(max(max(p.season_pcn, p.total_pcn or 0) for p in points))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    slot = plot_w / len(points)
    bar = min(48.0, slot * 0.5)

    def y(value: int) -> float:
        return TOP + plot_h * (1 - value / top)

    parts = [
        f'<svg class="plot" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
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
            f'<text class="axis" x="{LEFT - 6}" y="{ty + 4:.1f}" text-anchor="end">{value}</text>'
        )
    line = []
    for index, p in enumerate(points):
        cx = LEFT + slot * (index + 0.5)
        by = y(p.season_pcn)
        parts.append(
            f'<rect class="bar" x="{cx - bar / 2:.1f}" y="{by:.1f}" width="{bar:.1f}" '
            f'height="{TOP + plot_h - by:.1f}"><title>{escape(p.season)} : '
            f"{p.season_pcn} PCN</title></rect>"
            f'<text class="axis" x="{cx:.1f}" y="{HEIGHT - BOTTOM + 18}" '
            f'text-anchor="middle">{escape(p.season)}</text>'
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
    parts.append(
        f'<g class="legend"><rect class="bar" x="{LEFT}" y="{HEIGHT - 14}" width="12" height="10"/>'
        f'<text x="{LEFT + 16}" y="{HEIGHT - 5}">PCN de la saison</text>'
        f'<line class="line" x1="{LEFT + 150}" y1="{HEIGHT - 9}" x2="{LEFT + 172}" '
        f'y2="{HEIGHT - 9}"/><text x="{LEFT + 178}" y="{HEIGHT - 5}">PCN au classement '
        "(avec report)</text></g>"
    )
    parts.append("</svg>")
    return "".join(parts)
