"""A small SVG line chart of a player's place in the national ranking over a season (the
ranking as of the end of sampled days, ``rankings/season/as_of.py``), drawn on the server:
place 1 at the top. Pure: no Django. The page shows the same figures as a table."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from rankings.reads.svg_plot import (
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

LEFT = 80
BOTTOM = 2 * ROW + 8
HEIGHT = TOP + PLOT_HEIGHT + BOTTOM


@dataclass(frozen=True)
class PlaceMark:
    day: dt.date
    place: int | None  # None: not ranked that day
    players: int


def _axis_bottom(worst: int) -> int:
    """The last place on the axis: a round number at or below the worst place shown."""
    for bound in (10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000,
                  100_000, 200_000, 500_000, 1_000_000):  # fmt: skip
        if bound >= worst:
            return bound
    return worst


def place_plot_svg(marks: list[PlaceMark], title: str, describe: str) -> str:
    """An accessible inline SVG (``describe``: the text alternative, e.g. the figures in
    words); empty when no day is ranked."""
    shown = [m for m in marks if m.place is not None]
    if not shown:
        return ""
    bottom = _axis_bottom(max(m.place for m in shown if m.place is not None))
    plot_w = WIDTH - LEFT - RIGHT
    slot = plot_w / len(marks)

    def y(place: int) -> float:
        return TOP + PLOT_HEIGHT * (place - 1) / max(1, bottom - 1)

    parts = svg_open(height=HEIGHT, ids="place-plot", title=title, describe=describe)
    for tick in range(5):
        place = 1 + (bottom - 1) * tick // 4
        parts.append(grid_line(left=LEFT, y=y(place), label=place))
    every = max(1, round(len(marks) / 4))
    line = []
    for index, mark in enumerate(marks):
        cx = LEFT + slot * (index + 0.5)
        if (len(marks) - 1 - index) % every == 0:
            parts.append(axis_label(x=cx, text=f"{mark.day:%d/%m}"))
        if mark.place is not None:
            line.append((cx, y(mark.place), mark))
    parts.extend(
        dotted_line(
            (x, yy, f"{mark.day:%d/%m/%Y} : {mark.place}e / {mark.players}") for x, yy, mark in line
        )
    )
    parts.append("</svg>")
    return "".join(parts)
