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
- **Eliminations** (chapter 3, arts. 3, 9 and 15; the committee's table): at a
  :class:`Cut`, before a session or between two positions of one, the entries still in are
  ordered by their score there (article 29 on a tie, in a championship, on the figures up
  to the cut), the best ``entries`` play on with their score divided by ``divisor``
  (rounded as the season's rulebook says:
  :func:`competitions.rules.engine.eliminations.divided`); the others keep their score and
  place after every entry that played on, those eliminated later ahead of those eliminated
  earlier, and among themselves as the rulebook's ``eliminated_order`` says. A cut counts
  from its phase's first position entered; :func:`still_in` tells the draw who plays a
  phase not yet begun.

Pure: no Django.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from competitions.rules.day.results_document import (
    Cut,
    DayDeal,
    DayEntry,
    DayResults,
    PlayerKey,
    Round,
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
    eliminated_at: Round | None
    """The first (session, position) the entry did not play because of a cut, if any."""


@dataclass(frozen=True, slots=True)
class Standings:
    after: Round | None
    """The last position counted (None: nothing played yet)."""
    lines: tuple[StandingLine, ...]


@dataclass(slots=True)
class _Player:
    by_round: dict[Round, int]
    contracts: dict[Round, dict[str, int]]
    """Contracts made (article 29) at each round."""


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
    players: dict[object, _Player] = defaultdict(
        lambda: _Player(defaultdict(int), defaultdict(dict))
    )
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
            made = players[key].contracts[(deal.session, deal.position)]
            made[contract] = made.get(contract, 0) + 1


def _facts_everywhere(day: DayResults, upto: Round | None) -> bool:
    """Article 29 counts contracts only when every line carries the deal's facts."""
    if any(upto is None or (t.session, t.position) <= upto for t in day.totals):
        return False
    return all(
        "contract" in d.line for d in day.deals if upto is None or (d.session, d.position) <= upto
    )


@dataclass(slots=True)
class _Run:
    """The tournament played up to a round: each entry's running score (carried past the
    cuts), who was eliminated where, who is still in, and who played on at each cut."""

    score: dict[int, int]
    eliminated: dict[int, Round]
    in_play: list[DayEntry]
    kept: dict[Round, tuple[int, ...]]


def _run(
    day: DayResults,
    players: Mapping[object, _Player],
    cuts: Sequence[Cut],
    *,
    upto: Round | None,
    cuts_through: Round | None,
    mode: RankingMode,
    rounding: HalvingRounding,
) -> _Run:
    """Play the rounds up to ``upto`` (None: every round), applying each cut that starts at
    or before ``cuts_through`` when its phase begins: the entries still in are ranked by
    their score at the cut (article 29 on a tie, in a championship, on the figures up to
    the cut), the best ``entries`` of those still playing carry their score divided, the
    other players are eliminated there."""
    rounds = [r for r in played_rounds(day) if upto is None or r <= upto]
    pending = sorted(
        (
            c
            for c in cuts
            if c.starts > (1, 1) and (cuts_through is None or c.starts <= cuts_through)
        ),
        key=lambda c: c.starts,
    )
    run = _Run({e.number: 0 for e in day.entries}, {}, list(day.entries), {})

    def cut_at(cut: Cut) -> None:
        before = max((r for r in rounds if r < cut.starts), default=None)
        ordered = _ranked(
            run.in_play, run.score, players, {}, _facts_everywhere(day, before), mode, before
        )
        playing = [e for e, _ in ordered if e.plays(*cut.starts)]
        kept = playing if cut.entries is None else playing[: cut.entries]
        run.kept[cut.starts] = tuple(e.number for e in kept)
        for entry in run.in_play:
            if entry in kept:
                run.score[entry.number] = divided(run.score[entry.number], cut.divisor, rounding)
            elif entry in playing:
                run.eliminated[entry.number] = cut.starts
        run.in_play = [e for e in run.in_play if e.number not in run.eliminated]

    for round_ in rounds:
        while pending and pending[0].starts <= round_:
            cut_at(pending.pop(0))
        for entry in run.in_play:
            run.score[entry.number] += sum(
                players[m.key].by_round.get(round_, 0) for m in entry.members if m.key in players
            )
    for cut in pending:
        cut_at(cut)
    return run


def standings_after(
    day: DayResults,
    *,
    after: Round | None = None,
    mode: RankingMode = RankingMode.PLAIN,
    cuts: Sequence[Cut] = (),
    rounding: HalvingRounding = HalvingRounding.HALF_AWAY_FROM_ZERO,
    eliminated_order: EliminatedOrder = EliminatedOrder.SCORE_THEN_ARTICLE_29,
    rules: ScoringRules = DEFAULT_SCORING_RULES,
    cut_mode: RankingMode | None = None,
) -> Standings:
    """The standings after (session, position) ``after`` (None: after the last position
    something was entered at); the cuts whose phase has begun by then are applied, ties at
    a cut ordered by ``cut_mode`` (default ``mode``: a championship's standings in the
    middle of a session share level places, but its cuts are still decided by article 29,
    as the draw decided them)."""
    rounds = played_rounds(day)
    if after is None and rounds:
        after = rounds[-1]
    players = _players(day, after, rules)
    facts = _facts_everywhere(day, after)
    penalties: dict[object, int] = defaultdict(int)
    for p in day.penalties:
        if p.after is None or after is None or p.after <= after:
            penalties[p.licence_number] += p.points
    run = _run(
        day,
        players,
        cuts,
        upto=after,
        cuts_through=after,
        mode=mode if cut_mode is None else cut_mode,
        rounding=rounding,
    )
    score, eliminated, in_play = run.score, run.eliminated, run.in_play
    positions = {
        e.number: len({r for m in e.members for r in players[m.key].by_round}) for e in day.entries
    }
    groups: list[list[DayEntry]] = [[e for e in in_play if e.abandoned_after is None]]
    for start in sorted(set(eliminated.values()), reverse=True):
        groups.append([e for e in day.entries if eliminated.get(e.number) == start])
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
                    eliminated_at=eliminated.get(entry.number),
                )
            )
    return Standings(after, tuple(lines))


def still_in(
    day: DayResults,
    start: Round,
    *,
    cuts: Sequence[Cut] = (),
    mode: RankingMode = RankingMode.PLAIN,
    rounding: HalvingRounding = HalvingRounding.HALF_AWAY_FROM_ZERO,
    rules: ScoringRules = DEFAULT_SCORING_RULES,
) -> tuple[int, ...]:
    """The entries that play from round ``start`` on: those neither eliminated by a cut
    starting at or before it (from the standings at each cut) nor abandoned before it."""
    before = max((r for r in played_rounds(day) if r < start), default=None)
    players = _players(day, before, rules)
    run = _run(day, players, cuts, upto=before, cuts_through=start, mode=mode, rounding=rounding)
    return tuple(sorted(e.number for e in run.in_play if e.plays(*start)))


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
                        if after is None or r <= after:
                            by_round[r] += s
                    for r, counts in players[m.key].contracts.items():
                        for c, n in counts.items():
                            if after is None or r <= after:
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
