"""Tables of 3 players: when the number of entrants is not a multiple of 4, the North seat of
the highest tables is removed, chosen so that no two removed seats share a table and as few
players as possible sit at a table of 3 twice ("veillez à supprimer les joueurs NORD
correctement de façon à ce qu'un joueur ne repasse une nouvelle fois à une table à 3
joueurs", Fascicule 2, page 17)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from competitions.rules.engine.movements.printed import seat_number
from competitions.rules.engine.tables import Orientation


def choose_vacancies(
    rows: Sequence[tuple[int, ...]], tables: int, count: int, *, strict: bool
) -> tuple[int, ...] | None:
    """North seats to remove: that of the highest table, then others such that no two removed
    seats ever share a table (a table of 2 is no table). Among those, the choice seating the
    fewest players twice at a table of 3, then the fewest three times, then the highest
    tables; ``strict`` accepts only a choice seating nobody twice. ``None`` if none works."""
    if count == 0:
        return ()
    candidates = [seat_number(table, Orientation.N) for table in range(tables, 0, -1)]
    # For each candidate seat, how many positions each other number shares its table.
    company: dict[int, Counter[int]] = {c: Counter() for c in candidates}
    for row in rows:
        for start in range(0, len(row), 4):
            at_table = row[start : start + 4]
            for number in at_table:
                if number in company:
                    company[number].update(n for n in at_table if n != number)

    def apart(a: int, b: int) -> bool:
        return b not in company[a]

    def cost(chosen: tuple[int, ...]) -> tuple[int, int]:
        sittings: Counter[int] = Counter()
        for seat in chosen:
            sittings.update(company[seat])
        return (
            sum(1 for n in sittings.values() if n >= 2),
            sum(1 for n in sittings.values() if n >= 3),
        )

    def disjoint(a: int, b: int) -> bool:
        return company[a].keys().isdisjoint(company[b].keys())

    first = candidates[0]
    others = [c for c in candidates[1:] if apart(first, c)]
    # First the highest choice seating nobody twice (pairwise disjoint company), found by
    # pruning; only if there is none, every choice is weighed.
    clear = [c for c in others if disjoint(first, c)]
    for rest in combinations(clear, count - 1):
        if all(apart(a, b) and disjoint(a, b) for a, b in combinations(rest, 2)):
            chosen = (first, *rest)
            if cost(chosen) == (0, 0):
                return chosen
    if strict:
        return None
    best: tuple[int, ...] | None = None
    best_cost = (0, 0)
    for rest in combinations(others, count - 1):
        if all(apart(a, b) for a, b in combinations(rest, 2)):
            chosen = (first, *rest)
            chosen_cost = cost(chosen)
            if best is None or chosen_cost < best_cost:
                best, best_cost = chosen, chosen_cost
    return best
