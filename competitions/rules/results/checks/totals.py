"""Totals: a player's total is their position scores less their penalties, an entry's
is its players' totals, and the entries' totals plus the penalties sum to zero (every
table balances at every position). With eliminations, see
:func:`~competitions.rules.results.checks.eliminations.check_staged_totals`.

Source: Fascicule 2, ch. 2 (*Etablissement des résultats*).
"""

from __future__ import annotations

from competitions.rules.results.checks.run import CheckRun, named, who


def check_totals(check: CheckRun) -> None:
    """The totals of a tournament without eliminations."""
    gaps = check.gaps
    scores_missing = gaps.positions or gaps.penalties  # a derived total would be wrong
    for i, entry in enumerate(check.document.entries):
        known: list[int | None] = []
        explained = gaps.entry_incomplete(entry.number)  # by a mistake reported elsewhere
        for j, player in enumerate(entry.players):
            penalties = (
                check.penalty_points.get(player.licence_number, 0)
                if player.licence_number is not None
                else 0
            )
            total = player.total
            if player.positions:
                scored = sum(score.score for score in player.positions)
                derived = scored - penalties
                at_unbalanced_table = (i, j) in check.unbalanced
                if total is None and (scores_missing or at_unbalanced_table):
                    explained = True
                # At a table that does not balance, the table's mistake, reported there.
                if total not in (None, derived) and not (scores_missing or at_unbalanced_table):
                    check.error(
                        f"entries[{i}].players[{j}].total",
                        "player_total_mismatch",
                        f"Player {who(player)}'s total is {total}, but the position scores "
                        f"sum to {scored} and the penalties to {penalties}: the total is "
                        f"{derived}.",
                        who=named(player),
                        total=total,
                        scored=scored,
                        penalties=penalties,
                        derived=derived,
                    )
                total = derived if total is None else total
            known.append(total)
        if known and None not in known and not explained:
            summed = sum(known)  # type: ignore[arg-type]
            if summed != entry.total:
                check.error(
                    f"entries[{i}].total",
                    "entry_total_mismatch",
                    f"Entry {entry.number}'s total is {entry.total}, but its players' totals "
                    f"(after penalties) sum to {summed}.",
                    entry=entry.number,
                    total=entry.total,
                    summed=summed,
                )
    entries = check.document.entries
    if gaps.any:
        return  # an entry or a penalty could not be read: the sum cannot balance
    if entries and not any(p.code == "entry_total_mismatch" for p in check.errors):
        totals = sum(entry.total for entry in entries)
        penalties = sum(points for points in check.penalty_points.values())
        if totals + penalties != 0:
            check.error(
                "entries",
                "totals_do_not_sum_to_zero",
                f"The entries' totals sum to {totals:+d} and the penalties to {penalties}; "
                f"every table balances at every position, so the totals plus the penalties "
                f"sum to 0, not {totals + penalties:+d} (chapter 2, 'Etablissement des "
                f"résultats').",
                totals=f"{totals:+d}",
                penalties=penalties,
                sum=f"{totals + penalties:+d}",
            )
