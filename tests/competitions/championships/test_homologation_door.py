"""One door per write (``competitions.homologation``): every path that homologates, refuses
or corrects a tournament's results knows a championship stage from a plain tournament.

Results of a regional final that the stage's checks refuse (stored straight through the
plain tournament's submission, as results stored before a rule change would be) get the
same refusal, and nothing written, from every path: the API (the tournament's endpoint and
the stage's), the staff desk (one tournament, several at once), the championships desk,
the admin action, ``manage.py load_results`` (one by one and batched) and the services the
demo calls. Each path still homologates the stage's results once they comply."""

from __future__ import annotations

import ast
import html
import io
import json
import re
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from competitions import homologation
from competitions.models import (
    Allocation,
    ChampionshipStage,
    ChampionshipTitle,
    ResultRevision,
    Tournament,
)
from competitions.tournaments.submission import plain_results_submit
from core.messages import problem_message
from core.problems import RuleViolation
from tests.competitions.championships.results_documents import results

pytestmark = pytest.mark.django_db

REFUSED = {
    ("entries", "field_below_minimum"),
    ("sessions", "too_few_sessions"),
    ("entries", "no_plan_for_field"),
}
"""A regional final of 15 entries in one session: below the minimum field, too few
sessions, no row of the committee's published table."""

PATHS = [
    "api",
    "api_stage",
    "desk",
    "desk_bulk",
    "championships_desk",
    "admin",
    "load_results_one_by_one",
    "load_results_batched",
    "services",
]


@pytest.fixture
def entered(api, as_user, finals, enter_all, players) -> list[int]:
    """Twenty players entered in committee 1's individual regional final."""
    numbers = players(20, 101)
    as_user("committee_staff")
    enter_all(api, finals["individual"], [[n] for n in numbers])
    api.force_authenticate(None)
    return numbers


@pytest.fixture
def stage(registry, finals, entered) -> ChampionshipStage:
    """That final, with results of 15 of its players in one session stored as a plain
    tournament's (revision 1, awaiting homologation)."""
    stage = ChampionshipStage.objects.select_related("tournament").get(pk=finals["individual"])
    Tournament.objects.filter(pk=stage.tournament_id).update(reference="FR-IND-1")
    stage.tournament.refresh_from_db()
    plain_results_submit(
        tournament=stage.tournament,
        content=short(entered),
        source="json",
        by=registry.users["committee_staff"],
    )
    return stage


def short(entered: list[int]) -> dict:
    """Results the stage's checks refuse (:data:`REFUSED`)."""
    return results([[n] for n in entered[:15]], sessions=1)


def compliant(entered: list[int]) -> dict:
    return results([[n] for n in entered])


def load_line(tournament: Tournament, document: dict) -> str:
    """A ``load_results`` line naming the stage's tournament by its reference."""
    declaration = {
        "name": tournament.name,
        "date": tournament.date.isoformat(),
        "venue": tournament.venue,
        "format": tournament.format,
        "stage": tournament.stage,
        "organizer_kind": tournament.organizer_kind,
        "organizer_number": tournament.organizer_committee.number,  # type: ignore[union-attr]
        "arbiter_licence_number": tournament.arbiter.licence_number,
        "arbiter_plays": tournament.arbiter_plays,
        "planned_sessions": tournament.planned_sessions,
        "placements": tournament.placements,
        "reference": tournament.reference,
    }
    return json.dumps({"declaration": declaration, "results": document, "homologate": True})


def french(problems) -> set[str]:
    return {problem_message(p, language="fr") for p in problems}


def refusal_shown(page: str, expected) -> bool:
    """Whether a page shows every expected problem, in French."""
    text = html.unescape(page)
    return all(message in text for message in expected)


def homologate_through(
    path: str, *, stage, entered, registry, api, client, tmp_path, capsys, revision
):
    """Homologate ``stage``'s results at ``revision`` through ``path``; what the path
    answered: ``("refused", codes or French messages shown)`` or ``("done", None)``."""
    tournament = stage.tournament
    ccn = registry.users["federation_staff"]
    if path in ("api", "api_stage"):
        api.force_authenticate(ccn)
        url = (
            f"/api/tournaments/{tournament.pk}/homologate/"
            if path == "api"
            else f"/api/championships/stages/{stage.pk}/homologate/"
        )
        response = api.post(url, format="json")
        if response.status_code == 200:
            return "done", None
        assert response.status_code == 400, response.json()
        return "refused", {(e["field"], e["code"]) for e in response.json()["errors"]}
    if path in ("desk", "desk_bulk", "championships_desk"):
        client.force_login(ccn)
        if path == "desk":
            response = client.post(
                f"/bureau/homologation/{tournament.pk}/homologuer/", {"revision": revision}
            )
        elif path == "desk_bulk":
            response = client.post(
                "/bureau/homologation/lot/", {"tournament": [f"{tournament.pk}:{revision}"]}
            )
            if response.status_code == 200:
                return "done", None
        else:
            response = client.post(
                f"/bureau/championnats/stades/{stage.pk}/homologuer/", {"revision": revision}
            )
        if response.status_code == 302:
            return "done", None
        assert response.status_code == 400
        return "refused", response.content.decode()
    if path == "admin":
        ccn.is_superuser = True
        ccn.save()
        client.force_login(ccn)
        response = client.post(
            "/admin/competitions/tournament/",
            {"action": "homologate", "_selected_action": [tournament.pk]},
            follow=True,
        )
        shown = [str(m) for m in response.context["messages"]]
        if any("homologués" in m or "homologated" in m for m in shown):
            return "done", None
        return "refused", "\n".join(shown)
    if path.startswith("load_results"):
        document = short(entered) if revision == 1 else compliant(entered)
        file = tmp_path / "stage.jsonl"
        file.write_text(load_line(tournament, document) + "\n", encoding="utf-8")
        batch = "1" if path.endswith("one_by_one") else "100"
        try:
            call_command("load_results", str(file), "--as", ccn.username, "--batch", batch)
        except CommandError:
            err = capsys.readouterr().err
            return "refused", set(re.findall(r"field='([^']*)', code='(\w+)'", err))
        capsys.readouterr()
        return "done", None
    assert path == "services"  # what the demo and any script call
    try:
        homologation.tournament_homologate(tournament=tournament, by=ccn, revision=revision)
    except RuleViolation as refusal:
        return "refused", {(p.field, p.code) for p in refusal.problems}
    return "done", None


def written(stage) -> tuple:
    """What a homologation would change: the tournament's state and history, its
    revisions, allocations and the stage's titles."""
    tournament = Tournament.objects.get(pk=stage.tournament_id)
    return (
        tournament.status,
        tournament.homologated_revision_id,
        Tournament.history.filter(id=tournament.pk).count(),
        ResultRevision.objects.filter(tournament=tournament).count(),
        Allocation.objects.filter(tournament=tournament).count(),
        ChampionshipTitle.objects.filter(stage=stage).count(),
    )


@pytest.mark.parametrize("path", PATHS)
def test_every_path_refuses_what_the_stage_refuses_and_homologates_what_it_accepts(
    path, stage, entered, registry, api, client, tmp_path, capsys
):
    ccn = registry.users["federation_staff"]
    with pytest.raises(RuleViolation) as door:  # the reference refusal, nothing kept
        homologation.tournament_homologate(tournament=stage.tournament, by=ccn, revision=1)
    assert {(p.field, p.code) for p in door.value.problems} == REFUSED
    before = written(stage)
    assert before[0] == "results_submitted"
    through = {
        "stage": stage,
        "entered": entered,
        "registry": registry,
        "api": api,
        "client": client,
        "tmp_path": tmp_path,
        "capsys": capsys,
    }

    outcome, shown = homologate_through(path, revision=1, **through)
    assert outcome == "refused"
    if isinstance(shown, set):
        assert shown == REFUSED
    else:
        assert refusal_shown(shown, french(door.value.problems)), shown
    assert written(stage) == before

    # The stage's results once they comply (a second revision): homologated.
    if not path.startswith("load_results"):  # a line of the file carries its results
        submitted = homologation.results_submit(
            tournament=stage.tournament,
            content=compliant(entered),
            source="json",
            by=registry.users["committee_staff"],
        )
        assert submitted.revision.number == 2
    outcome, _shown = homologate_through(path, revision=2, **through)
    assert outcome == "done"
    status, homologated, *_rest, allocations, titles = written(stage)
    assert status == "homologated"
    assert ResultRevision.objects.get(pk=homologated).number == 2
    assert allocations == len(entered)  # every player, licensed
    assert titles >= 1  # the regional champion


def test_refusal_and_correction_of_a_stage_go_through_the_stage_s_path(
    stage, entered, registry, api, client
):
    """Refused with reasons, then sent again and homologated, a stage corrected with
    results its checks refuse is refused alike by the API, the desk and the services,
    nothing written."""
    ccn = registry.users["federation_staff"]
    client.force_login(ccn)
    refused = client.post(
        f"/bureau/homologation/{stage.tournament_id}/refuser/", {"reasons": "Feuilles illisibles"}
    )
    assert refused.status_code == 302
    assert Tournament.objects.get(pk=stage.tournament_id).status == "refused"
    homologation.results_submit(
        tournament=stage.tournament,
        content=compliant(entered),
        source="json",
        by=registry.users["committee_staff"],
    )
    homologation.tournament_homologate(tournament=stage.tournament, by=ccn)
    before = written(stage)

    with pytest.raises(RuleViolation) as door:
        homologation.tournament_correct(
            tournament=stage.tournament,
            content=short(entered),
            source="json",
            reason="Erreur de saisie",
            by=ccn,
        )
    assert {(p.field, p.code) for p in door.value.problems} == REFUSED
    api.force_authenticate(ccn)
    response = api.post(
        f"/api/tournaments/{stage.tournament_id}/corrections/?reason=Erreur%20de%20saisie",
        short(entered),
        format="json",
    )
    assert response.status_code == 400
    assert {(e["field"], e["code"]) for e in response.json()["errors"]} == REFUSED
    upload = io.BytesIO(json.dumps(short(entered)).encode())
    upload.name = "resultats.json"
    page = client.post(
        f"/bureau/homologation/{stage.tournament_id}/corriger/",
        {"file": upload, "source": "json", "reason": "Erreur de saisie"},
    )
    assert page.status_code == 400
    assert refusal_shown(page.content.decode(), french(door.value.problems))
    assert written(stage) == before


# --- the door is the only caller of the plain services -----------------------------------

ROOT = Path(__file__).resolve().parents[3]
PLAIN = {
    "competitions.tournaments.homologation": {
        "plain_tournament_homologate",
        "plain_tournament_refuse",
        "plain_tournament_correct",
        "parsed_tournament_correct",
    },
    "competitions.tournaments.submission": {"plain_results_submit", "parsed_results_submit"},
}
DOOR_AND_STAGE = {"competitions.homologation", "competitions.championships.stage_results"}
BELOW_THE_DOOR = ("core", "federation", "rankings", "competitions.")
ABOVE_THE_DOOR = ("competitions.day",)  # the tournament day sends its results through it
WEB = re.compile(r"\.(api|admin|urls|page_urls|management|migrations)(\.|$)|_pages$|\.pages$")


def _modules():
    for folder in ("competitions", "rankings", "federation", "core", "config", "demo"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            yield module.removesuffix(".__init__"), ast.parse(path.read_text(encoding="utf-8"))


def test_only_the_door_and_the_stage_path_call_the_plain_services():
    callers = {
        module
        for module, tree in _modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        and node.module in PLAIN
        and {alias.name for alias in node.names} & PLAIN[node.module]
    }
    assert callers <= DOOR_AND_STAGE, callers - DOOR_AND_STAGE


def imports_the_door(module: str | None, names: list[ast.alias]) -> bool:
    return module == "competitions.homologation" or (
        module == "competitions" and any(a.name == "homologation" for a in names)
    )


def test_nothing_below_the_door_imports_it():
    importers = {
        module
        for module, tree in _modules()
        for node in ast.walk(tree)
        if (
            isinstance(node, ast.ImportFrom)
            and (
                node.module == "competitions.homologation"
                or (
                    node.module == "competitions"
                    and any(a.name == "homologation" for a in node.names)
                )
            )
        )
        or (
            isinstance(node, ast.Import)
            and any(a.name == "competitions.homologation" for a in node.names)
        )
    }
    domain = {
        module
        for module in importers
        if module.startswith(BELOW_THE_DOOR)
        and not module.startswith(ABOVE_THE_DOOR)
        and not WEB.search(module)
    }
    assert domain == set(), domain
