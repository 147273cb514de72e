"""`manage.py load_results` batched (``--batch N``, N > 1: the writes of many lines in one
statement per table) stores exactly what the services store one line at a time
(``--batch 1``): the same tournaments, revisions, rows, warnings, allocations, history
rows and ranking totals, the same lines refused with the same problems."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError, connection

from competitions.models import (
    Allocation,
    LicenceNameConfirmation,
    ResultEntry,
    ResultPenalty,
    ResultPlayer,
    ResultRevision,
    ResultSession,
    Tournament,
)
from competitions.tournaments import bulk_load
from federation.models import Sanction, SanctionKind
from rankings.models import PlayerSeasonTotal
from tests.competitions.tournaments.conftest import TOTALS
from tests.competitions.tournaments.test_repeats import set_scope, with_penalties


def declaration(reference: str, day: int, *, club: int = 101, kind: str = "club") -> dict:
    return {
        "name": f"Historique {reference}",
        "date": dt.date(2026, 12, day).isoformat(),
        "venue": "Lyon",
        "format": "individual",
        "organizer_kind": kind,
        "organizer_number": club,
        "arbiter_licence_number": 1002,
        "reference": reference,
    }


def line(reference: str, day: int, results: dict, *, homologate: bool = True, **kw) -> str:
    return json.dumps(
        {
            "declaration": declaration(reference, day, **kw),
            "results": results,
            "homologate": homologate,
        }
    )


def season_file(twelve_results) -> str:
    swapped = list(TOTALS)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    slow = [(5001, "slowness", 100)]
    too_few = twelve_results(TOTALS)
    too_few["entries"] = too_few["entries"][:10]  # 10 players on 3 tables: refused
    changed = list(TOTALS)
    changed[2], changed[3] = changed[3], changed[2]
    return "\n".join(
        [
            line("B-1", 1, with_penalties(twelve_results, slow)),
            line("B-2", 8, with_penalties(twelve_results, slow)),  # a repeat in the season?
            line("B-3", 9, too_few),  # results refused: the declaration stays
            line("B-4", 10, twelve_results(swapped), homologate=False),
            line("B-9", 11, twelve_results(TOTALS), club=999),  # no such club: refused
            "{not json",
            "",
            line("B-1", 1, with_penalties(twelve_results, slow)),  # again: unchanged
            line("B-5", 15, twelve_results(swapped)),  # 5003 suspended that day: a warning
            line("B-2", 8, twelve_results(changed)),  # homologated already: refused
            line("B-6", 20, twelve_results(TOTALS)),
            line("B-7", 21, twelve_results(swapped), kind="committee", club=1),
        ]
    )


def snapshot() -> dict:
    """What a load stored, without keys or clocks: by the tournaments' references."""
    names = dict(Tournament.objects.values_list("pk", "reference"))
    numbers = dict(ResultRevision.objects.values_list("pk", "number"))
    skip = {"id", "declared_at", "homologated_at", "homologated_revision_id"}
    tournaments = {
        t["reference"]: {
            **{k: v for k, v in t.items() if k not in skip},
            "homologated": numbers.get(t["homologated_revision_id"]),
            "homologated_at": t["homologated_at"] is not None,
        }
        for t in Tournament.objects.values()
    }
    history = sorted(
        (
            names[h.id],
            h.history_type,
            h.status,
            h.history_user_id,
            numbers.get(h.homologated_revision_id),
            h.refusal_reasons,
        )
        for h in Tournament.history.order_by("history_date", "history_id")
    )
    revisions = sorted(
        (
            names[r["tournament_id"]],
            r["number"],
            r["sha256"],
            json.dumps(r["document"], sort_keys=True),
            r["source"],
            r["submitted_by_id"],
            json.dumps(r["warnings"], sort_keys=True),
        )
        for r in ResultRevision.objects.values()
    )
    revision_of = {
        pk: (names[t], n)
        for pk, t, n in ResultRevision.objects.values_list("pk", "tournament_id", "number")
    }
    entry_of = {e.pk: e.number for e in ResultEntry.objects.all()}
    return {
        "tournaments": tournaments,
        "history": history,
        "revisions": revisions,
        "sessions": sorted(
            (revision_of[s.revision_id], s.number, s.tables, s.tables_of_three, s.tables_of_five, s.deals)  # noqa: E501
            for s in ResultSession.objects.all()
        ),
        "entries": sorted(
            (revision_of[e.revision_id], e.number, e.place, e.total, e.abandoned, json.dumps(e.tiebreak))  # noqa: E501
            for e in ResultEntry.objects.all()
        ),
        "players": sorted(
            (revision_of[p.revision_id], entry_of[p.entry_id], p.licence_number, p.name, p.player_id, p.licensed, p.total, json.dumps(p.position_scores))  # noqa: E501
            for p in ResultPlayer.objects.all()
        ),
        "penalties": sorted(
            (revision_of[p.revision_id], p.licence_number, p.points, p.kind, p.reason)
            for p in ResultPenalty.objects.all()
        ),
        "confirmations": sorted(
            (revision_of[c.revision_id], c.licence_number, c.name_in_file, c.registry_name)
            for c in LicenceNameConfirmation.objects.all()
        ),
        "allocations": sorted(
            (names[a.tournament_id], revision_of[a.revision_id], a.season_id, a.rulebook_id, a.player_id, a.place, a.pcn, a.pp, a.current)  # noqa: E501
            for a in Allocation.objects.all()
        ),
        "totals": sorted(
            (t.season_id, t.player_id, t.pcn, t.pp)
            for t in PlayerSeasonTotal.objects.all()
        ),
    }  # fmt: skip


def load(path, batch: str, capsys) -> tuple[str, str]:
    with pytest.raises(CommandError, match="4 line"):
        call_command("load_results", str(path), "--as", "federation_staff", "--batch", batch)
    captured = capsys.readouterr()
    refused = [e for e in captured.err.splitlines() if e.startswith("line ")]
    return captured.out.splitlines()[-1].split(" in ")[0], "\n".join(refused)


def refuse_as_the_constraint_would(objs, *args, **kwargs):
    raise IntegrityError("duplicate key value violates unique constraint")


def forget_the_load() -> None:
    """Back to the registry alone (the results, their allocations and totals gone)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "TRUNCATE competitions_tournament, competitions_historicaltournament, "
            "rankings_playerseasontotal CASCADE"
        )


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("scope", ["same_fault_same_tournament", "same_fault_same_season"])
def test_batched_load_stores_what_the_services_store_one_by_one(
    registry, twelve_players, twelve_results, tmp_path, capsys, monkeypatch, scope
):
    set_scope(registry, scope)
    Sanction.objects.create(
        player=twelve_players[2],
        kind=SanctionKind.SUSPENSION,
        starts=dt.date(2026, 12, 14),
        ends=dt.date(2027, 1, 14),
        reason="Comportement",
    )
    path = tmp_path / "season.jsonl"
    path.write_text(season_file(twelve_results) + "\n", encoding="utf-8")

    one_by_one = load(path, "1", capsys)
    expected = snapshot()
    forget_the_load()
    assert snapshot()["tournaments"] == {}
    batched = load(path, "100", capsys)
    assert snapshot() == expected
    assert batched == one_by_one
    forget_the_load()
    assert load(path, "3", capsys) == one_by_one  # lines across batches
    assert snapshot() == expected
    forget_the_load()
    with monkeypatch.context() as patch:  # a reference declared meanwhile by someone else
        # The run's insert refused (the services' own, one by one, goes through).
        patch.setattr(bulk_load, "tournaments_insert", refuse_as_the_constraint_would)
        assert load(path, "100", capsys) == one_by_one  # its run went one by one
    assert snapshot() == expected

    # What was stored, whichever the path: refused lines reported, the others loaded.
    assert one_by_one[0] == "declared 6, submitted 6, homologated 5, unchanged 1, failed 4"
    assert [e.split(":")[0] for e in one_by_one[1].splitlines()] == [
        "line 3",
        "line 5",
        "line 6",
        "line 10",
    ]
    statuses = {ref: t["status"] for ref, t in expected["tournaments"].items()}
    assert statuses == {
        "B-1": "homologated",
        "B-2": "homologated",
        "B-3": "declared",
        "B-4": "results_submitted",
        "B-5": "homologated",
        "B-6": "homologated",
        "B-7": "homologated",
    }
    warned = {r[0]: json.loads(r[6]) for r in expected["revisions"]}
    assert [w["code"] for w in warned["B-5"]] == ["suspended_player_in_results"]
    # The slowness of 1 December counts on the 8th only when the season's scope says so.
    assert bool(warned["B-2"]) is (scope == "same_fault_same_season")
    history = [h[1:3] for h in expected["history"] if h[0] == "B-1"]
    assert history == [("+", "declared"), ("~", "homologated"), ("~", "results_submitted")]
    assert len(expected["allocations"]) == 5 * 12
    assert len(expected["totals"]) == 12


@pytest.mark.django_db(transaction=True)
def test_a_batched_load_proposes_the_suspensions_the_door_proposes(
    registry, twelve_players, twelve_results, tmp_path
):
    from competitions.models import SuspensionProposal

    left = twelve_results()
    left["entries"][11].update(abandoned=True, arbiter_accord=False)
    path = tmp_path / "abandons.jsonl"
    path.write_text(
        "\n".join([line("A-1", 5, left), line("A-2", 6, twelve_results())]) + "\n",
        encoding="utf-8",
    )

    def proposals():
        return sorted(
            SuspensionProposal.objects.values_list(
                "tournament__reference", "player__licence_number", "entry_number", "status"
            )
        )

    call_command("load_results", str(path), "--as", "federation_staff", "--batch", "1")
    by_the_door = proposals()
    assert by_the_door == [("A-1", 5012, 12, "pending")]
    forget_the_load()
    call_command("load_results", str(path), "--as", "federation_staff", "--batch", "100")
    assert proposals() == by_the_door
