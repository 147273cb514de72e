"""A championship stage whose committee's table eliminates, run on the day (« Jour de
tournoi »): session 2 seats only the entries kept at the cut before it (scores halved);
after its first position, once that position is complete, the arbiter draws the rest of the
session for the best 4 (scores halved again); the end sends the score sheets with their
``cuts`` through preview and submission, homologated, and the places and PCN equal those of
the same results uploaded as a JSON results file. Drawing past a cut too early is refused,
in French, on its field."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from competitions import homologation
from competitions.day import closing, entries, room, scoring
from competitions.models import Allocation, ResultEntry, Tournament, TournamentStatus
from competitions.rules.day.layout import layout_from_json, seating_from_json
from competitions.rules.results.canonical import canonical_dict
from competitions.rules.results.score_sheets import parse_score_sheets
from competitions.rules.results.validation import expected_places
from core.errors import Conflict, PermissionDenied
from core.messages import problem_message
from core.problems import RuleViolation
from tests.competitions.championships.test_results_sessions_and_article_29 import (
    HALVED_FINAL,
    _publish,
    _stage,
)

pytestmark = pytest.mark.django_db

# 12 players: session 1 at 3 tables (2 positions of 4 deals); session 2 keeps 8, scores
# halved, for one position; after it the best 4 play the last position, scores halved.
TABLE = [
    {"min_entries": 12, "max_entries": 16, "sessions": [
        {"deals": 8},
        {"deals": 8, "entries": 8, "points_divisor": 2, "position_cuts": [
            {"after_position": 1, "entries": 4, "points_divisor": 2},
        ]},
    ]},
]  # fmt: skip
DEALS = 4


def _line(rng: random.Random, seat: str) -> dict:
    return {
        "contract": rng.choice(["prise", "garde", "garde_sans"]),
        "taker": seat,
        "oudlers": rng.randint(0, 3),
        "attack_points": rng.randint(20, 70),
    }


def _play(arbiter, session_number: int, position: int, rng: random.Random, tournament) -> None:
    """Every table of ``position`` enters its deals, as the arbiter would."""
    session = Tournament.objects.get(pk=tournament).played_sessions.get(number=session_number)
    for table in layout_from_json(session.plan).tables_at(position):
        seats = ["N", "S", "E", "W"][4 - table.size :]
        for deal in range(1, DEALS + 1):
            scoring.deal_enter(
                by=arbiter, session=session, position=position, table=table.table, deal=deal,
                line=_line(rng, seats[deal % len(seats)]),
            )  # fmt: skip


def _seated(tournament: Tournament, session: int, position: int) -> set[int]:
    played = tournament.played_sessions.get(number=session)
    layout, seating = layout_from_json(played.plan), seating_from_json(played.seating)
    return {seating[n].entry for t in layout.tables_at(position) for n in t.seats.values()}


def eliminating_stages(registry, field: int = 12) -> tuple[Tournament, Tournament, object]:
    """Two qualifying stages of committee 1 under the eliminating :data:`TABLE`, each with
    the same ``field`` of licensees entered and mirrored into the day, those of the first
    present; and the stages' arbiter. Set up through the API, as the committee does."""
    from rest_framework.test import APIClient

    from federation.models import Licence, Player

    api = APIClient()
    api.force_authenticate(registry.users["federation_staff"])
    created = api.post("/api/championships/", {"season": "2026-2027"}, format="json")
    assert created.status_code == 201, created.json()
    championships = {c["kind"]: c["id"] for c in created.json()}

    def as_user(role: str):
        api.force_authenticate(registry.users[role])
        return api

    _publish(api, as_user, championships, HALVED_FINAL, TABLE)
    numbers = []
    for k in range(field):
        player = Player.objects.create(
            licence_number=760001 + k, last_name=f"Joueur{k + 1:02d}", first_name="Test",
            birth_date="1975-06-01",
        )  # fmt: skip
        for season in (registry.season, registry.previous):
            Licence.objects.create(player=player, season=season, club=registry.clubs[101])
        numbers.append(player.licence_number)
    made = []
    for day in ("2027-01-09", "2027-01-16"):
        stage = _stage(api, championships, "regional_stage", day)
        entered = api.post(
            f"/api/championships/stages/{stage['id']}/entries/",
            {"entries": [{"licence_numbers": [n]} for n in numbers]},
            format="json",
        )
        assert entered.status_code == 201, entered.json()
        tournament = Tournament.objects.get(pk=stage["tournament"]["id"])
        entries.stage_entries_mirror(tournament=tournament, by=registry.users["committee_staff"])
        made.append(tournament)
    arbiter = registry.users["arbiter"]
    for entry in made[0].day_entries.all():
        room.entry_presence_set(
            tournament=made[0], entry_number=entry.number, present=True, by=arbiter
        )
    return made[0], made[1], arbiter


def play_position(arbiter, tournament: Tournament, session: int, position: int, seed: int) -> None:
    """Every table of ``position`` enters its deals (random, from ``seed``)."""
    _play(arbiter, session, position, random.Random(seed), tournament.pk)


@pytest.fixture
def stage_day(registry):
    return eliminating_stages(registry)


def test_the_day_of_a_stage_with_cuts_draws_the_kept_and_sends_its_cuts(
    registry, stage_day, points
):
    final, upload, arbiter = stage_day
    rng = random.Random(7)
    room.session_draw(
        tournament=final, positions=2, deals_per_position=DEALS, placement="championship",
        seed=3, by=arbiter,
    )  # fmt: skip
    _play(arbiter, 1, 1, rng, final.pk)

    # Session 2 cannot be drawn before session 1 is over: the cut needs its standings.
    with pytest.raises(RuleViolation) as refused:
        room.session_draw(tournament=final, positions=1, deals_per_position=DEALS, by=arbiter)
    assert [(p.field, p.code) for p in refused.value.problems] == [
        ("after_position", "day_room_cut_position_incomplete")
    ]
    assert "n’est pas complète" in problem_message(refused.value.problems[0], language="fr")
    _play(arbiter, 1, 2, rng, final.pk)

    # The session is drawn up to its cut after position 1.
    with pytest.raises(RuleViolation) as refused:
        room.session_draw(tournament=final, positions=2, deals_per_position=DEALS, by=arbiter)
    assert [(p.field, p.code) for p in refused.value.problems] == [
        ("positions", "day_room_positions_to_cut")
    ]
    standings = closing.day_standings(tournament=final, by=arbiter).standings
    best_8 = {line.entry for line in standings.lines[:8]}
    room.session_draw(tournament=final, positions=1, deals_per_position=DEALS, by=arbiter)
    assert _seated(final, 2, 1) == best_8
    fields = room.phase_fields(tournament=final, by=arbiter)
    assert [(f.session, f.after_position, len(f.playing), len(f.eliminated)) for f in fields] == [
        (2, 0, 8, 4)
    ]

    # The rest of session 2 waits for its position 1.
    with pytest.raises(RuleViolation) as refused:
        room.phase_draw(
            tournament=final, session_number=2, after_position=1, positions=1, by=arbiter
        )
    assert refused.value.problems[0].code == "day_room_cut_position_incomplete"
    assert room.pending_cuts(tournament=final, by=arbiter)[0].ready is False
    _play(arbiter, 2, 1, rng, final.pk)
    assert room.pending_cuts(tournament=final, by=arbiter)[0].ready is True
    at_cut = closing.day_standings(tournament=final, by=arbiter).standings
    best_4 = {line.entry for line in at_cut.lines[:4]}
    session = room.phase_draw(
        tournament=final, session_number=2, after_position=1, positions=1, seed=5, by=arbiter
    )
    assert session.positions == 2
    assert _seated(final, 2, 2) == best_4
    first_numbers = {
        n for t in layout_from_json(session.plan).tables_at(1) for n in t.seats.values()
    }
    second_numbers = {
        n for t in layout_from_json(session.plan).tables_at(2) for n in t.seats.values()
    }
    assert min(second_numbers) > max(first_numbers)  # the phase's own starting numbers
    # « Mes places » of a player kept: a seat at both positions of session 2.
    kept = next(iter(best_4))
    assert [(s.session, s.position) for s in room.seats_of(final, kept, 1)] == [
        (1, 1), (1, 2), (2, 1), (2, 2)
    ]  # fmt: skip
    _play(arbiter, 2, 2, rng, final.pk)
    with pytest.raises(Conflict):  # scores past the cut: the phase is not redrawn
        room.phase_draw(
            tournament=final, session_number=2, after_position=1, positions=1, by=arbiter
        )

    # The standings at the end: the 4 of the last position first, then the 4 cut after
    # position 1, then the 4 cut before session 2.
    end = closing.day_standings(tournament=final, by=arbiter).standings
    assert {line.entry for line in end.lines[:4]} == best_4
    assert [line.eliminated_at for line in end.lines[4:]] == [(2, 2)] * 4 + [(2, 1)] * 4

    # The end sends the cuts; the places are the standings'.
    manager, staff = registry.users["committee_staff"], registry.users["federation_staff"]
    document = closing.closing_document(tournament=final, by=arbiter)
    assert document["cuts"] == [
        {"session": 2, "points_divisor": 2},
        {"session": 2, "after_position": 1, "points_divisor": 2},
    ]
    shown = closing.closing_preview(tournament=final, by=manager)
    places = {e.number: e.place for e in shown.preview.entries}
    assert places == {line.entry: line.place for line in end.lines}
    closing.closing_submit(tournament=final, by=manager, digest=shown.digest)
    homologation.tournament_homologate(tournament=final, by=staff)
    final.refresh_from_db()
    assert final.status == TournamentStatus.HOMOLOGATED

    # The same results uploaded as a JSON results file give the same places and PCN.
    parsed = parse_score_sheets(document, format="individual", ranking=closing.ranking_mode(final))
    assert [e.place for e in parsed.entries] == list(
        expected_places(parsed, format="individual", tie_break_rules=True)
    )
    homologation.results_submit(
        tournament=upload, content=canonical_dict(parsed), source="json", by=manager
    )
    homologation.tournament_homologate(tournament=upload, by=staff)
    assert points(final.pk) == points(upload.pk)
    assert len(points(final.pk)) == 12
    rows = lambda t: sorted(  # noqa: E731
        ResultEntry.objects.filter(revision__tournament=t).values_list("number", "place", "total")
    )
    assert rows(final) == rows(upload)
    assert Allocation.objects.filter(tournament=final, current=True).count() == 12


def test_drawing_past_a_cut_is_for_those_who_run_the_day(registry, stage_day):
    final, _, arbiter = stage_day
    room.session_draw(
        tournament=final, positions=2, deals_per_position=DEALS, placement="championship",
        seed=3, by=arbiter,
    )  # fmt: skip
    outsider = registry.users["club_manager"]  # runs its club's days, not the committee's
    with pytest.raises(PermissionDenied):
        room.phase_draw(
            tournament=final, session_number=2, after_position=1, positions=1, by=outsider
        )
    with pytest.raises(PermissionDenied):
        room.pending_cuts(tournament=final, by=outsider)
    with pytest.raises(PermissionDenied):
        room.phase_fields(tournament=final, by=outsider)
    assert room.phase_fields(tournament=final, by=registry.users["committee_staff"]) == []
    # No cut after position 2 of session 1 in the committee's table.
    with pytest.raises(RuleViolation) as refused:
        room.phase_draw(
            tournament=final, session_number=1, after_position=2, positions=1, by=arbiter
        )
    assert [(p.field, p.code) for p in refused.value.problems] == [
        ("after_position", "day_room_no_cut")
    ]
    assert "ne prévoit pas" in problem_message(refused.value.problems[0], language="fr")
    with pytest.raises(RuleViolation) as refused:
        room.phase_draw(
            tournament=final, session_number=3, after_position=1, positions=1, by=arbiter
        )
    assert refused.value.problems[0].code == "day_room_session_not_drawn"


def test_the_draw_page_draws_the_rest_after_a_cut_and_says_who_plays_on(
    client, registry, stage_day
):
    final, _, arbiter = stage_day
    rng = random.Random(11)
    room.session_draw(
        tournament=final, positions=2, deals_per_position=DEALS, placement="championship",
        seed=3, by=arbiter,
    )  # fmt: skip
    _play(arbiter, 1, 1, rng, final.pk)
    _play(arbiter, 1, 2, rng, final.pk)
    room.session_draw(tournament=final, positions=1, deals_per_position=DEALS, by=arbiter)
    client.force_login(arbiter)
    url = reverse("day-draw", args=[final.pk])
    page = client.get(url).content.decode()
    assert "8 inscriptions continuent" in page
    assert "4 inscriptions éliminées" in page
    assert "La position 1 n’est pas complète" in page  # session 2's position 1: no form yet
    assert "Tirez d’abord la suite de la séance en cours" in page  # not session 3 before it
    assert "Tirer la séance 3" not in page
    phase = reverse("day-draw-phase", args=[final.pk])
    form = {"session": 2, "after_position": 1, "positions": 1, "placement": "random"}
    refused = client.post(phase, form)
    assert refused.status_code == 400
    assert "n’est pas complète" in refused.content.decode()
    _play(arbiter, 2, 1, rng, final.pk)
    assert "Tirer la suite de la séance 2" in client.get(url).content.decode()
    wrong = client.post(phase, {**form, "positions": 2})  # 4 players: no movement
    assert wrong.status_code == 400
    assert "9 joueurs" in wrong.content.decode()
    drawn = client.post(phase, form)
    assert drawn.status_code == 302
    assert drawn["Location"].endswith("?position=2")
    assert "Tirer la séance 3" in client.get(url).content.decode()
    plan = client.get(drawn["Location"]).content.decode()
    assert "Séance 2, après la position 1" in plan
    assert "4 inscriptions continuent" in plan
    # The pages that read the session read its appended phase as any position.
    for name, args in (
        ("day-scores", [final.pk]),
        ("day-table-cards", [final.pk, 2]),
        ("day-movement-sheets", [final.pk, 2]),
        ("day-score-sheets", [final.pk, 2]),
        ("day-standings", [final.pk]),
    ):
        assert client.get(reverse(name, args=args)).status_code == 200, name
    standings = client.get(reverse("day-standings", args=[final.pk]) + "?apres=2-1")
    assert "éliminé avant la séance 2" in standings.content.decode()
    client.force_login(registry.users["club_manager"])  # outside the committee's stage
    assert client.post(phase, form).status_code == 404
    assert client.get(url).status_code == 404
