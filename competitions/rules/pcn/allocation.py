"""Allocating PCN and PP to a ranked result (chapter 5), ties (*ex-æquo*) included.

A ranking gives each entry (a player, a duo or a team of 4) a place in the
standard competition convention "1224": tied entries share the best place of
the places they occupy, and the next entry's place skips the others.

Ties: tied entries share equally the total of the PCN (and of the PP) of the
places they occupy, rounded up when not whole. A place without a right to
points contributes nothing to that total; but tied entries are all ranked at
their best place, so if that place has a right to points each of them has one
and receives at least the floor (a tie straddling the last paid place).
Competitions with their own tie-break rules (article 29, every official
championship stage) do not share: a tie reaching them is refused unless the
caller states that it survived those tie-break rules, in which case the
sharing rule, the only rule left, applies.

For duos and teams, every player of the entry receives the entry's value:
:attr:`EntryAward.pcn_per_player` and :attr:`EntryAward.pp_per_player`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from competitions.rules.pcn.scales import scale
from competitions.rules.rulebook import NationalFinal, Rulebook, TieAcrossLastPaidPlace
from core.problems import Problem, RuleViolation
from core.vocabulary import Format, StageKind


@dataclass(frozen=True, slots=True)
class RankedEntry:
    """One entry of a final ranking (*classement final*)."""

    entry_id: str
    """The caller's id of the player, duo or team."""
    place: int
    """Place in the "1224" convention: tied entries share the best place."""


@dataclass(frozen=True, slots=True)
class EntryAward:
    """What one entry receives. Each player of a duo or team receives these values."""

    entry_id: str
    place: int
    pcn_per_player: int
    pp_per_player: int
    has_right: bool
    """Ranked at a place with a right to points (*y a droit*)."""
    tied_entries: int
    """How many entries share this place (1: not tied)."""


@dataclass(frozen=True, slots=True)
class Allocation:
    """PCN and PP of every ranked entry, in ranking order."""

    format: Format
    stage: StageKind
    national_final: NationalFinal | None
    players_per_entry: int
    """Each of these players receives the entry's PCN and PP (1, 2 or 4)."""
    places_with_points: int
    """How many places have a right to points."""
    awards: tuple[EntryAward, ...]


def allocate(
    ranking: Sequence[RankedEntry],
    fmt: Format,
    tables: int | Sequence[int],
    stage: StageKind,
    rulebook: Rulebook,
    *,
    entries: int | None = None,
    ties_after_tie_break: bool = False,
) -> Allocation:
    """Allocate PCN (and PP, which scales never give) to a ranked tournament.

    ``tables``: the table count, or each session's table count in order.
    ``entries``: the entries that took part in the first session (half of them
    have a right to points); ``None`` means every ranked entry.
    ``ties_after_tie_break``: in a competition with its own tie-break rules, the
    caller states that the remaining ties survived them, so they are shared.
    Raises :class:`RuleViolation` with every problem of the input.
    """
    problems = ranking_problems(ranking)
    ranking_is_valid = not problems
    if entries is None:
        entries = len(ranking)
    elif isinstance(entries, int) and not isinstance(entries, bool) and entries < len(ranking):
        problems.append(
            Problem(
                "entries",
                "more_ranked_than_entries",
                f"{len(ranking)} entries are ranked but only {entries} took part "
                "in the first session.",
                {"ranked": len(ranking), "entries": entries},
            )
        )
    if stage is StageKind.NATIONAL_FINAL:
        problems.append(
            Problem(
                "stage",
                "national_final_has_no_scale",
                "A national final allocates by its fixed table: "
                "use national_finals.allocate_national_final.",
                {},
            )
        )
        raise RuleViolation(problems)
    try:
        grid = scale(fmt, tables, stage, rulebook, entries=entries)
    except RuleViolation as refusal:
        problems.extend(refusal.problems)
    tie_break_rules = isinstance(stage, StageKind) and rulebook.stages.of(stage).tie_break_rules
    if ranking_is_valid:
        problems.extend(
            tie_problems(
                ranking, tie_break_rules=tie_break_rules, ties_after_tie_break=ties_after_tie_break
            )
        )
    if problems:
        raise RuleViolation(problems)

    awards = award_places(
        ranking,
        points_at=lambda place: (grid.value(place), 0),
        places_with_points=grid.beneficiaries,
        # Tied entries within the paid places share values all at or above the floor: the
        # floor only changes a tie across the last paid place (the season's choice).
        floor_value=(
            grid.floor_value
            if rulebook.awards.tie_across_last_paid_place is TieAcrossLastPaidPlace.FLOOR_EACH
            else 0
        ),
        tie_break_rules=tie_break_rules,
        ties_after_tie_break=ties_after_tie_break,
    )
    return Allocation(
        format=fmt,
        stage=stage,
        national_final=None,
        players_per_entry=fmt.team_size,
        places_with_points=grid.beneficiaries,
        awards=awards,
    )


def without_entries(ranking: Sequence[RankedEntry], removed: Collection[str]) -> list[RankedEntry]:
    """The ranking without the ``removed`` entries, the others moved up ("1224" places
    recomputed, ties kept): how an unlicensed entry's points pass to the next entries."""
    kept = sorted((e for e in ranking if e.entry_id not in removed), key=lambda e: e.place)
    moved: list[RankedEntry] = []
    for i, entry in enumerate(kept):
        tied = i > 0 and entry.place == kept[i - 1].place
        moved.append(RankedEntry(entry.entry_id, moved[-1].place if tied else i + 1))
    return moved


def ranking_problems(ranking: Sequence[RankedEntry]) -> list[Problem]:
    """Every problem of a ranking: ids, places, and the "1224" convention."""
    problems: list[Problem] = []
    if not ranking:
        return [Problem("ranking", "empty_ranking", "A ranking needs at least one entry.", {})]
    seen: dict[str, int] = {}
    valid: list[tuple[int, int]] = []  # (place, position in the input)
    for i, entry in enumerate(ranking):
        if not isinstance(entry.entry_id, str) or not entry.entry_id:
            problems.append(
                Problem(
                    f"ranking[{i}].entry_id", "missing_id", "Each entry needs a non-empty id.", {}
                )
            )
        elif entry.entry_id in seen:
            problems.append(
                Problem(
                    f"ranking[{i}].entry_id",
                    "duplicate_entry",
                    f"Entry '{entry.entry_id}' is already ranked "
                    f"at ranking[{seen[entry.entry_id]}].",
                    {"entry": entry.entry_id, "first": seen[entry.entry_id]},
                )
            )
        else:
            seen[entry.entry_id] = i
        if not isinstance(entry.place, int) or isinstance(entry.place, bool) or entry.place < 1:
            problems.append(
                Problem(
                    f"ranking[{i}].place",
                    "place_not_positive",
                    f"Place {entry.place!r} is not a place: places are whole numbers from 1.",
                    {"place": repr(entry.place)},
                )
            )
        else:
            valid.append((entry.place, i))
    if len(valid) < len(ranking):
        return problems
    valid.sort()
    better = 0
    for k, (place, i) in enumerate(valid):
        if k > 0 and place == valid[k - 1][0]:
            continue
        better = k
        if place != better + 1:
            problems.append(
                Problem(
                    f"ranking[{i}].place",
                    "place_not_1224",
                    f"Place {place} follows {better} entries ranked before it; in the "
                    f'"1224" convention (tied entries share the best place) '
                    f"it must be {better + 1}.",
                    {"place": place, "better": better, "expected": better + 1},
                )
            )
    return problems


def award_places(
    ranking: Sequence[RankedEntry],
    *,
    points_at: Callable[[int], tuple[int, int]],
    places_with_points: int,
    floor_value: int,
    tie_break_rules: bool,
    ties_after_tie_break: bool,
) -> tuple[EntryAward, ...]:
    """Give each entry its place's (PCN, PP), tied entries sharing them.

    ``points_at(place)`` is the (PCN, PP) of a place, (0, 0) past the paid places.
    ``floor_value`` is the least an entry ranked at a paid place receives.
    The ranking must already satisfy :func:`ranking_problems`.
    """
    problems = tie_problems(
        ranking, tie_break_rules=tie_break_rules, ties_after_tie_break=ties_after_tie_break
    )
    if problems:
        raise RuleViolation(problems)

    order = sorted(range(len(ranking)), key=lambda i: ranking[i].place)
    size_of = _tie_sizes(ranking)
    shares: dict[int, tuple[int, int]] = {}
    for place, size in size_of.items():
        occupied = [points_at(q) for q in range(place, place + size)]
        pcn = _ceil_div(sum(p for p, _ in occupied), size)
        pp = _ceil_div(sum(p for _, p in occupied), size)
        if place <= places_with_points:
            pcn = max(pcn, floor_value)
        shares[place] = (pcn, pp)

    return tuple(
        EntryAward(
            entry_id=ranking[i].entry_id,
            place=ranking[i].place,
            pcn_per_player=shares[ranking[i].place][0],
            pp_per_player=shares[ranking[i].place][1],
            has_right=ranking[i].place <= places_with_points,
            tied_entries=size_of[ranking[i].place],
        )
        for i in order
    )


def tie_problems(
    ranking: Sequence[RankedEntry], *, tie_break_rules: bool, ties_after_tie_break: bool
) -> list[Problem]:
    """A problem for each tie that a competition with tie-break rules must not share."""
    if not tie_break_rules or ties_after_tie_break:
        return []
    problems = []
    sizes = _tie_sizes(ranking)
    for place, size in sorted(sizes.items()):
        if size > 1:
            first = min(i for i, entry in enumerate(ranking) if entry.place == place)
            problems.append(
                Problem(
                    f"ranking[{first}].place",
                    "tie_not_broken",
                    f"{size} entries are tied at place {place} in a competition with its own "
                    "tie-break rules (article 29), where ties are not shared; break the tie, "
                    "or state that it survived the tie-break rules to share it.",
                    {"size": size, "place": place},
                )
            )
    return problems


def _tie_sizes(ranking: Sequence[RankedEntry]) -> dict[int, int]:
    sizes: dict[int, int] = {}
    for entry in ranking:
        sizes[entry.place] = sizes.get(entry.place, 0) + 1
    return sizes


def _ceil_div(total: int, parts: int) -> int:
    """Equal share of a whole total, rounded up when not whole (*arrondi supérieur*)."""
    return -(-total // parts)


__all__ = [
    "Allocation",
    "EntryAward",
    "RankedEntry",
    "allocate",
    "award_places",
    "ranking_problems",
    "tie_problems",
]
