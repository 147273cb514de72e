"""Documents with eliminations between sessions and between positions, built independently of
the checks: each phase's scores, the entries kept at each cut, the carried scores, totals and
places worked out here from the texts' rules."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from competitions.rules.engine.eliminations import EliminatedOrder, HalvingRounding, divided

BASE = 7000


@dataclass(frozen=True)
class Step:
    """A phase of play: a new session (``after_position`` 0) or a cut after a position of
    the current session, keeping the best ``kept`` entries (``None``: everyone still in),
    dividing what they carry by ``divisor``; ``scores``: what the entries that play it
    score there, in the order of the ranking at its start. With ``positions`` (each
    position's scores in that order, the entries seated four by four in that order), the
    scores are their sums and every player gets his position scores."""

    session: int
    after_position: int
    scores: tuple[int, ...] = ()
    kept: int | None = None
    divisor: int = 1
    positions: tuple[tuple[int, ...], ...] = ()

    def totals(self) -> tuple[int, ...]:
        if not self.positions:
            return self.scores
        return tuple(sum(column) for column in zip(*self.positions, strict=True))


def document(
    n: int,
    steps: list[Step],
    *,
    rounding: HalvingRounding = HalvingRounding.HALF_AWAY_FROM_ZERO,
    order: EliminatedOrder = EliminatedOrder.SCORE_THEN_ARTICLE_29,
    deals: int = 20,
) -> dict[str, Any]:
    """An individual tournament of ``n`` players (entries 1..n, licences BASE + i)."""
    playing = list(range(n))  # entry indices, in the order of the ranking so far
    end: dict[int, int] = dict.fromkeys(range(n), 0)
    last_phase: dict[int, int] = dict.fromkeys(range(n), 0)
    sessions: list[dict[str, Any]] = []
    positions: dict[int, list[dict[str, int]]] = {i: [] for i in range(n)}
    for k, step in enumerate(steps):
        if k:
            playing.sort(key=lambda i: -end[i])
            kept = len(playing) if step.kept is None else step.kept
            playing = playing[:kept]
        carried = {i: divided(end[i], step.divisor, rounding) if k else 0 for i in playing}
        scores = step.totals()
        assert len(scores) == len(playing), (k, len(scores), len(playing))
        for p, row in enumerate(step.positions):
            for seat, (i, score) in enumerate(zip(playing, row, strict=True)):
                positions[i].append(
                    {"session": step.session, "position": step.after_position + p + 1,
                     "table": seat // 4 + 1, "score": score}
                )  # fmt: skip
        listed = []
        for i, score in zip(playing, scores, strict=True):
            end[i] = carried[i] + score
            last_phase[i] = k
            listed.append({"number": i + 1, "score": score, "carried": carried[i]})
        tables = math.ceil(len(playing) / 4)
        three = 4 * tables - len(playing)
        if step.after_position == 0:
            sessions.append(
                {"number": step.session, "tables": tables, "tables_of_three": three,
                 "deals": deals, "points_divisor": step.divisor, "entries": listed}
            )  # fmt: skip
        else:
            sessions[-1].setdefault("cuts", []).append(
                {"after_position": step.after_position, "tables": tables,
                 "tables_of_three": three, "points_divisor": step.divisor, "entries": listed}
            )  # fmt: skip
    places = _places(n, end, last_phase, order)
    return {
        "format_version": 1,
        "sessions": sessions,
        "entries": [
            {"number": i + 1, "place": places[i], "total": end[i],
             "players": [{"licence_number": BASE + i,
                          **({"positions": positions[i]} if positions[i] else {})}]}
            for i in range(n)
        ],
    }  # fmt: skip


def _places(
    n: int, end: dict[int, int], last: dict[int, int], order: EliminatedOrder
) -> dict[int, int]:
    final = max(last.values())
    places = {}
    for i in range(n):
        if order is EliminatedOrder.SHARED and last[i] < final:
            key_i: tuple[int, int] = (-last[i], 0)
        else:
            key_i = (-last[i], -end[i])
        ahead = 0
        for j in range(n):
            if order is EliminatedOrder.SHARED and last[j] < final:
                key_j: tuple[int, int] = (-last[j], 0)
            else:
                key_j = (-last[j], -end[j])
            ahead += key_j < key_i
        places[i] = ahead + 1
    return places


def zero_sum(values: list[int]) -> tuple[int, ...]:
    """``values`` with the last one making them sum to zero."""
    return (*values[:-1], -sum(values[:-1]))
