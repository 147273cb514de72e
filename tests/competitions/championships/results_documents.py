"""Results documents for the championship tests, places computed in the 1224 convention
with article 29 where the test gives tie-break figures."""

from __future__ import annotations

import math
from collections.abc import Sequence


def results(
    entries: Sequence[Sequence[int]],
    *,
    totals: Sequence[int] | None = None,
    sessions: int = 2,
    deals: int = 20,
    tiebreaks: dict[int, dict] | None = None,
    penalties: Sequence[dict] = (),
    abandoned: Sequence[int] = (),
) -> dict:
    """A results document for ``entries`` (licence numbers, ranking order).

    ``totals`` default to a decreasing zero-sum list; places are computed in the 1224
    convention, entries level on total separated only when both have ``tiebreaks`` (by
    index: {"best_position_score": …, "contracts_made": {…}}) and in the given order.
    ``abandoned``: indices of entries that left (article 27), placed last.
    """
    n = len(entries)
    if totals is None:
        totals = [10 * (n - 1 - 2 * i) for i in range(n)]
        penalty_points = sum(p["points"] for p in penalties)
        totals[-1] -= penalty_points
    tiebreaks = tiebreaks or {}
    order = sorted(range(n), key=lambda i: (i in abandoned, -totals[i], i))
    places = {}
    for rank, i in enumerate(order):
        if rank and _level(order[rank - 1], i, totals, abandoned, tiebreaks):
            places[i] = places[order[rank - 1]]
        else:
            places[i] = rank + 1
    players = sum(len(e) for e in entries)
    tables = math.ceil(players / 4)
    return {
        "format_version": 1,
        "sessions": [
            {
                "number": k + 1,
                "tables": tables,
                "tables_of_three": 4 * tables - players,
                "deals": deals,
            }
            for k in range(sessions)
        ],
        "entries": [
            {
                "number": i + 1,
                "place": places[i],
                "total": totals[i],
                "abandoned": i in abandoned,
                "players": [
                    {"licence_number": n, "total": totals[i] if k == 0 else 0}
                    for k, n in enumerate(entry)
                ],
                **({"tiebreak": tiebreaks[i]} if i in tiebreaks else {}),
            }
            for i, entry in enumerate(entries)
        ],
        "penalties": list(penalties),
    }


def _level(above: int, below: int, totals, abandoned, tiebreaks) -> bool:
    """Level entries share a place unless article 29 separates them."""
    if (above in abandoned) != (below in abandoned) or totals[above] != totals[below]:
        return False
    if above in tiebreaks and below in tiebreaks:
        return tiebreaks[above] == tiebreaks[below]  # the tie survives article 29
    return True


def tiebreak(best: int, prise: int = 0, garde: int = 0) -> dict:
    return {
        "best_position_score": best,
        "contracts_made": {"prise": prise, "garde": garde, "garde_sans": 0, "garde_contre": 0},
    }


def staged_results(
    entries: Sequence[Sequence[int]],
    first: Sequence[int],
    kept: int,
    second: Sequence[int],
    *,
    divisor: int = 2,
    deals: int = 20,
) -> dict:
    """Two sessions with eliminations (individual): ``first`` is entry i's session 1 score,
    the best ``kept`` play session 2 and score ``second`` (in session 1's order), carrying
    their session 1 score divided by ``divisor`` (a half rounded away from zero, the
    default rulebook's). Places: those who played on first, by total; the eliminated after,
    by their total when eliminated."""
    n = len(entries)
    ranked = sorted(range(n), key=lambda i: -first[i])
    going_on, out = ranked[:kept], ranked[kept:]

    def halved(score: int) -> int:
        quotient, remainder = divmod(abs(score), divisor)
        value = quotient + (1 if 2 * remainder >= divisor else 0)
        return value if score >= 0 else -value

    carried = {i: halved(first[i]) if divisor == 2 else first[i] for i in going_on}
    totals = {i: carried[i] + second[k] for k, i in enumerate(going_on)}
    totals.update({i: first[i] for i in out})
    places = {i: 1 + sum(1 for j in going_on if totals[j] > totals[i]) for i in going_on}
    places.update({i: kept + 1 + sum(1 for j in out if totals[j] > totals[i]) for i in out})
    tables1, tables2 = math.ceil(n / 4), math.ceil(kept / 4)
    return {
        "format_version": 1,
        "sessions": [
            {"number": 1, "tables": tables1, "tables_of_three": 4 * tables1 - n, "deals": deals,
             "entries": [{"number": i + 1, "score": first[i]} for i in range(n)]},
            {"number": 2, "tables": tables2, "tables_of_three": 4 * tables2 - kept,
             "deals": deals, "points_divisor": divisor,
             "entries": [{"number": i + 1, "score": second[k], "carried": carried[i]}
                         for k, i in enumerate(going_on)]},
        ],
        "entries": [
            {"number": i + 1, "place": places[i], "total": totals[i],
             "players": [{"licence_number": n} for n in entry]}
            for i, entry in enumerate(entries)
        ],
    }  # fmt: skip
