"""Tournament ranking (*classement*) with article 29 tie-breaks (*ex-æquo*).

Sources: Fascicule 2, ch. 1 « Le classement en donnes libres » and « Le tournoi
libre par équipes »; ch. 3, art. 27 (*abandon en cours d'épreuve*) and art. 29
(*ex-æquo*).

An entry is one player, a duo or a team of four. Its total is the sum of its
members' totals, less the penalties recorded against them. Entries are ranked
by decreasing total; entries that abandoned (art. 27) come after all the
others. In championship mode, entries level on total are separated by article
29: best score on one position, then most contracts made, then most garde
contre made, then most garde sans made. Entries still level share a place,
numbered in the standard competition convention ("1224").
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from competitions.rules.engine.penalties import Penalty
from core.problems import Problem, RuleViolation

SUPPORTED_TEAM_SIZES = (1, 2, 4)
"""Individual, duo (*libre DUO*) and team of four (*équipe de 4*)."""


class Contract(StrEnum):
    """The contracts, lowest first; garde sans and garde contre are *sur-contrats*."""

    PRISE = "prise"
    GARDE = "garde"
    GARDE_SANS = "garde_sans"
    GARDE_CONTRE = "garde_contre"


_CONTRACT_VALUES = frozenset(c.value for c in Contract)


@dataclass(frozen=True, slots=True)
class TieBreakData:
    """A player's figures for article 29 (*ex-æquo*).

    ``position_scores``: the player's score on each position played, in order.
    ``contracts_made``: contracts made (*contrats réussis*) as taker, keyed by
    :class:`Contract` value (``"prise"``, ``"garde"``, ``"garde_sans"``,
    ``"garde_contre"``); a missing key counts 0.
    """

    position_scores: tuple[int, ...]
    contracts_made: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True, slots=True)
class MemberResult:
    """One player of an entry with their total before penalties."""

    player: str
    total: int
    tie_break: TieBreakData | None = None


@dataclass(frozen=True, slots=True)
class Entry:
    """A competitor: a player, a duo or a team of four."""

    entry_id: str
    members: tuple[MemberResult, ...]
    penalties: tuple[Penalty, ...] = ()
    abandoned: bool = False
    """Left the event before its end without force majeure (art. 27): ranked last."""


class RankingMode(StrEnum):
    PLAIN = "plain"
    """Ties on total stay ties."""
    CHAMPIONSHIP = "championship"
    """Ties on total are broken by article 29; ties that survive it stay ties."""


class Separation(StrEnum):
    """What puts an entry below the entry just above it in the ranking."""

    TIED = "tied"
    ABANDONMENT = "abandonment"
    TOTAL = "total"
    BEST_POSITION_SCORE = "best_position_score"
    CONTRACTS_MADE = "contracts_made"
    GARDE_CONTRE_MADE = "garde_contre_made"
    GARDE_SANS_MADE = "garde_sans_made"


@dataclass(frozen=True, slots=True)
class TieBreakFigures:
    """An entry's article 29 figures, summed over its members."""

    best_position_score: int
    contracts_made: int
    garde_contre_made: int
    garde_sans_made: int


@dataclass(frozen=True, slots=True)
class Placing:
    """One line of the ranking."""

    place: int
    entry_id: str
    total: int
    """Score less penalty points: what the ranking orders."""
    score: int
    """Sum of the members' totals before penalties."""
    penalty_points: int
    abandoned: bool
    tied: bool
    """Shares its place with at least one other entry."""
    separated_by: Separation | None
    """Against the entry just above; ``None`` for the first line."""
    tie_break: TieBreakFigures | None
    """Article 29 figures, in championship mode when every member supplied them."""


@dataclass(frozen=True, slots=True)
class Ranking:
    """The placings, best first."""

    mode: RankingMode
    placings: tuple[Placing, ...]


# Comparison order of article 29, paired with the field of TieBreakFigures it reads.
_ARTICLE_29 = (
    (Separation.BEST_POSITION_SCORE, "best_position_score"),
    (Separation.CONTRACTS_MADE, "contracts_made"),
    (Separation.GARDE_CONTRE_MADE, "garde_contre_made"),
    (Separation.GARDE_SANS_MADE, "garde_sans_made"),
)


@dataclass(frozen=True, slots=True)
class _Scored:
    index: int
    entry: Entry
    score: int
    penalty_points: int
    figures: TieBreakFigures | None

    @property
    def total(self) -> int:
        return self.score - self.penalty_points

    @property
    def group(self) -> tuple[bool, int]:
        return (self.entry.abandoned, self.total)


def rank(entries: Sequence[Entry], mode: RankingMode = RankingMode.PLAIN) -> Ranking:
    """Rank ``entries``; raise :class:`RuleViolation` with every problem of the input.

    Entries level on everything the mode compares keep their input order and
    share the best place they occupy.
    """
    try:
        mode = RankingMode(mode)  # a plain string ("championship") is accepted too
    except ValueError:
        raise RuleViolation.single(
            "mode",
            "unknown_mode",
            f"{mode!r} is not a ranking mode (plain, championship).",
            {"mode": repr(mode)},
        ) from None
    problems = _structure_problems(entries)
    scored = [
        _Scored(
            index=i,
            entry=entry,
            score=sum(m.total for m in entry.members),
            penalty_points=sum(p.points for p in entry.penalties),
            figures=_figures(entry) if mode is RankingMode.CHAMPIONSHIP else None,
        )
        for i, entry in enumerate(entries)
    ]
    if mode is RankingMode.CHAMPIONSHIP:
        problems += _missing_tie_break_problems(scored)
    if problems:
        raise RuleViolation(problems)

    ordered = sorted(scored, key=lambda s: _sort_key(s, mode))
    keys = [_sort_key(s, mode) for s in ordered]
    placings = []
    place = 0
    for i, current in enumerate(ordered):
        tied_above = i > 0 and keys[i] == keys[i - 1]
        tied_below = i + 1 < len(ordered) and keys[i] == keys[i + 1]
        if not tied_above:
            place = i + 1
        placings.append(
            Placing(
                place=place,
                entry_id=current.entry.entry_id,
                total=current.total,
                score=current.score,
                penalty_points=current.penalty_points,
                abandoned=current.entry.abandoned,
                tied=tied_above or tied_below,
                separated_by=_separation(ordered[i - 1], current, mode) if i else None,
                tie_break=current.figures,
            )
        )
    return Ranking(mode=mode, placings=tuple(placings))


@dataclass(frozen=True, slots=True)
class Contender:
    """An entry to place: its ``group`` (lower is better: e.g. ``(abandoned, -total)``) and
    its article 29 figures (``None``: not given)."""

    group: tuple[int, ...]
    figures: TieBreakFigures | None


def article_29_key(figures: TieBreakFigures) -> tuple[int, ...]:
    """Article 29's figures in its order of comparison, lower is better."""
    return tuple(-getattr(figures, name) for _, name in _ARTICLE_29)


def article_29_places(contenders: Sequence[Contender]) -> tuple[int, ...]:
    """Each contender's place ("1224"): by group, then, within a group, by article 29.

    Article 29 (*ex-æquo*): « le meilleur score obtenu sur une position, puis […] le plus
    grand nombre de contrats réussis, puis […] le plus grand nombre de sur-contrats réussis,
    suivant la hauteur ». Contenders level on their group and on every figure share the
    best place they occupy: only a tie that survives article 29 is shared. A group in which
    any contender lacks figures cannot be ordered: all of it shares its best place (the
    caller reports the missing figures). Pure; the order of ``contenders`` is kept.
    """
    groups: dict[tuple[int, ...], list[int]] = defaultdict(list)
    for i, contender in enumerate(contenders):
        groups[contender.group].append(i)
    places = [0] * len(contenders)
    ahead = 0
    for group in sorted(groups):
        members = groups[group]
        figures = [contenders[i].figures for i in members]
        if len(members) == 1 or any(f is None for f in figures):
            for i in members:
                places[i] = ahead + 1
        else:
            keys = {i: article_29_key(contenders[i].figures) for i in members}  # type: ignore[arg-type]
            ordered = sorted(members, key=lambda i: keys[i])
            for k, i in enumerate(ordered):
                if k and keys[i] == keys[ordered[k - 1]]:
                    places[i] = places[ordered[k - 1]]
                else:
                    places[i] = ahead + k + 1
        ahead += len(members)
    return tuple(places)


def _sort_key(s: _Scored, mode: RankingMode) -> tuple[int, ...]:
    key = (int(s.entry.abandoned), -s.total)
    if mode is RankingMode.PLAIN:
        return key
    # Entries without figures are alone in their (abandoned, total) group, so
    # their placeholder zeros are never compared with real figures.
    figures = s.figures or TieBreakFigures(0, 0, 0, 0)
    return key + article_29_key(figures)


def _separation(above: _Scored, below: _Scored, mode: RankingMode) -> Separation:
    if above.entry.abandoned != below.entry.abandoned:
        return Separation.ABANDONMENT
    if above.total != below.total:
        return Separation.TOTAL
    if mode is RankingMode.CHAMPIONSHIP and above.figures and below.figures:
        for separation, name in _ARTICLE_29:
            if getattr(above.figures, name) != getattr(below.figures, name):
                return separation
    return Separation.TIED


def _figures(entry: Entry) -> TieBreakFigures | None:
    """Sum the members' article 29 figures; ``None`` if any is missing or unusable."""
    data = [
        m.tie_break
        for m in entry.members
        if m.tie_break is not None and m.tie_break.position_scores
    ]
    if len(data) != len(entry.members):
        return None
    if len({len(d.position_scores) for d in data}) != 1:
        return None
    by_position = zip(*(d.position_scores for d in data), strict=True)
    position_totals = [sum(scores) for scores in by_position]

    made: Counter[str] = Counter()
    for d in data:
        for contract, count in d.contracts_made.items():
            made[str(contract)] += count  # plain strings: faster to hash than enum members

    return TieBreakFigures(
        best_position_score=max(position_totals),
        contracts_made=sum(made[c] for c in _CONTRACT_VALUES),
        garde_contre_made=made[Contract.GARDE_CONTRE.value],
        garde_sans_made=made[Contract.GARDE_SANS.value],
    )


def _missing_tie_break_problems(scored: list[_Scored]) -> list[Problem]:
    groups: dict[tuple[bool, int], list[_Scored]] = defaultdict(list)
    for s in scored:
        groups[s.group].append(s)
    problems = []
    for group in groups.values():
        if len(group) < 2:
            continue
        for s in group:
            if s.figures is not None:
                continue
            others = [o.entry.entry_id for o in group if o is not s]
            named = ", ".join(f"'{other}'" for other in others[:3])
            if len(others) > 3:
                named += f" and {len(others) - 3} more"
            for j, member in enumerate(s.entry.members):
                if member.tie_break is None:
                    problems.append(
                        Problem(
                            f"entries[{s.index}].members[{j}].tie_break",
                            "missing_tie_break_data",
                            f"Entry '{s.entry.entry_id}' is level on {s.total} points with "
                            f"{named}; championship mode breaks the tie by article 29 and "
                            f"needs player '{member.player}''s position scores and "
                            "contracts made.",
                            {"entry": s.entry.entry_id, "total": s.total, "player": member.player},
                        )
                    )
    return problems


def _structure_problems(entries: Sequence[Entry]) -> list[Problem]:
    problems: list[Problem] = []
    first_index_of_id: dict[str, int] = {}
    entry_of_player: dict[str, int] = {}
    sizes = Counter(len(e.members) for e in entries)
    usual_size = sizes.most_common(1)[0][0] if sizes else 0

    for i, entry in enumerate(entries):
        at = f"entries[{i}]"
        if not entry.entry_id.strip():
            problems.append(
                Problem(f"{at}.entry_id", "blank_entry_id", "An entry needs an id.", {})
            )
        elif entry.entry_id in first_index_of_id:
            problems.append(
                Problem(
                    f"{at}.entry_id",
                    "duplicate_entry_id",
                    f"Entry id '{entry.entry_id}' is already used by "
                    f"entries[{first_index_of_id[entry.entry_id]}].",
                    {"entry": entry.entry_id, "first": first_index_of_id[entry.entry_id]},
                )
            )
        else:
            first_index_of_id[entry.entry_id] = i

        size = len(entry.members)
        if size not in SUPPORTED_TEAM_SIZES:
            problems.append(
                Problem(
                    f"{at}.members",
                    "unsupported_team_size",
                    f"An entry is one player, a duo or a team of four, not {size} players.",
                    {"size": size},
                )
            )
        elif size != usual_size:
            problems.append(
                Problem(
                    f"{at}.members",
                    "team_size_mismatch",
                    f"Entry '{entry.entry_id}' has {size} players while most entries have "
                    f"{usual_size}; team totals of different sizes cannot be compared.",
                    {"entry": entry.entry_id, "size": size, "usual_size": usual_size},
                )
            )

        members = set()
        for j, member in enumerate(entry.members):
            where = f"{at}.members[{j}]"
            if not member.player.strip():
                problems.append(
                    Problem(f"{where}.player", "blank_player", "A member needs a player id.", {})
                )
            elif member.player in members:
                problems.append(
                    Problem(
                        f"{where}.player",
                        "duplicate_member",
                        f"Player '{member.player}' appears twice in entry '{entry.entry_id}'.",
                        {"player": member.player, "entry": entry.entry_id},
                    )
                )
            elif member.player in entry_of_player:
                other = entries[entry_of_player[member.player]].entry_id
                problems.append(
                    Problem(
                        f"{where}.player",
                        "player_in_several_entries",
                        f"Player '{member.player}' is already a member of entry '{other}'; "
                        "a player belongs to one entry only.",
                        {"player": member.player, "entry": entry.entry_id, "other": other},
                    )
                )
            else:
                entry_of_player[member.player] = i
            members.add(member.player)
            if member.tie_break is not None:
                problems += _tie_break_problems(member.tie_break, f"{where}.tie_break")

        problems += _team_position_count_problems(entry, at)

        for k, penalty in enumerate(entry.penalties):
            where = f"{at}.penalties[{k}]"
            if penalty.points < 0:
                problems.append(
                    Problem(
                        f"{where}.points",
                        "negative_penalty",
                        f"A penalty takes points off a total, so it cannot be negative "
                        f"(got {penalty.points}).",
                        {"points": penalty.points},
                    )
                )
            if penalty.player not in members:
                problems.append(
                    Problem(
                        f"{where}.player",
                        "penalty_player_not_member",
                        f"The penalty hits player '{penalty.player}', who is not a member "
                        f"of entry '{entry.entry_id}'.",
                        {"player": penalty.player, "entry": entry.entry_id},
                    )
                )
    return problems


def _tie_break_problems(data: TieBreakData, at: str) -> list[Problem]:
    problems = []
    if not data.position_scores:
        problems.append(
            Problem(
                f"{at}.position_scores",
                "no_position_scores",
                "Tie-break data needs the score of at least one position.",
                {},
            )
        )
    for key, count in data.contracts_made.items():
        if key not in _CONTRACT_VALUES:
            problems.append(
                Problem(
                    f"{at}.contracts_made.{key}",
                    "unknown_contract",
                    f"'{key}' is not a contract; expected one of "
                    f"{', '.join(c.value for c in Contract)}.",
                    {"contract": key, "contracts": ", ".join(c.value for c in Contract)},
                )
            )
        elif count < 0:
            problems.append(
                Problem(
                    f"{at}.contracts_made.{key}",
                    "negative_contract_count",
                    f"A number of contracts made cannot be negative (got {count}).",
                    {"count": count},
                )
            )
    return problems


def _team_position_count_problems(entry: Entry, at: str) -> list[Problem]:
    counts = [
        (j, len(m.tie_break.position_scores))
        for j, m in enumerate(entry.members)
        if m.tie_break is not None and m.tie_break.position_scores
    ]
    if len({count for _, count in counts}) <= 1:
        return []
    first = counts[0][1]
    return [
        Problem(
            f"{at}.members[{j}].tie_break.position_scores",
            "position_count_mismatch",
            f"This member has {count} position scores but the team's first member has "
            f"{first}; a team's position score adds its members' scores position by position.",
            {"count": count, "first": first},
        )
        for j, count in counts
        if count != first
    ]
