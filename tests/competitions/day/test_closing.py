"""The day's end: a whole tournament entered as deal records, closed through the day's
service and homologated, gives the same places and PCN as the same results uploaded as a
file; the standings, penalties, abandons and who may do what."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from competitions import homologation
from competitions.day import closing, penalties, scoring
from competitions.models import (
    Allocation,
    DayPenalty,
    DealRecord,
    EntryMember,
    PlayedSession,
    ResultEntry,
    Tournament,
    TournamentEntry,
    TournamentStatus,
)
from competitions.rules.engine.sheets import ScoreSheet, total_sheet
from competitions.rules.engine.tables import Orientation
from competitions.rules.results.json_format import JsonReader
from competitions.rules.results.score_sheets import _read_lines
from core.errors import Conflict, PermissionDenied
from core.problems import RuleViolation
from federation.models import Licence, Player

pytestmark = pytest.mark.django_db

SAMPLE = Path(__file__).resolve().parents[3] / "docs" / "samples" / "results-sheets.json"
LATE = 14446  # the sample's player penalised for arriving 3 minutes late


def sample() -> dict:
    return json.loads(SAMPLE.read_text())


@pytest.fixture
def players(registry):
    for entry in sample()["entries"]:
        for p in entry["players"]:
            last, first = p["name"].split(" ", 1)
            player = Player.objects.create(
                licence_number=p["licence_number"], last_name=last, first_name=first
            )
            Licence.objects.create(player=player, season=registry.season, club=registry.clubs[101])


def new_tournament(registry, name: str) -> Tournament:
    return Tournament.objects.create(
        season=registry.season, name=name, date="2026-12-03", venue="Lyon",
        format="individual", organizer_kind="club", organizer_club=registry.clubs[101],
        arbiter=registry.players[1002], live_page=True,
    )  # fmt: skip


def marks_of(sheet: dict) -> list[dict[str, int]]:
    """Each line's marks as the engine computes them (what the score entry stores)."""
    reader = JsonReader()
    lines = _read_lines(reader, sheet["deals"], "deals", len(sheet["players"]))
    assert lines is not None, reader.problems
    totals = total_sheet(
        ScoreSheet(
            table=sheet["table"],
            position=sheet["position"],
            players={Orientation(s): str(k) for s, k in sheet["players"].items()},
            deals=tuple(lines),
        )
    )
    return [{o.value: m for o, m in marks.items()} for marks in totals.deal_marks]


def replay(tournament: Tournament, document: dict, *, upto: tuple[int, int] | None = None):
    """The document's entries, sessions and deals as the day would have stored them: the
    starting number of each player is his entry's number."""
    number_of = {}
    for entry in document["entries"]:
        row = TournamentEntry.objects.create(
            tournament=tournament, number=entry["number"], present=True
        )
        for order, p in enumerate(entry["players"], start=1):
            EntryMember.objects.create(
                entry=row,
                tournament=tournament,
                order=order,
                player=Player.objects.get(licence_number=p["licence_number"]),
            )
            number_of[p["licence_number"]] = entry["number"]
    by_session: dict[int, dict[int, list[dict]]] = {}
    for sheet in document["score_sheets"]:
        by_session.setdefault(sheet["session"], {}).setdefault(sheet["position"], []).append(sheet)
    for number, positions in sorted(by_session.items()):
        deals = max(len(s["deals"]) for p in positions.values() for s in p)
        plan = {
            "format": "individual",
            "deals_per_position": deals,
            "positions": [
                [
                    {
                        "table": s["table"],
                        "seats": {seat: number_of[k] for seat, k in s["players"].items()},
                    }
                    for s in sorted(positions[p], key=lambda s: s["table"])
                ]
                for p in sorted(positions)
            ],
        }
        session = PlayedSession.objects.create(
            tournament=tournament, number=number, positions=len(positions),
            deals_per_position=deals, placement="random", seed=1, plan=plan,
            seating={str(n): {"entry": n, "member": 1} for n in number_of.values()},
        )  # fmt: skip
        for position, sheets in positions.items():
            if upto is not None and (number, position) > upto:
                continue
            for sheet in sheets:
                for k, (line, marks) in enumerate(
                    zip(sheet["deals"], marks_of(sheet), strict=True), start=1
                ):
                    DealRecord.objects.create(
                        session=session, position=position, table=sheet["table"], deal=k,
                        line=line, marks=marks, provenance="table",
                    )  # fmt: skip


def allocations(tournament: Tournament) -> dict[int, tuple[int, int]]:
    return {
        a.player.licence_number: (a.place, a.pcn)
        for a in Allocation.objects.filter(tournament=tournament, current=True).select_related(
            "player"
        )
    }


def test_a_day_closed_and_homologated_gives_the_places_and_pcn_of_the_same_results_uploaded(
    registry, players
):
    manager, staff = registry.users["club_manager"], registry.users["federation_staff"]
    day = new_tournament(registry, "Le jour")
    replay(day, sample())
    late = EntryMember.objects.get(tournament=day, player__licence_number=LATE)
    penalties.penalty_record(
        tournament=day, member_id=late.pk, kind="late_arrival", lateness_minutes=3,
        reason="Arrivé 3 minutes après l'appel", by=registry.users["arbiter"],
    )  # fmt: skip
    shown = closing.closing_preview(tournament=day, by=manager)
    submitted = closing.closing_submit(tournament=day, by=manager, digest=shown.digest)
    assert submitted.created
    assert submitted.revision.source == "sheets"
    homologation.tournament_homologate(tournament=day, by=staff)

    upload = new_tournament(registry, "Le fichier")
    homologation.results_submit(
        tournament=upload, content=SAMPLE.read_bytes(), source="sheets", by=manager
    )
    homologation.tournament_homologate(tournament=upload, by=staff)

    day.refresh_from_db()
    assert day.status == TournamentStatus.HOMOLOGATED
    assert allocations(day) == allocations(upload)
    assert len(allocations(day)) == 12
    places = lambda t: sorted(  # noqa: E731
        ResultEntry.objects.filter(revision__tournament=t).values_list("number", "place", "total")
    )
    assert places(day) == places(upload)
    # The preview showed what homologation gave.
    previewed = {
        p.licence_number: (e.place, p.pcn) for e in shown.preview.entries for p in e.players
    }
    assert previewed == allocations(day)


def test_the_standings_follow_the_positions_and_count_penalties_from_when_recorded(
    registry, players
):
    day = new_tournament(registry, "Le jour")
    replay(day, sample(), upto=(1, 2))
    arbiter = registry.users["arbiter"]
    after_first = closing.day_standings(tournament=day, by=arbiter, after=(1, 1))
    assert after_first.standings.after == (1, 1)
    assert sum(line.total for line in after_first.standings.lines) == 0
    late = EntryMember.objects.get(tournament=day, player__licence_number=LATE)
    penalties.penalty_record(
        tournament=day, member_id=late.pk, kind="slowness", reason="Lenteur",
        session=1, position=2, by=arbiter,
    )  # fmt: skip
    now = closing.day_standings(tournament=day, by=arbiter)
    assert now.standings.after == (1, 2)
    line = next(line for line in now.standings.lines if line.entry == late.entry.number)
    assert line.penalty_points == 100
    before = closing.day_standings(tournament=day, by=arbiter, after=(1, 1))
    assert all(line.penalty_points == 0 for line in before.standings.lines)


def test_penalty_amounts_follow_the_schedule_and_the_repeat_rule(registry, players):
    day = new_tournament(registry, "Le jour")
    replay(day, sample())
    arbiter = registry.users["arbiter"]
    member = EntryMember.objects.get(tournament=day, player__licence_number=LATE)

    def record(**kwargs):
        return penalties.penalty_record(
            tournament=day, member_id=member.pk, reason="motif", by=arbiter, **kwargs
        )

    assert record(kind="slowness").points == 100
    assert record(kind="slowness").points == 200  # a repeat in the same tournament
    assert record(kind="exposed_card").points == 0  # a warning first
    with pytest.raises(RuleViolation) as refused:
        record(kind="exposed_card", points=0)  # the repeat costs 100
    assert refused.value.problems[0].code == "day_penalty_amount_differs"
    assert refused.value.problems[0].field == "points"
    with pytest.raises(RuleViolation) as refused:
        record(kind="late_arrival")
    assert refused.value.problems[0].code == "day_lateness_required"
    assert record(kind="late_arrival", lateness_minutes=6).points == 200
    with pytest.raises(RuleViolation) as refused:
        record(kind="ethics")
    assert refused.value.problems[0].code == "day_points_required"
    assert record(kind="ethics", points=50).points == 50
    with pytest.raises(RuleViolation) as refused:
        record(kind="no_such_fault")
    assert refused.value.problems[0].code == "unknown_penalty_kind"
    with pytest.raises(RuleViolation) as refused:
        penalties.penalty_record(
            tournament=day, member_id=member.pk, kind="slowness", reason="  ", by=arbiter
        )
    assert refused.value.problems[0].field == "reason"
    with pytest.raises(RuleViolation) as refused:
        record(kind="slowness", session=3, position=1)
    assert refused.value.problems[0].code == "day_round_unknown"


def test_a_removed_penalty_is_kept_and_no_longer_counts(registry, players):
    day = new_tournament(registry, "Le jour")
    replay(day, sample())
    arbiter = registry.users["arbiter"]
    member = EntryMember.objects.get(tournament=day, player__licence_number=LATE)
    first = penalties.penalty_record(
        tournament=day, member_id=member.pk, kind="slowness", reason="Lenteur", by=arbiter
    )
    with pytest.raises(RuleViolation):
        penalties.penalty_remove(penalty=first, reason="", by=arbiter)
    penalties.penalty_remove(penalty=first, reason="Erreur de joueur", by=arbiter)
    assert DayPenalty.objects.get(pk=first.pk).removal_reason == "Erreur de joueur"
    again = penalties.penalty_record(
        tournament=day, member_id=member.pk, kind="slowness", reason="Lenteur", by=arbiter
    )
    assert again.points == 100  # the removed one is no first offence
    with pytest.raises(RuleViolation) as refused:
        penalties.penalty_remove(penalty=first, reason="encore", by=arbiter)
    assert refused.value.problems[0].code == "day_penalty_already_removed"
    document = closing.closing_document(tournament=day, by=arbiter)
    assert [p["points"] for p in document["penalties"]] == [100]


def test_a_score_sheet_fault_hits_every_player_of_the_table(registry, players):
    day = new_tournament(registry, "Le jour")
    replay(day, sample())
    recorded = penalties.sheet_fault_record(
        tournament=day, session=1, position=1, table=2, kind="score_sheet_total_not_zero",
        reason="Total non nul", by=registry.users["arbiter"],
    )  # fmt: skip
    seated = sample()["score_sheets"][1]["players"].values()
    assert sorted(p.member.player.licence_number for p in recorded) == sorted(seated)
    assert {p.points for p in recorded} == {100}


def test_an_abandon_ranks_the_entry_last_with_or_without_accord(registry, players):
    day = new_tournament(registry, "Le jour")
    document = sample()
    replay(day, document)
    arbiter = registry.users["arbiter"]
    best = closing.day_standings(tournament=day, by=arbiter).standings.lines[0].entry
    penalties.abandon_record(
        tournament=day, entry_number=best, session=2, position=2, agreed=True, by=arbiter
    )
    with pytest.raises(RuleViolation) as refused:
        penalties.abandon_record(
            tournament=day, entry_number=best, session=2, position=2, agreed=False, by=arbiter
        )
    assert refused.value.problems[0].code == "day_abandon_already"
    lines = closing.day_standings(tournament=day, by=arbiter).standings.lines
    assert lines[-1].entry == best
    assert lines[-1].abandoned
    built = closing.closing_document(tournament=day, by=arbiter)
    assert next(e for e in built["entries"] if e["number"] == best)["abandoned"] is True
    penalties.abandon_cancel(tournament=day, entry_number=best, by=arbiter)
    assert closing.day_standings(tournament=day, by=arbiter).standings.lines[0].entry == best


def test_what_was_previewed_is_what_is_sent(registry, players):
    day = new_tournament(registry, "Le jour")
    replay(day, sample())
    manager = registry.users["club_manager"]
    shown = closing.closing_preview(tournament=day, by=manager)
    record = DealRecord.objects.filter(session__tournament=day).first()
    record.line = {"contract": None}
    record.marks = dict.fromkeys(record.marks, 0)
    record.save()
    with pytest.raises(Conflict):
        closing.closing_submit(tournament=day, by=manager, digest=shown.digest)
    assert not day.revisions.exists()


def test_nothing_entered_is_refused_in_french_terms(registry, players):
    day = new_tournament(registry, "Le jour")
    with pytest.raises(RuleViolation) as refused:
        closing.closing_document(tournament=day, by=registry.users["club_manager"])
    assert refused.value.problems[0].code == "day_nothing_entered"


ROLES = ("anonymous", "player", "arbiter", "club_manager", "committee_staff", "zone_staff",
         "federation_staff")  # fmt: skip
RUNNERS = {"arbiter", "club_manager", "committee_staff", "zone_staff", "federation_staff"}
"""Who runs the day of club 101's tournament: its arbiter and whoever may manage it (the
club's managers and the staff above them, zone 1 and committee 1 included)."""
READERS = RUNNERS


@pytest.mark.parametrize("role", ROLES)
def test_who_may_do_what_inside_and_outside_scope(registry, players, role):
    """Every operation, for each role, on a tournament of club 101 (inside the scope of the
    committee and zone staff) and one of club 201 (outside it)."""
    user = registry.users[role]
    inside = new_tournament(registry, "Dedans")
    replay(inside, sample())
    outside = Tournament.objects.create(
        season=registry.season, name="Dehors", date="2026-12-03", venue="Rennes",
        format="individual", organizer_kind="club", organizer_club=registry.clubs[201],
        arbiter=registry.players[2001],
    )  # fmt: skip
    member = EntryMember.objects.filter(tournament=inside).first()
    ops = {
        "standings": lambda t: closing.day_standings(tournament=t, by=user),
        "penalty": lambda t: penalties.penalty_record(
            tournament=t, member_id=member.pk, kind="slowness", reason="Lenteur", by=user
        ),
        "abandon": lambda t: penalties.abandon_record(
            tournament=t, entry_number=1, session=2, position=2, agreed=False, by=user
        ),
        "document": lambda t: closing.closing_document(tournament=t, by=user),
        "sheet_fault": lambda t: penalties.sheet_fault_record(
            tournament=t,
            session=1,
            position=1,
            table=1,
            kind="score_sheet_lost",
            reason="Feuille disparue",
            by=user,
        ),
        "abandon_cancel": lambda t: penalties.abandon_cancel(tournament=t, entry_number=1, by=user),
        "preview": lambda t: closing.closing_preview(tournament=t, by=user),
    }
    senders = RUNNERS - {"arbiter"}  # the door's rule: the organiser's managers and above
    for name, op in ops.items():
        allowed = role in {"standings": READERS, "preview": senders}.get(name, RUNNERS)
        if allowed:
            if name == "abandon_cancel":  # re-record it: the next role's run starts afresh
                op(inside)
                penalties.abandon_record(
                    tournament=inside, entry_number=1, session=2, position=2, agreed=False,
                    by=registry.users["club_manager"],
                )  # fmt: skip
            else:
                op(inside)
        else:
            with pytest.raises(PermissionDenied):
                op(inside)
        if role == "federation_staff":  # every tournament is inside the federation's scope
            continue
        with pytest.raises(PermissionDenied):
            op(outside)
    first = DayPenalty.objects.filter(tournament=inside).first()
    if first is not None:
        if role in RUNNERS:
            penalties.penalty_remove(penalty=first, reason="erreur", by=user)
        else:
            with pytest.raises(PermissionDenied):
                penalties.penalty_remove(penalty=first, reason="erreur", by=user)


def test_a_deal_without_oudler_keeps_its_zero_to_the_results(registry, day_field):
    """0 oudlers is a fact of the deal, not a default left out: the results
    read it back (a line without ``oudlers`` would be refused at the end)."""
    arbiter = registry.users["arbiter"]
    table = day_field.session.plan["positions"][0][0]
    line = {"contract": "prise", "taker": "E", "oudlers": 0, "attack_points": 40}
    scoring.deal_enter(
        by=arbiter, session=day_field.session, position=1, table=table["table"], deal=1,
        line=line,
    )  # fmt: skip
    document = closing.closing_document(tournament=day_field.tournament, by=arbiter)
    assert document["score_sheets"][0]["deals"][0] == line
