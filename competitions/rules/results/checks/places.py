"""Places: the tie-break data is coherent (contracts, best position score); each entry is
placed where its total puts it ("1224": 1 + the entries ranked strictly ahead, an entry
that abandoned after all the others); level entries share a place unless article 29
separates them, and in a competition with tie-break rules article 29 decides.

Sources: Fascicule 2, ch. 3 art. 27 (abandon) and 29 (*ex-æquo*).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from competitions.rules.engine.standings import (
    Contender,
    TieBreakFigures,
    article_29_places,
)
from competitions.rules.results.checks.run import CheckRun
from competitions.rules.results.document import CONTRACTS, MAX_ENTRIES, EntryResult

PLACE_CODES = frozenset(
    {
        "place_out_of_range",
        "wrong_place",
        "place_sequence_broken",
        "tie_split_without_tiebreak",
        "tiebreak_contradicts_places",
        "tie_split_on_equal_tiebreak",
    }
)
"""The codes of a place found wrong by total (article 29 is then not compared)."""


@dataclass(frozen=True, slots=True)
class _Figures:
    """An entry's article 29 figures, compared in this order."""

    best_position_score: int
    contracts_made: int
    garde_contre_made: int
    garde_sans_made: int

    def key(self) -> tuple[int, int, int, int]:
        return (
            self.best_position_score,
            self.contracts_made,
            self.garde_contre_made,
            self.garde_sans_made,
        )

    def __str__(self) -> str:
        return (
            f"best position {self.best_position_score}, {self.contracts_made} contracts made, "
            f"{self.garde_contre_made} garde contre, {self.garde_sans_made} garde sans"
        )


def check_tiebreaks(check: CheckRun) -> None:
    deals = sum(max(s.deals, 0) for s in check.document.sessions)
    for i, entry in enumerate(check.document.entries):
        tiebreak = entry.tiebreak
        if tiebreak is None:
            continue
        at = f"entries[{i}].tiebreak"
        for key, count in tiebreak.contracts_made.items():
            if key not in CONTRACTS:
                check.error(
                    f"{at}.contracts_made.{key}",
                    "unknown_contract",
                    f"'{key}' is not a contract; the contracts are "
                    f"{', '.join(c.value for c in CONTRACTS)}.",
                    value=str(key),
                    contracts=", ".join(c.value for c in CONTRACTS),
                )
            elif count < 0:
                check.error(
                    f"{at}.contracts_made.{key}",
                    "negative_number",
                    f"A number of contracts made cannot be {count}.",
                    value=count,
                )
        made = sum(tiebreak.contracts_made.get(c, 0) for c in CONTRACTS)
        if deals and made > deals * len(entry.players):
            check.error(
                f"{at}.contracts_made",
                "too_many_contracts_made",
                f"Entry {entry.number}'s players made {made} contracts, more than the "
                f"{deals * len(entry.players)} deals they played in all.",
                entry=entry.number,
                made=made,
                deals=deals * len(entry.players),
            )
        best = tiebreak.best_position_score
        derived = check.entry_best.get(i)
        unbalanced = any(
            (i, j) in check.unbalanced for j in range(len(entry.players))
        )  # its scores' mistake is the table's, reported there
        if (
            best is not None
            and derived is not None
            and best != derived
            and not (unbalanced or check.gaps.positions)
        ):
            check.error(
                f"{at}.best_position_score",
                "best_position_score_mismatch",
                f"Entry {entry.number}'s best position score is given as {best}, but its "
                f"position scores give {derived}.",
                entry=entry.number,
                best=best,
                derived=derived,
            )


def _rank_key(entry: EntryResult) -> tuple[bool, int]:
    """Lower is better: entries that abandoned after all others, then by decreasing total."""
    return (entry.abandoned, -entry.total)


def _figures(check: CheckRun, i: int) -> _Figures | None:
    entry = check.document.entries[i]
    if entry.tiebreak is None:
        return None
    best = entry.tiebreak.best_position_score
    if best is None:
        best = check.entry_best.get(i)
    if best is None:
        return None
    made = entry.tiebreak.contracts_made
    return _Figures(
        best_position_score=best,
        contracts_made=sum(made.get(c, 0) for c in CONTRACTS),
        garde_contre_made=made.get(CONTRACTS[3], 0),
        garde_sans_made=made.get(CONTRACTS[2], 0),
    )


def check_places(check: CheckRun) -> None:
    entries = check.document.entries
    count = len(entries)
    by_place: dict[int, list[int]] = defaultdict(list)
    missing = check.entry_missing()
    out_of_range: set[int] = set()
    for i, entry in enumerate(entries):
        if not 1 <= entry.place <= count and not missing:
            out_of_range.add(i)
            check.error(
                f"entries[{i}].place",
                "place_out_of_range",
                f"Entry {entry.number} is placed {entry.place}, but places run from 1 to the "
                f"{count} entries.",
                entry=entry.number,
                place=entry.place,
                count=count,
            )
            continue
        by_place[entry.place].append(i)
    if _wrong_places(check, out_of_range):
        return  # each misplaced entry reported once; its neighbours' places follow from it
    ahead = 0
    previous: list[int] | None = None
    for place in sorted(by_place):
        group = by_place[place]
        if place != ahead + 1 and not missing:
            for i in group:
                check.error(
                    f"entries[{i}].place",
                    "place_sequence_broken",
                    f"Entry {entries[i].number} is placed {place}, but {ahead} entries are placed "
                    f"before it: in the standard competition convention ('1224', entries "
                    f"sharing a place take up as many places) it is placed {ahead + 1}.",
                    entry=entries[i].number,
                    place=place,
                    ahead=ahead,
                    expected=ahead + 1,
                )
        ahead += len(group)
        if previous is not None:
            _check_neighbours(check, previous, group)
        previous = group


def _wrong_places(check: CheckRun, out_of_range: set[int]) -> bool:
    """Report every entry placed where no reading of its total puts it: behind the
    entries that rank strictly better, and at most behind the level ones (article 29
    may order those); entries that could not be read may stand anywhere. Whether any
    was reported."""
    entries = check.document.entries
    keys = sorted(_rank_key(entry) for entry in entries)
    slack = check.entries_missing()
    found = False
    for i, entry in enumerate(entries):
        key = _rank_key(entry)
        first, last = bisect_left(keys, key) + 1, bisect_right(keys, key)
        latest = MAX_ENTRIES if slack is None else last + slack
        if i in out_of_range or first <= entry.place <= latest:
            continue
        found = True
        expected = str(first) if first == last else f"{first}–{last}"
        check.error(
            f"entries[{i}].place",
            "wrong_place",
            f"Entry {entry.number} (total {entry.total}"
            f"{', abandoned' if entry.abandoned else ''}) is placed {entry.place}, but its "
            f"total places it {expected} ('1224': 1 + the entries ranked strictly ahead; "
            f"an entry that abandoned after all the others, article 27).",
            entry=entry.number,
            total=entry.total,
            place=entry.place,
            expected=expected,
        )
    return found


def _check_neighbours(check: CheckRun, above: list[int], below: list[int]) -> None:
    """Level entries on two consecutive places: article 29 must separate them."""
    entries = check.document.entries
    worst_above = max(above, key=lambda i: _rank_key(entries[i]))
    best_below = min(below, key=lambda i: _rank_key(entries[i]))
    upper, lower = entries[worst_above], entries[best_below]
    if _rank_key(upper) != _rank_key(lower):
        return  # in total order (every entry is placed where its total allows)
    # Level entries split over two places: article 29 must separate them, in that order.
    key = _rank_key(upper)
    level_above = [i for i in above if _rank_key(entries[i]) == key]
    level_below = [i for i in below if _rank_key(entries[i]) == key]
    figures = {i: _figures(check, i) for i in (*level_above, *level_below)}
    missing = [i for i, f in figures.items() if f is None]
    if missing:
        for i in missing:
            check.error(
                f"entries[{i}].tiebreak",
                "tie_split_without_tiebreak",
                f"Entries {entries[level_above[0]].number} (placed {upper.place}) and "
                f"{entries[level_below[0]].number} (placed {lower.place}) are level on "
                f"{upper.total}; level entries share a place unless article 29 separates them, "
                f"which needs the tie-break data (best position score, contracts made) of "
                f"entry {entries[i].number}.",
                entry=entries[level_above[0]].number,
                place=upper.place,
                other=entries[level_below[0]].number,
                other_place=lower.place,
                total=upper.total,
                missing=entries[i].number,
            )
        return
    weakest = min(level_above, key=lambda i: figures[i].key())  # type: ignore[union-attr]
    strongest = max(level_below, key=lambda i: figures[i].key())  # type: ignore[union-attr]
    up, down = figures[weakest], figures[strongest]
    if up is None or down is None or up.key() > down.key():
        return
    if up.key() == down.key():
        code = "tie_split_on_equal_tiebreak"
        verdict = "and on every figure of article 29, so they share a place"
    else:
        code = "tiebreak_contradicts_places"
        verdict = f"and article 29 ranks entry {entries[strongest].number} ahead"
    check.error(
        f"entries[{strongest}].place",
        code,
        f"Entries {entries[weakest].number} (placed {entries[weakest].place}; {up}) and "
        f"{entries[strongest].number} (placed {entries[strongest].place}; {down}) are level "
        f"on {upper.total}, {verdict} (best position score, then contracts made, then garde "
        f"contre, then garde sans).",
        entry=entries[weakest].number,
        place=entries[weakest].place,
        other=entries[strongest].number,
        other_place=entries[strongest].place,
        total=upper.total,
    )


def article_29_figures(check: CheckRun, i: int) -> TieBreakFigures | None:
    figures = _figures(check, i)
    if figures is None:
        return None
    return TieBreakFigures(
        best_position_score=figures.best_position_score,
        contracts_made=figures.contracts_made,
        garde_contre_made=figures.garde_contre_made,
        garde_sans_made=figures.garde_sans_made,
    )


def compare_places(
    check: CheckRun, contenders: Sequence[Contender], decided: Sequence[bool], code: str
) -> None:
    """Report every entry placed elsewhere than ``contenders`` put it ("1224", article 29
    within each group), and the level entries without tie-break data where article 29
    must decide (``decided[i]``: the entry's group is one article 29 orders)."""
    entries = check.document.entries
    expected = article_29_places(contenders)
    sizes = Counter(c.group for c in contenders)
    lacking = {
        i
        for i, c in enumerate(contenders)
        if decided[i] and c.figures is None and sizes[c.group] > 1
    }
    for i in sorted(lacking):
        level = [
            entries[k].number
            for k, c in enumerate(contenders)
            if c.group == contenders[i].group and k != i
        ]
        shown = ", ".join(str(n) for n in level[:5]) + (" …" if len(level) > 5 else "")
        check.error(
            f"entries[{i}].tiebreak",
            "tie_needs_tiebreak_data",
            f"Entry {entries[i].number} is level on {entries[i].total} with entry(ies) "
            f"{shown}; in a competition with tie-break rules, article 29 decides their places "
            f"and needs entry {entries[i].number}'s tie-break data (best position score, "
            f"contracts made).",
            entry=entries[i].number,
            total=entries[i].total,
            others=shown,
        )
    groups_lacking = {contenders[i].group for i in lacking}
    for i, entry in enumerate(entries):
        if contenders[i].group in groups_lacking or entry.place == expected[i]:
            continue
        figures = contenders[i].figures
        shown = f"; {_Figures(*_figures_tuple(figures))}" if figures else ""
        check.error(
            f"entries[{i}].place",
            code,
            f"Entry {entry.number} (total {entry.total}{shown}) is placed {entry.place}, but "
            f"the rules place it {expected[i]}: by total, then article 29 (best position "
            f"score, contracts made, garde contre, garde sans); only entries level on every "
            f"figure share a place.",
            entry=entry.number,
            total=entry.total,
            place=entry.place,
            expected=expected[i],
        )


def _figures_tuple(figures: TieBreakFigures) -> tuple[int, int, int, int]:
    return (
        figures.best_position_score,
        figures.contracts_made,
        figures.garde_contre_made,
        figures.garde_sans_made,
    )


def check_article_29(check: CheckRun) -> None:
    """In a competition with tie-break rules, level entries are placed by article 29 (after
    the checks of the places by total, which report each misplaced entry once)."""
    if any(p.code in PLACE_CODES for p in check.errors) or check.entry_missing():
        return
    contenders = plain_contenders(check)
    compare_places(check, contenders, [True] * len(contenders), "place_contradicts_article_29")


def plain_contenders(check: CheckRun) -> list[Contender]:
    return [
        Contender((int(e.abandoned), -e.total), article_29_figures(check, i))
        for i, e in enumerate(check.document.entries)
    ]
