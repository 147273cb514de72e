"""The day's standings with a stage's cuts (chapter 3, arts. 3, 9 and 15): played phase by
phase as the room draws them (each phase seats only the entries :func:`still_in` gives,
with starting numbers of its own after a cut between positions), the standings at the end
equal the places and totals the score-sheets document gives with the same ``cuts``."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.rules.day.layout import (
    Holder,
    SessionLayout,
    layout_of,
    single_position_plan,
    with_phase,
)
from competitions.rules.day.results_document import (
    Cut,
    DayDeal,
    DayEntry,
    DayMember,
    DayPenalty,
    DayResults,
    DaySession,
    score_sheets_document,
)
from competitions.rules.day.standings import standings_after, still_in
from competitions.rules.engine.movements.planning import plan_movement
from competitions.rules.engine.penalties import PenaltyKind
from competitions.rules.engine.standings import RankingMode
from competitions.rules.results.score_sheets import parse_score_sheets
from tests.competitions.rules.day.test_results_document import table_deals


def _phase(players: int, positions: int, deals: int) -> SessionLayout:
    plan = (
        single_position_plan(players)
        if positions == 1 and players < 9
        else plan_movement(players, positions)
    )
    assert plan is not None
    return layout_of(plan, deals)


def _seat(draw, phase: SessionLayout, field: tuple[int, ...]) -> dict[int, Holder]:
    numbers = sorted({n for tables in phase.positions for t in tables for n in t.seats.values()})
    order = list(field)
    random.Random(draw(st.integers(0, 2**16))).shuffle(order)
    return {n: Holder(e) for n, e in zip(numbers, order, strict=True)}


def _kept(draw, field: int, low: int) -> int:
    """A field the engine seats for one position: not 5, fewer than before."""
    return draw(st.sampled_from([k for k in range(low, field) if k != 5]))


@st.composite
def staged_days(draw, mode: RankingMode):
    """A day of two sessions with cuts, played phase by phase as the room draws it."""
    players = draw(st.integers(min_value=12, max_value=16))
    deals = draw(st.integers(min_value=1, max_value=2))
    entries = tuple(
        DayEntry(n, (DayMember(1, 100_000 + n, f"JOUEUR {n}"),)) for n in range(1, players + 1)
    )
    cuts: list[Cut] = []
    if draw(st.booleans()):
        cuts.append(Cut(1, _kept(draw, players, 9), draw(st.sampled_from((1, 2))), 1))
    cuts.append(Cut(2, None, draw(st.sampled_from((1, 2)))))
    if draw(st.booleans()):
        cuts.append(Cut(2, _kept(draw, players - 1, 4), draw(st.sampled_from((1, 2))), 1))
    # Session 2's field is decided when it is drawn; its cut keeps some of session 1's last.
    sessions: list[DaySession] = []
    deals_made: list[DayDeal] = []

    def day() -> DayResults:
        return DayResults(entries, tuple(sessions), tuple(deals_made), (), penalties)

    licensed = list(entries)
    penalties = tuple(
        DayPenalty(e.members[0].licence_number, PenaltyKind.SLOWNESS, 100, "Lenteur")  # type: ignore[arg-type]
        for e in draw(st.lists(st.sampled_from(licensed), max_size=2, unique=True))
    )

    def play(session: int, layout: SessionLayout, positions: range) -> None:
        for position in positions:
            for table in layout.tables_at(position):
                deals_made.extend(table_deals(draw, session, table, deals))

    for session in (1, 2):
        at_start = (
            tuple(e.number for e in entries)
            if session == 1
            else still_in(day(), (2, 1), cuts=cuts, mode=mode)
        )
        if session == 2:
            kept = _kept(draw, len(at_start) + 1, 4) if len(at_start) > 4 else len(at_start)
            cuts[[c.starts for c in cuts].index((2, 1))] = Cut(
                2, kept, cuts[[c.starts for c in cuts].index((2, 1))].divisor
            )
            at_start = still_in(day(), (2, 1), cuts=cuts, mode=mode)
        within = next((c for c in cuts if c.session == session and c.after_position), None)
        first = 1 if within is not None or session == 2 else 2
        if within is not None and within.entries is not None and within.entries >= len(at_start):
            cuts.remove(within)
            within = None
        layout = _phase(len(at_start), first, deals)
        sessions.append(DaySession(session, layout, _seat(draw, layout, at_start)))
        play(session, layout, range(1, first + 1))
        if within is not None:
            field = still_in(day(), within.starts, cuts=cuts, mode=mode)
            phase = _phase(len(field), 1, deals)
            layout, seating = with_phase(
                layout, sessions[-1].seating, 1, phase, _seat(draw, phase, field)
            )
            sessions[-1] = DaySession(session, layout, seating)
            play(session, layout, range(2, 3))
    return day(), tuple(cuts)


@settings(max_examples=40, deadline=None)
@given(data=st.data(), mode=st.sampled_from(tuple(RankingMode)))
def test_the_standings_at_the_end_are_the_places_of_the_document_with_its_cuts(data, mode):
    day, cuts = data.draw(staged_days(mode))
    document = parse_score_sheets(
        score_sheets_document(day, cuts), format="individual", ranking=mode
    )
    standings = standings_after(day, cuts=cuts, mode=mode)
    assert {line.entry: (line.place, line.total) for line in standings.lines} == {
        e.number: (e.place, e.total) for e in document.entries
    }
    # Those who played the last position come first; each cut's eliminated after.
    last = {e.number for e in document.entries if e.place <= 4}
    assert all(line.eliminated_at is None for line in standings.lines if line.entry in last)
    # The document says who played each phase: the cuts' fields.
    before_2 = next(c for c in cuts if c.starts == (2, 1))
    assert len(document.sessions[1].entries) == before_2.entries
    eliminated = [line for line in standings.lines if line.eliminated_at is not None]
    assert len(eliminated) == len(day.entries) - len(still_in(day, (2, 99), cuts=cuts, mode=mode))
    # Shown in the middle of a session (level places shared), the cuts stay as drawn.
    shown = standings_after(day, cuts=cuts, mode=RankingMode.PLAIN, cut_mode=mode)
    assert {line.entry: line.eliminated_at for line in shown.lines} == {
        line.entry: line.eliminated_at for line in standings.lines
    }
