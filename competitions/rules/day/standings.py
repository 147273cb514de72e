"""The standings of a tournament day after any position: each entry's score from the marks
its players' tables entered, less its penalties, ranked by the engine
(:func:`competitions.rules.engine.standings.rank`).

- **Scores.** A player's score at a position is the balance of his table's sheet (the sum
  of his marks, as the engine computed them when each deal was entered, or his position
  total where the table entered totals); an entry's score is its players' sum.
- **Penalties** are taken off the total, never carried nor divided; a penalty recorded at a
  later position does not count in the standings after an earlier one.
- **Abandons** (article 27): the entry is ranked after every other, with or without the
  arbiter's accord.
- **Article 29** (ex-æquo, « en cas d'égalité après chaque séance ») separates level entries
  where ``mode`` is the championship's; where an entry lacks its figures (a table entered
  totals only), level entries share their place.
- **Eliminations** (chapter 3, art. 3; the committee's table): before a session with a
  :class:`Cut`, the entries still in are ordered by their score (article 29 on a tie, in a
  championship), the best ``entries`` play on with their score divided by ``divisor``
  (rounded as the season's rulebook says: :func:`competitions.rules.engine.eliminations.divided`);
  the others keep their score and place after every entry that played on, those eliminated
  later ahead of those eliminated earlier, and among themselves as the rulebook's
  ``eliminated_order`` says.

Pure: no Django.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from competitions.rules.day.results_document import (
    DayDeal,
    DayEntry,
    DayResults,
    PlayerKey,
    seated_players,
)
from competitions.rules.engine.eliminations import EliminatedOrder, HalvingRounding, divided
from competitions.rules.engine.scoring import DEFAULT_SCORING_RULES, ScoringRules
from competitions.rules.engine.standings import (
    Entry,
    MemberResult,
    RankingMode,
    TieBreakData,
    rank,
)
from core.problems import RuleViolation

Round = tuple[int, int]
"""(session, position)."""


@dataclass(frozen=True, slots=True)
class Cut:
    """Before session ``session``: the best ``entries`` play on, their scores divided by
    ``divisor`` (the committee's table for the field present)."""

    session: int
    entries: int | None
    divisor: int = 1


@dataclass(frozen=True, slots=True)
class StandingLine:
    place: int
    entry: int
    score: int
    """Before penalties: the score carried into the last session played, plus that session's."""
    penalty_points: int
    total: int
    positions: int
    """Positions played (with something entered)."""
    abandoned: bool
    eliminated_before: int | None
    """The first session the entry did not play because of a cut, if any."""


@dataclass(frozen=True, slots=True)
class Standings:
    after: Round | None
    """The last position counted (None: nothing played yet)."""
    lines: tuple[StandingLine, ...]


@dataclass(slots=True)
class _Player:
    by_round: dict[Round, int]
    contracts: dict[str, int]


def played_rounds(day: DayResults) -> tuple[Round, ...]:
    """Every (session, position) something was entered at, in order."""
    found = {(d.session, d.position) for d in day.deals}
    found |= {(t.session, t.position) for t in day.totals}
    return tuple(sorted(found))


def _players(day: DayResults, upto: Round | None, rules: ScoringRules) -> dict[object, _Player]:
    """Each player's score at every position up to ``upto``, and contracts made."""
    keys: dict[tuple[int, int, int, str], PlayerKey] = {}
    entries = {e.number: e for e in day.entries}
    for session in day.sessions:
        for tables in session.layout.positions:
            for table in tables:
                for seat, key in seated_players(day, session, table, entries).items():
                    keys[(session.number, table.position, table.table, seat)] = key
    players: dict[object, _Player] = defaultdict(lambda: _Player(defaultdict(int), {}))
    with_deals = {(d.session, d.position, d.table) for d in day.deals}
    for deal in day.deals:
        round_ = (deal.session, deal.position)
        if upto is not None and round_ > upto:
            continue
        for seat, mark in deal.marks.items():
            if (found := keys.get((deal.session, deal.position, deal.table, seat))) is not None:
                players[found].by_round[round_] += int(mark)
        _count_contract(deal.line, keys, deal, players, rules)
    for totals in day.totals:
        round_ = (totals.session, totals.position)
        if (upto is not None and round_ > upto) or (
            totals.session,
            totals.position,
            totals.table,
        ) in with_deals:
            continue
        for seat, score in totals.totals.items():
            found = keys.get((totals.session, totals.position, totals.table, seat))
            if found is not None:
                players[found].by_round[round_] += int(score)
    return players


def _count_contract(
    line: Mapping[str, Any],
    keys: Mapping[tuple[int, int, int, str], PlayerKey],
    deal: DayDeal,
    players: Mapping[object, _Player],
    rules: ScoringRules,
) -> None:
    """Credit the taker with a contract made (article 29: the attack's points reach what its
    oudlers require), when the line carries the deal's facts."""
    contract = line.get("contract")
    if not contract or line.get("annulled"):
        return
    oudlers, points, taker = line.get("oudlers"), line.get("attack_points"), line.get("taker")
    if not isinstance(oudlers, int) or not 0 <= oudlers < len(rules.points_needed):
        return
    if points is None or taker is None:
        return
    if Fraction(str(points)) >= rules.points_needed[oudlers]:
        key = keys.get((deal.session, deal.position, deal.table, taker))
        if key is not None:
            made = players[key].contracts
            made[contract] = made.get(contract, 0) + 1


def _facts_everywhere(day: DayResults, upto: Round | None) -> bool:
    """Article 29 counts contracts only when every line carries the deal's facts."""
    if any(upto is None or (t.session, t.position) <= upto for t in day.totals):
        return False
    return all(
        "contract" in d.line for d in day.deals if upto is None or (d.session, d.position) <= upto
    )


def standings_after(
    day: DayResults,
    *,
    after: Round | None = None,
    mode: RankingMode = RankingMode.PLAIN,
    cuts: Sequence[Cut] = (),
    rounding: HalvingRounding = HalvingRounding.HALF_AWAY_FROM_ZERO,
    eliminated_order: EliminatedOrder = EliminatedOrder.SCORE_THEN_ARTICLE_29,
    rules: ScoringRules = DEFAULT_SCORING_RULES,
) -> Standings:
    """The standings after (session, position) ``after`` (None: after the last position
    something was entered at)."""
    rounds = played_rounds(day)
    if after is None and rounds:
        after = rounds[-1]
    players = _players(day, after, rules)
    facts = _facts_everywhere(day, after)
    penalties: dict[object, int] = defaultdict(int)
    for p in day.penalties:
        if p.after is None or after is None or p.after <= after:
            penalties[p.licence_number] += p.points
    cut_at = {c.session: c for c in cuts}

    def session_score(entry: DayEntry, session: int) -> int:
        return sum(
            score
            for m in entry.members
            for (s, _), score in players[m.key].by_round.items()
            if s == session
        )

    sessions = sorted({s for s, _ in rounds if after is None or (s, 1) <= after})
    carried: dict[int, int] = {e.number: 0 for e in day.entries}
    score: dict[int, int] = dict(carried)
    eliminated: dict[int, int] = {}
    in_play = list(day.entries)
    for session in sessions:
        cut = cut_at.get(session)
        if cut is not None and session > 1:
            ordered = _ranked(in_play, score, players, {}, facts, mode, after)
            keep = len(ordered) if cut.entries is None else cut.entries
            kept = [e for e, _ in ordered if not e.abandoned_after][:keep]
            for entry in in_play:
                if entry in kept:
                    carried[entry.number] = divided(score[entry.number], cut.divisor, rounding)
                elif entry.abandoned_after is None:
                    eliminated[entry.number] = session
                else:
                    carried[entry.number] = score[entry.number]
            in_play = [e for e in in_play if e.number not in eliminated]
        else:
            carried = dict(score)
        for entry in in_play:
            score[entry.number] = carried[entry.number] + session_score(entry, session)

    positions = {
        e.number: len({r for m in e.members for r in players[m.key].by_round}) for e in day.entries
    }
    groups: list[list[DayEntry]] = [[e for e in in_play if e.abandoned_after is None]]
    for session in sorted(set(eliminated.values()), reverse=True):
        groups.append([e for e in day.entries if eliminated.get(e.number) == session])
    groups.append([e for e in in_play if e.abandoned_after is not None])
    lines: list[StandingLine] = []
    for k, group in enumerate(groups):
        eliminated_group = 0 < k < len(groups) - 1
        ranked = _ranked(group, score, players, penalties, facts, mode, after)
        offset = len(lines)
        for entry, place in ranked:
            if eliminated_group and eliminated_order is EliminatedOrder.SHARED:
                place = 1
            points = sum(penalties.get(m.key, 0) for m in entry.members)
            lines.append(
                StandingLine(
                    place=offset + place,
                    entry=entry.number,
                    score=score[entry.number],
                    penalty_points=points,
                    total=score[entry.number] - points,
                    positions=positions[entry.number],
                    abandoned=entry.abandoned_after is not None,
                    eliminated_before=eliminated.get(entry.number),
                )
            )
    return Standings(after, tuple(lines))


def _ranked(
    entries: Sequence[DayEntry],
    score: Mapping[int, int],
    players: Mapping[object, _Player],
    penalties: Mapping[object, int],
    facts: bool,
    mode: RankingMode,
    after: Round | None,
) -> list[tuple[DayEntry, int]]:
    """``entries`` ranked by the engine: their score, less ``penalties``, article 29 in a
    championship when every figure is known (else level entries share)."""
    if not entries:
        return []

    def engine(with_figures: bool) -> list[Entry]:
        built = []
        for entry in entries:
            total = score[entry.number] - sum(penalties.get(m.key, 0) for m in entry.members)
            figures = None
            if with_figures:
                by_round: dict[Round, int] = defaultdict(int)
                made: dict[str, int] = defaultdict(int)
                for m in entry.members:
                    for r, s in players[m.key].by_round.items():
                        by_round[r] += s
                    for c, n in players[m.key].contracts.items():
                        made[c] += n
                figures = TieBreakData(
                    position_scores=tuple(v for _, v in sorted(by_round.items())) or (0,),
                    contracts_made=dict(made),
                )
            built.append(
                Entry(
                    entry_id=str(entry.number),
                    members=(MemberResult(f"entry-{entry.number}", total, figures),),
                    abandoned=entry.abandoned_after is not None,
                )
            )
        return built

    ranking = None
    if mode is RankingMode.CHAMPIONSHIP and facts:
        try:
            ranking = rank(engine(True), RankingMode.CHAMPIONSHIP)
        except RuleViolation:
            ranking = None
    if ranking is None:
        ranking = rank(engine(False), RankingMode.PLAIN)
    by_number = {e.number: e for e in entries}
    return [(by_number[int(p.entry_id)], p.place) for p in ranking.placings]
