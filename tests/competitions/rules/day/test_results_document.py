"""The day's results as a score-sheets document: it reads back, its totals are the engine's,
and the day's standings agree with the document's places."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.rules.day.layout import Holder, layout_of
from competitions.rules.day.results_document import (
    Cut,
    DayDeal,
    DayEntry,
    DayMember,
    DayPenalty,
    DayResults,
    DaySession,
    DayTotals,
    score_sheets_document,
    table_sheets,
)
from competitions.rules.day.standings import standings_after
from competitions.rules.engine.eliminations import EliminatedOrder
from competitions.rules.engine.movements.planning import plan_movement
from competitions.rules.engine.penalties import PenaltyKind
from competitions.rules.engine.scoring import Deal, score_deal
from competitions.rules.engine.sheets import DealLine, ScoreSheet, total_sheet
from competitions.rules.engine.standings import RankingMode
from competitions.rules.engine.tables import Orientation, TableSize
from competitions.rules.engine.tables import seats as engine_seats
from competitions.rules.results.score_sheets import parse_score_sheets
from core.problems import RuleViolation


def seats_of(size: int) -> tuple[Orientation, ...]:
    return engine_seats(TableSize(size))


CONTRACTS = ("prise", "garde", "garde_sans", "garde_contre")


def table_deals(draw, session: int, table, deals_per_position: int) -> list[DayDeal]:
    """Random deals of one table at one position, as the score entry keeps them (the line
    and the engine's marks)."""
    seats = seats_of(len(table.seats))
    deals = []
    for k in range(1, deals_per_position + 1):
        contract = draw(st.sampled_from((None, *CONTRACTS)))
        if contract is None:
            line: dict = {"contract": None}
            facts = Deal(table_size=len(seats), contract=None)
        else:
            taker = draw(st.sampled_from(seats))
            oudlers = draw(st.integers(0, 3))
            points = draw(st.integers(0, 91))
            line = {
                "contract": contract,
                "taker": taker.value,
                "oudlers": oudlers,
                "attack_points": points,
            }
            facts = Deal(
                table_size=len(seats),
                contract=contract,
                taker=taker,
                oudlers=oudlers,
                attack_points=points,
            )
        try:
            scored = score_deal(facts)
        except RuleViolation:
            line = {"contract": None}
            scored = score_deal(Deal(table_size=len(seats), contract=None))
        deals.append(
            DayDeal(
                session,
                table.position,
                table.table,
                k,
                line,
                {o.value: m for o, m in scored.marks.items()},
            )
        )
    return deals


@st.composite
def days(draw, *, sessions_max: int = 2, totals: bool = True, max_guests: int = 2):
    players = draw(st.integers(min_value=9, max_value=22))
    positions = draw(st.integers(min_value=1, max_value=3))
    deals_per_position = draw(st.integers(min_value=1, max_value=3))
    try:
        plan = plan_movement(players, positions)
    except RuleViolation:
        plan = plan_movement(16, 2)
        players, positions = 16, 2
    layout = layout_of(plan, deals_per_position)
    numbers = tuple(plan.numbers)
    guests = draw(st.sets(st.sampled_from(numbers), max_size=max_guests))
    entries = tuple(
        DayEntry(
            n,
            (
                DayMember(
                    1,
                    None if n in guests else 100_000 + n,
                    f"INVITÉ {n}" if n in guests else f"JOUEUR {n}",
                ),
            ),
        )
        for n in numbers
    )
    sessions = tuple(
        DaySession(s, layout, {n: Holder(n) for n in numbers})
        for s in range(1, draw(st.integers(min_value=1, max_value=sessions_max)) + 1)
    )
    deals: list[DayDeal] = []
    table_totals: list[DayTotals] = []
    for session in sessions:
        for tables in layout.positions:
            for table in tables:
                seats = seats_of(len(table.seats))
                if totals and draw(st.integers(0, 9)) == 0:
                    score = draw(st.integers(-300, 300))
                    marks = dict.fromkeys((s.value for s in seats), 0)
                    marks[seats[0].value] = score * (len(seats) - 1)
                    for s in seats[1:]:
                        marks[s.value] = -score
                    table_totals.append(
                        DayTotals(session.number, table.position, table.table, marks)
                    )
                    continue
                deals += table_deals(draw, session.number, table, deals_per_position)
    licensed = [e for e in entries if e.members[0].licence_number is not None]
    penalties = tuple(
        DayPenalty(e.members[0].licence_number, PenaltyKind.SLOWNESS, 100, "Lenteur")
        for e in draw(st.lists(st.sampled_from(licensed), max_size=2, unique=True))
    )
    return DayResults(entries, sessions, tuple(deals), tuple(table_totals), penalties)


@settings(max_examples=40, deadline=None)
@given(day=days())
def test_the_document_parses_and_its_totals_are_the_engines(day):
    document = parse_score_sheets(score_sheets_document(day), format="individual")
    by_key = {}
    for entry in document.entries:
        for player in entry.players:
            by_key[player.licence_number or player.name] = player
    for sheet in table_sheets(day):
        totals = total_sheet(
            ScoreSheet(
                table=sheet.table,
                position=sheet.position,
                players={Orientation(s): str(k) for s, k in sheet.players.items()},
                deals=tuple(
                    DealLine(marks=line["marks"])
                    if "marks" in line
                    else DealLine(
                        facts=Deal(
                            table_size=len(sheet.players),
                            contract=line["contract"],
                            taker=line.get("taker"),
                            oudlers=line.get("oudlers"),
                            attack_points=line.get("attack_points"),
                        )
                    )
                    for line in sheet.lines
                ),
            )
        )
        for seat, key in sheet.players.items():
            scores = [
                p.score
                for p in by_key[key].positions
                if (p.session, p.position) == (sheet.session, sheet.position)
            ]
            assert scores == [totals.players[Orientation(seat)].balance]
    penalties = {p.licence_number: p.points for p in day.penalties}
    for entry in document.entries:
        player = entry.players[0]
        balance = sum(p.score for p in player.positions)
        assert entry.total == balance - penalties.get(player.licence_number, 0)


@settings(max_examples=40, deadline=None)
@given(day=days())
def test_the_standings_at_the_end_are_the_documents_places(day):
    document = parse_score_sheets(score_sheets_document(day), format="individual")
    standings = standings_after(day)
    places = {line.entry: (line.place, line.total) for line in standings.lines}
    assert places == {e.number: (e.place, e.total) for e in document.entries}


@settings(max_examples=60, deadline=None)
@given(day=days(totals=False))
def test_article_29_places_are_the_documents(day):
    document = parse_score_sheets(
        score_sheets_document(day), format="individual", ranking=RankingMode.CHAMPIONSHIP
    )
    standings = standings_after(day, mode=RankingMode.CHAMPIONSHIP)
    assert {line.entry: line.place for line in standings.lines} == {
        e.number: e.place for e in document.entries
    }


def test_an_abandoned_entry_is_last_and_absent_from_later_sheets():
    plan = plan_movement(12, 2)
    layout = layout_of(plan, 1)
    entries = tuple(DayEntry(n, (DayMember(1, 200 + n, f"J{n}"),)) for n in range(1, 13))
    gone = DayEntry(3, entries[2].members, abandoned_after=(1, 1))
    entries = (*entries[:2], gone, *entries[3:])
    session = DaySession(1, layout, {n: Holder(n) for n in range(1, 13)})
    deals = []
    for tables in layout.positions:
        for table in tables:
            size = sum(1 for n in table.seats.values() if table.position == 1 or n != 3)
            taker = seats_of(size)[0]
            scored = score_deal(Deal(size, "garde", taker=taker, oudlers=3, attack_points=60))
            deals.append(
                DayDeal(
                    1,
                    table.position,
                    table.table,
                    1,
                    {"contract": "garde", "taker": taker.value, "oudlers": 3, "attack_points": 60},
                    {o.value: m for o, m in scored.marks.items()},
                )
            )
    day = DayResults(entries, (session,), tuple(deals))
    document = score_sheets_document(day)
    assert all(
        203 not in sheet["players"].values()
        for sheet in document["score_sheets"]
        if sheet["position"] == 2
    )
    assert next(e for e in document["entries"] if e["number"] == 3)["abandoned"] is True
    standings = standings_after(day)
    assert standings.lines[-1].entry == 3
    assert standings.lines[-1].abandoned


def _flat_day(scores: dict[int, list[int]]) -> DayResults:
    """Entries whose position scores are given directly (as table totals of one seat each:
    enough for the standings, which read marks)."""
    layout = layout_of(plan_movement(12, 1), 1)
    entries = tuple(DayEntry(n, (DayMember(1, 300 + n, f"J{n}"),)) for n in scores)
    sessions = tuple(
        DaySession(s, layout, {n: Holder(n) for n in scores})
        for s in range(1, len(next(iter(scores.values()))) + 1)
    )
    totals = []
    for s in range(1, len(sessions) + 1):
        for table in layout.positions[0]:
            totals.append(
                DayTotals(
                    s,
                    1,
                    table.table,
                    {
                        seat.value: scores[n][s - 1]
                        for seat, n in zip(
                            seats_of(len(table.seats)), table.seats.values(), strict=False
                        )
                    },
                )
            )
    return DayResults(entries, sessions, (), tuple(totals))


def test_a_cut_keeps_the_best_and_halves_their_scores():
    day = _flat_day(
        {
            1: [300, -10],
            2: [75, 20],
            3: [-75, 0],
            4: [-300, -10],
            5: [100, 0],
            6: [-100, 0],
            7: [1, 0],
            8: [-1, 0],
            9: [2, 0],
            10: [-2, 0],
            11: [3, 0],
            12: [-3, 0],
        }
    )
    standings = standings_after(day, cuts=[Cut(2, entries=10, divisor=2)])
    by_entry = {line.entry: line for line in standings.lines}
    assert by_entry[1].score == 150 - 10
    assert by_entry[2].score == 38 + 20  # 75 / 2 rounded half away from zero
    assert by_entry[3].score == -38
    assert by_entry[4].eliminated_at == (2, 1)
    assert by_entry[4].score == -300
    assert by_entry[6].eliminated_at == (2, 1)
    assert [line.entry for line in standings.lines][-2:] == [6, 4]
    assert standings.lines[-1].place == 12
    shared = standings_after(
        day, cuts=[Cut(2, entries=10, divisor=2)], eliminated_order=EliminatedOrder.SHARED
    )
    assert [line.place for line in shared.lines][-2:] == [11, 11]


def test_the_standings_after_an_earlier_position_ignore_what_came_later():
    day = _flat_day({n: [10 * (n % 2 * 2 - 1), 100 * (1 - n % 2 * 2)] for n in range(1, 13)})
    first = standings_after(day, after=(1, 1))
    assert first.after == (1, 1)
    assert {line.entry: line.total for line in first.lines}[1] == 10
    assert {line.entry: line.total for line in standings_after(day).lines}[1] == -90
