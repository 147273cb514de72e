"""Importing licensees into the registry: service, command and API, on a real database.

Uses the suite's ``registry`` fixture (tests/conftest.py): season 2026-2027,
clubs 101 and 102 (committee 1, zone 1) and 201 (committee 2, zone 2), players
1001–2002 licensed in them, one user per role. The documented samples
(docs/samples/) name clubs 1001, 2001 and 7001, which ``sample_clubs`` adds.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from rest_framework.test import APIRequestFactory, force_authenticate

from federation.api.licence_imports import LicenceImportView
from federation.licence_registry import ClubsOutsideScope, PlayersOutsideScope, import_licences
from federation.models import Club, Licence, LicenceImport, Player
from federation.rules.licence_file import LicenceFileRefused

pytestmark = pytest.mark.django_db

SAMPLES = Path(__file__).resolve().parents[2] / "docs" / "samples"
HEADER = "licence_number,last_name,first_name,birth_date,club_number"


def csv_bytes(*lines: str, header: str = HEADER, encoding: str = "utf-8") -> bytes:
    return ("\n".join([header, *lines]) + "\n").encode(encoding)


def run_import(registry, content: bytes, *, by=None, **kwargs):
    return import_licences(
        season=registry.season, content=content, file_name="licences.csv", by=by, **kwargs
    )


def registry_rows() -> dict[str, object]:
    """Everything an import may write, to compare before and after."""
    return {
        "players": sorted(
            Player.objects.values_list(
                "pk", "licence_number", "last_name", "first_name", "birth_date", "email", "phone"
            )
        ),
        "licences": sorted(
            Licence.objects.values_list("pk", "player_id", "season_id", "club_id", "issued_on")
        ),
        "player_history": Player.history.count(),
        "licence_history": Licence.history.count(),
        "imports": LicenceImport.objects.count(),
    }


def licence_club(registry, licence_number: int, season=None) -> int:
    return Licence.objects.get(
        player__licence_number=licence_number, season=season or registry.season
    ).club.number


@pytest.fixture
def sample_clubs(registry):
    """The clubs docs/samples/*.csv name (as ``manage.py seed_demo`` numbers them)."""
    committee_1, committee_2 = registry.committees[1], registry.committees[2]
    return {
        1001: Club.objects.create(number=1001, name="Tarot Club Parisien", committee=committee_1),
        2001: Club.objects.create(number=2001, name="Excuse de Versailles", committee=committee_2),
        7001: Club.objects.create(number=7001, name="Petit au Bout Rennais", committee=committee_2),
    }


# -- the service ------------------------------------------------------------------------


def test_a_good_file_creates_players_and_licences(registry, sample_clubs):
    content = (SAMPLES / "licences.csv").read_bytes()
    user = registry.users["federation_staff"]
    result = run_import(registry, content, by=user)

    assert (result.rows, result.players_created, result.licences_created) == (10, 10, 10)
    assert (result.players_updated, result.licences_updated) == (0, 0)
    assert result.licences_not_in_file == 5  # the registry's own licensees, left alone
    assert result.changed
    nguyen = Player.objects.get(licence_number=990106)
    assert (nguyen.last_name, nguyen.first_name, nguyen.birth_date) == (
        "Nguyễn",
        "Thảo",
        dt.date(1990, 7, 14),
    )
    assert Player.objects.get(licence_number=990103).birth_date == dt.date(1961, 1, 15)
    assert Player.objects.get(licence_number=990110).last_name == "Roux, dit Le Rouquin"
    assert licence_club(registry, 990102) == 7001
    assert Licence.objects.filter(season=registry.season).count() == 15

    record = LicenceImport.objects.get(pk=result.import_id)
    assert record.season == registry.season
    assert record.imported_by == user
    assert record.file_name == "licences.csv"
    assert record.sha256 == hashlib.sha256(content).hexdigest()
    assert (record.rows, record.players_created, record.licences_created) == (10, 10, 10)

    history = Player.history.filter(licence_number=990106).get()
    assert (history.history_type, history.history_user) == ("+", user)
    assert history.history_change_reason == f"licence import #{result.import_id}"
    assert Licence.history.filter(player_id=nguyen.pk, history_type="+").count() == 1


def test_importing_the_same_file_twice_changes_nothing(registry, sample_clubs):
    content = (SAMPLES / "licences.csv").read_bytes()
    run_import(registry, content)
    before = registry_rows()

    again = run_import(registry, content)

    assert not again.changed
    assert (again.players_unchanged, again.licences_unchanged) == (10, 10)
    assert (again.players_created, again.players_updated) == (0, 0)
    assert (again.licences_created, again.licences_updated) == (0, 0)
    after = registry_rows()
    # Not one Player, Licence or history row written; only the audit record of the import.
    assert after == {**before, "imports": before["imports"] + 1}


def test_an_updated_file_updates_in_place_and_never_duplicates(registry):
    first = csv_bytes(
        "3001,Lefèvre,Élise,1950-03-02,101",
        "3002,Quéré,Maëlle,1999-08-30,101",
        "3003,Le Gall,Yannick,1961-01-15,201",
    )
    run_import(registry, first)
    ids = dict(Player.objects.filter(licence_number__gte=3001).values_list("licence_number", "pk"))
    licence_ids = dict(
        Licence.objects.filter(
            season=registry.season, player__licence_number__gte=3001
        ).values_list("player__licence_number", "pk")
    )

    updated = csv_bytes(
        "3001,Lefèvre-Martin,Élise,1950-03-02,101",  # renamed
        "3002,Quéré,Maëlle,30/08/1999,102",  # moved to club 102 (same date, French format)
        "3003,Le Gall,Yannick,1961-01-15,201",  # unchanged
        "3004,Çelik,Zoé,1968-09-09,201",  # new
    )
    result = run_import(registry, updated)

    assert (result.players_created, result.players_updated, result.players_unchanged) == (1, 1, 2)
    assert (result.licences_created, result.licences_updated, result.licences_unchanged) == (
        1,
        1,
        2,
    )
    assert Player.objects.filter(licence_number__gte=3001).count() == 4
    assert Player.objects.get(pk=ids[3001]).last_name == "Lefèvre-Martin"
    assert licence_club(registry, 3002) == 102
    assert Licence.objects.get(pk=licence_ids[3002]).club.number == 102  # same row, moved
    assert Licence.objects.filter(season=registry.season, player_id=ids[3002]).count() == 1
    assert [h.history_type for h in Player.history.filter(id=ids[3001])] == ["~", "+"]
    assert Player.history.filter(id=ids[3003]).count() == 1  # unchanged: no new history row
    moved = Licence.history.filter(id=licence_ids[3002]).first()
    assert (moved.history_type, moved.club_id) == ("~", registry.clubs[102].pk)


def test_existing_players_are_matched_by_licence_number_and_other_seasons_kept(registry):
    # Player 1001 (Martin Élise, club 101, e-mail set) changes club this season.
    result = run_import(registry, csv_bytes("1001,Martin,Élise,1950-03-02,102"))

    assert (result.players_unchanged, result.licences_updated) == (1, 1)
    assert result.licences_not_in_file == 4
    assert Player.objects.filter(licence_number=1001).count() == 1
    assert Player.objects.get(licence_number=1001).email == "1001@example.org"  # no column
    assert licence_club(registry, 1001) == 102
    assert licence_club(registry, 1001, registry.previous) == 101
    assert licence_club(registry, 1002) == 101  # absent from the file: untouched


def test_optional_columns_update_only_when_present(registry):
    header = HEADER + ",issued_on,email,phone"
    run_import(
        registry,
        csv_bytes("1001,Martin,Élise,1950-03-02,101,2026-07-02,,06 39 98 00 01", header=header),
    )
    player = Player.objects.get(licence_number=1001)
    assert (player.email, player.phone) == ("", "06 39 98 00 01")  # an empty value clears
    licence = Licence.objects.get(player=player, season=registry.season)
    assert licence.issued_on == dt.date(2026, 7, 2)

    run_import(registry, csv_bytes("1001,Martin,Élise,1950-03-02,101"))
    player.refresh_from_db()
    licence.refresh_from_db()
    assert (player.phone, licence.issued_on) == ("06 39 98 00 01", dt.date(2026, 7, 2))


def test_a_bad_file_is_refused_whole_and_writes_nothing(registry, sample_clubs):
    before = registry_rows()
    with pytest.raises(LicenceFileRefused) as refused:
        run_import(registry, (SAMPLES / "licences-bad.csv").read_bytes())

    assert registry_rows() == before
    fields = [p.field for p in refused.value.problems]
    assert fields == [
        "lines[3].birth_date",
        "lines[4].licence_number",
        "lines[5].licence_number",
        "lines[6].first_name",
        "lines[7].club_number",
        "lines[8].birth_date",
        "lines[9].birth_date",
        "lines[9].club_number",
        "lines[10].birth_date",
        "lines[11].birth_date",
        "lines[12]",
    ]
    assert refused.value.bad_lines == 10
    unknown = refused.value.problems[4]
    assert (unknown.code, unknown.message) == (
        "unknown_club",
        "No club has the FFT club number 9999.",
    )


def test_one_bad_line_at_the_end_means_nothing_is_half_imported(registry):
    good = [f"{4000 + i},Petit,Léa,1980-01-01,101" for i in range(300)]
    before = registry_rows()
    with pytest.raises(LicenceFileRefused) as refused:
        run_import(registry, csv_bytes(*good, "4999,Petit,Léa,1980-01-01,999"))
    assert [(p.field, p.code) for p in refused.value.problems] == [
        ("lines[302].club_number", "unknown_club")
    ]
    assert registry_rows() == before


def test_every_unknown_club_is_reported(registry):
    with pytest.raises(LicenceFileRefused) as refused:
        run_import(
            registry,
            csv_bytes(
                "5001,Petit,Léa,1980-01-01,101",
                "5002,Roux,Paul,1980-01-01,555",
                "5003,Roux,Jean,1980-01-01,555",
                "5004,Roux,Anne,1980-01-01,777",
            ),
        )
    assert [(p.field, p.code) for p in refused.value.problems] == [
        ("lines[3].club_number", "unknown_club"),
        ("lines[4].club_number", "unknown_club"),
        ("lines[5].club_number", "unknown_club"),
    ]


def test_a_windows_1252_file_is_imported_with_its_accents(registry):
    content = csv_bytes(
        "6001;Lefèvre;Élise;02/03/1950;101",
        "6002;Dubœuf;François;1972-05-05;201",
        header=HEADER.replace(",", ";"),
        encoding="cp1252",
    )
    result = run_import(registry, content)
    assert result.encoding == "windows-1252"
    assert "Windows-1252" in result.notices[0]
    assert Player.objects.get(licence_number=6001).first_name == "Élise"
    assert Player.objects.get(licence_number=6002).last_name == "Dubœuf"
    # The same licensees in UTF-8 are the same data: nothing changes.
    again = run_import(registry, content.decode("cp1252").encode("utf-8"))
    assert not again.changed


def test_the_import_uses_bulk_queries(registry, django_assert_max_num_queries):
    # A save per row would be over 1,200 queries; SQLite's 999-parameter limit makes
    # smaller batches there than on PostgreSQL, hence the margin.
    lines = [f"{7000 + i},Petit,Léa,1980-01-01,{(101, 102, 201)[i % 3]}" for i in range(600)]
    with django_assert_max_num_queries(50):
        result = run_import(registry, csv_bytes(*lines))
    assert result.players_created == 600
    moved = [f"{7000 + i},Petit-Roux,Léa,1980-01-01,201" for i in range(600)]
    with django_assert_max_num_queries(50):
        result = run_import(registry, csv_bytes(*moved))
    assert (result.players_updated, result.licences_updated) == (600, 400)


def test_a_scope_restricts_the_clubs_a_file_may_name(registry):
    from federation.access import scope_of

    scope = scope_of(registry.users["committee_staff"])  # committee 1: clubs 101, 102
    before = registry_rows()
    with pytest.raises(ClubsOutsideScope) as outside:
        run_import(
            registry,
            csv_bytes("8001,Petit,Léa,1980-01-01,101", "8002,Roux,Paul,1980-01-01,201"),
            scope=scope,
        )
    assert [club.number for club in outside.value.clubs] == [201]
    assert "201 (Petit au Bout Rennes)" in str(outside.value)
    assert registry_rows() == before


# -- the management command -------------------------------------------------------------


def test_command_imports_and_prints_the_counts(registry, sample_clubs):
    out = StringIO()
    call_command(
        "import_licences",
        str(SAMPLES / "licences.csv"),
        "--season",
        "2026-2027",
        "--by",
        "federation_staff",
        stdout=out,
    )
    text = out.getvalue()
    assert "10 licensee line(s) for season 2026-2027" in text
    assert "players:  10 created, 0 updated, 0 unchanged" in text
    assert "licences: 10 created, 0 updated, 0 unchanged" in text
    assert LicenceImport.objects.get().imported_by == registry.users["federation_staff"]

    out = StringIO()
    call_command(
        "import_licences", str(SAMPLES / "licences.csv"), "--season", "2026-2027", stdout=out
    )
    assert "players:  0 created, 0 updated, 10 unchanged" in out.getvalue()
    assert "Nothing changed" in out.getvalue()


def test_command_prints_every_problem_and_fails(registry, sample_clubs):
    before = registry_rows()
    err = StringIO()
    with pytest.raises(CommandError, match=r"11 problem\(s\) on 10 line\(s\)\. Nothing was"):
        call_command(
            "import_licences",
            str(SAMPLES / "licences-bad.csv"),
            "--season",
            "2026-2027",
            stderr=err,
        )
    report = err.getvalue().splitlines()
    assert len(report) == 11
    assert (
        report[0]
        == "line 3, birth_date: « 1999.08.30 » is not a date; write YYYY-MM-DD or DD/MM/YYYY."
    )
    assert "line 7, club_number: No club has the FFT club number 9999." in report
    assert registry_rows() == before


def test_command_refuses_an_unknown_season_or_file(registry, tmp_path):
    with pytest.raises(CommandError, match=r"Unknown season « 2099-2100 » .*2026-2027"):
        call_command("import_licences", str(SAMPLES / "licences.csv"), "--season", "2099-2100")
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_licences", str(tmp_path / "absent.csv"), "--season", "2026-2027")


# -- the API ----------------------------------------------------------------------------


def post(registry, role: str, content: bytes, *, season: str = "2026-2027", **data):
    request = APIRequestFactory().post(
        "/api/federation/licence-imports/",
        {"file": SimpleUploadedFile("licences.csv", content, "text/csv"), "season": season} | data,
        format="multipart",
    )
    user = registry.users[role]
    if user is not None:
        force_authenticate(request, user=user)
    response = LicenceImportView.as_view()(request)
    response.render()
    return response


def body(response) -> dict:
    return json.loads(response.content)


IN_ZONE_1 = csv_bytes("8001,Petit,Léa,1980-01-01,101", "8002,Roux,Paul,1980-01-01,102")
WITH_ZONE_2 = csv_bytes("8001,Petit,Léa,1980-01-01,101", "8003,Roux,Jean,1980-01-01,201")


@pytest.mark.parametrize(
    ("role", "content", "status"),
    [
        ("anonymous", IN_ZONE_1, 401),
        ("player", IN_ZONE_1, 403),
        ("arbiter", IN_ZONE_1, 403),
        ("club_manager", IN_ZONE_1, 403),  # even for their own club 101
        ("committee_staff", IN_ZONE_1, 201),
        ("committee_staff", WITH_ZONE_2, 403),
        ("zone_staff", IN_ZONE_1, 201),
        ("zone_staff", WITH_ZONE_2, 403),
        ("federation_staff", WITH_ZONE_2, 201),
    ],
)
def test_who_may_import_what(registry, role, content, status):
    before = registry_rows()
    response = post(registry, role, content)
    assert response.status_code == status, response.content
    if status == 201:
        assert Player.objects.filter(licence_number__gte=8001).count() == 2
        return
    assert registry_rows() == before
    (error,) = body(response)["errors"]
    assert error["field"] is None
    if role in {"committee_staff", "zone_staff"}:
        assert error["code"] == "clubs_outside_scope"
        assert "201 (Petit au Bout Rennes)" in error["message"]
        assert "101" not in error["message"]


def test_api_returns_the_counts(registry):
    response = post(registry, "committee_staff", IN_ZONE_1)
    assert response.status_code == 201
    result = body(response)
    assert result["season"] == "2026-2027"
    assert result["encoding"] == "utf-8"
    assert (result["rows"], result["players_created"], result["licences_created"]) == (2, 2, 2)
    assert result["changed"] is True
    assert (
        LicenceImport.objects.get(pk=result["import_id"]).imported_by
        == registry.users["committee_staff"]
    )
    again = body(post(registry, "committee_staff", IN_ZONE_1))
    assert (again["changed"], again["players_unchanged"], again["licences_unchanged"]) == (
        False,
        2,
        2,
    )


def test_api_reports_every_problem_in_the_standard_shape(registry, sample_clubs):
    before = registry_rows()
    response = post(registry, "federation_staff", (SAMPLES / "licences-bad.csv").read_bytes())
    assert response.status_code == 400
    errors = body(response)["errors"]
    assert len(errors) == 11
    assert errors[0] == {
        "field": "lines[3].birth_date",
        "code": "malformed_date",
        "message": "«\u00a01999.08.30\u00a0» n’est pas une date\u00a0: écrivez JJ/MM/AAAA ou "
        "AAAA-MM-JJ, l’année en entier.",
    }
    assert {"field": "lines[7].club_number", "code": "unknown_club"}.items() <= errors[4].items()
    assert registry_rows() == before


def test_api_refuses_a_missing_file_an_unknown_season_and_a_file_too_large(registry, settings):
    request = APIRequestFactory().post(
        "/api/federation/licence-imports/", {"season": "2026-2027"}, format="multipart"
    )
    force_authenticate(request, user=registry.users["federation_staff"])
    response = LicenceImportView.as_view()(request)
    assert response.status_code == 400
    response.render()
    assert [e["field"] for e in body(response)["errors"]] == ["file"]

    response = post(registry, "federation_staff", IN_ZONE_1, season="1999-2000")
    assert response.status_code == 400
    assert [e["field"] for e in body(response)["errors"]] == ["season"]

    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 50
    response = post(registry, "federation_staff", IN_ZONE_1)
    assert response.status_code == 400
    (error,) = body(response)["errors"]
    assert (error["field"], error["code"]) == ("file", "file_too_large")
    assert "la limite est de 50 octets" in error["message"]
    assert not Player.objects.filter(licence_number__gte=8001).exists()


# -- moves between committees: only federation staff ------------------------------------------

# Line 2 keeps 1001 in committee 1; line 3 takes 2001 (club 201, committee 2) into club 101;
# line 4 takes 2002 (club 201) into club 102.
TAKEOVER = csv_bytes(
    "1001,Martin,Élise,1950-03-02,102",
    "2001,Le Gall,Yannick,1940-01-01,101",
    "2002,Quéré,Maëlle,1999-08-30,102",
)


@pytest.mark.parametrize("role", ["committee_staff", "zone_staff"])
def test_staff_may_not_move_a_player_of_another_committee(registry, role):
    before = registry_rows()
    response = post(registry, role, TAKEOVER)
    assert response.status_code == 403, response.content
    assert registry_rows() == before
    errors = body(response)["errors"]
    assert [(e["field"], e["code"]) for e in errors] == [
        ("lines[3].licence_number", "player_outside_scope"),
        ("lines[4].licence_number", "player_outside_scope"),
    ]
    assert (
        "La licence 2001 est au club 201 du comité 2, hors de votre périmètre"
        in (errors[0]["message"])
    )
    text = response.content.decode()
    for private in ("1961", "1999-08-30", "30/08/1999", "2001@example.org", "2002@example.org"):
        assert private not in text


def test_federation_staff_may_move_anyone(registry):
    response = post(registry, "federation_staff", TAKEOVER)
    assert response.status_code == 201, response.content
    assert [licence_club(registry, n) for n in (1001, 2001, 2002)] == [102, 101, 102]


def test_a_player_last_licensed_in_another_committee_is_outside_scope(registry):
    """A player without a licence this season belongs to the committee of their latest one."""
    from federation.access import scope_of

    Licence.objects.filter(player=registry.players[2001], season=registry.season).delete()
    before = registry_rows()
    with pytest.raises(PlayersOutsideScope) as outside:
        run_import(
            registry,
            csv_bytes("1002,Lefèvre,Jérôme,1980-11-20,101", "2001,Le Gall,Yannick,1961-01-15,101"),
            scope=scope_of(registry.users["committee_staff"]),
        )
    assert [p.field for p in outside.value.problems] == ["lines[3].licence_number"]
    assert registry_rows() == before
    # Within their own committee, committee staff move players between clubs.
    result = run_import(
        registry,
        csv_bytes("1001,Martin,Élise,1950-03-02,102"),
        scope=scope_of(registry.users["committee_staff"]),
    )
    assert result.licences_updated == 1
    assert licence_club(registry, 1001) == 102
