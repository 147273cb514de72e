"""The licence import writes the same rows by both of its paths: COPY and set-based
updates on PostgreSQL, ``bulk_*_with_history`` elsewhere (the embedded SQLite).

The portable path runs here on PostgreSQL with the connection's vendor set to
``sqlite`` (what the import branches on); the suite has no SQLite database.
"""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from core.problems import RuleViolation
from federation import licence_registry
from federation.licence_registry import import_licences
from federation.models import Licence, LicenceImport, Player

pytestmark = pytest.mark.django_db

HEADER = "licence_number;last_name;first_name;birth_date;club_number;issued_on"
FIRST = [
    "1001;Renommé;Ancien;01/02/1960;102;01/09/2026",  # a player of the registry, moved
    *(f"{770_000 + i};Lefèvre-{i};Élise;0{1 + i % 9}/03/1971;101;" for i in range(30)),
    "1002;Quéré;Loïc;12/12/1999;201;",
    "3001;Ancien;Joueur;05/05/1955;102;02/09/2026",  # licensed last season only: new licence
]
UPDATED = [
    "1001;Renommé;Ancien;01/02/1960;101;01/09/2026",  # moved back
    *(
        f"{770_000 + i};Lefèvre-{i}{'-bis' if i % 3 == 0 else ''};Élise;"
        f"0{1 + i % 9}/03/1971;{102 if i % 4 == 0 else 101};"
        for i in range(30)
    ),
]
# The optional contact columns, on new players and on one of the registry's.
CONTACTS_HEADER = "licence_number,last_name,first_name,birth_date,club_number,email,phone"
CONTACTS = [
    *(
        f"{880_000 + i},Müller-{i},Noël,1990-01-{1 + i:02},201,"
        f"{f'n{i}@example.org' if i % 2 else ''},{'06 12 34 56 78' if i % 3 else ''}"
        for i in range(12)
    ),
    "2001,Le Gall,Yannick,1961-01-15,201,yannick@example.org,02 99 00 00 00",
]
FILES = [
    (HEADER, FIRST),
    (HEADER, UPDATED),
    (HEADER, UPDATED),
    (CONTACTS_HEADER, CONTACTS),
    (CONTACTS_HEADER, CONTACTS),
]


def csv(header: str, lines: list[str]) -> bytes:
    return ("\n".join([header, *lines]) + "\n").encode()


def rows() -> dict[str, list[tuple]]:
    """What the imports wrote, every column but keys and dates (sorted as text: some
    are None); keys are replaced by what they stand for."""
    number = dict(Player.objects.values_list("pk", "licence_number"))
    player_columns = [field.attname for field in Player._meta.concrete_fields][1:]  # not id
    licence_columns = ["season_id", "club_id", "issued_on"]
    history_columns = ["history_type", "history_user_id"]

    def reason(h) -> str:
        return (h.history_change_reason or "").split("#")[0]

    return {
        "players": sorted_rows(Player.objects.values_list(*player_columns)),
        "licences": sorted_rows(
            (number[player_id], *values)
            for player_id, *values in Licence.objects.values_list("player_id", *licence_columns)
        ),
        "player history": sorted_rows(
            (
                number[h.id],
                *(getattr(h, name) for name in player_columns if hasattr(h, name)),
                *(getattr(h, name) for name in history_columns),
                reason(h),
            )
            for h in Player.history.all()
        ),
        "licence history": sorted_rows(
            (
                number[h.player_id],
                *(getattr(h, name) for name in [*licence_columns, *history_columns]),
                reason(h),
            )
            for h in Licence.history.all()
        ),
    }


def sorted_rows(values) -> list[tuple]:
    return sorted(values, key=repr)


def imported(registry, *, portable: bool, monkeypatch) -> tuple[dict, list]:
    with transaction.atomic():
        old = Player.objects.create(
            licence_number=3001, last_name="Ancien", first_name="Joueur", name_hidden=True
        )
        Licence.objects.create(player=old, season=registry.previous, club=registry.clubs[101])
        with monkeypatch.context() as patch:
            if portable:
                patch.setattr(connection, "vendor", "sqlite")
            user = registry.users["federation_staff"]
            results = [
                import_licences(
                    season=registry.season, content=csv(*file), file_name="f.csv", by=user
                )
                for file in FILES
            ]
        written = rows()
        transaction.set_rollback(True)
    counts = [
        (r.players_created, r.players_updated, r.licences_created, r.licences_updated)
        for r in results
    ]
    return written, counts


def test_both_paths_write_the_same_rows(registry, monkeypatch):
    assert connection.vendor == "postgresql"
    copied, copied_counts = imported(registry, portable=False, monkeypatch=monkeypatch)
    portable, portable_counts = imported(registry, portable=True, monkeypatch=monkeypatch)
    # created and updated players, created and updated licences; the same file again: nothing
    assert (
        copied_counts
        == portable_counts
        == [(30, 3, 31, 2), (0, 10, 0, 9), (0, 0, 0, 0), (12, 1, 12, 0), (0, 0, 0, 0)]
    )
    assert copied == portable
    players = {p[0]: p for p in copied["players"]}
    assert players[880_001][4:6] == ("n1@example.org", "06 12 34 56 78")
    assert players[2001][4:6] == ("yannick@example.org", "02 99 00 00 00")
    assert players[3001][7] is True  # name_hidden: an import leaves it as it is
    history = copied["player history"]
    assert {h[-3] for h in history} == {"+", "~"}
    assert {h[-2] for h in history if h[0] >= 770_000} == {registry.users["federation_staff"].pk}
    assert {h[-1] for h in history if h[0] >= 770_000} == {"licence import "}
    licence_history = copied["licence history"]
    assert (3001, registry.season.pk, registry.clubs[102].pk) in {h[:3] for h in licence_history}


@pytest.mark.parametrize("portable", [False, True], ids=["copy", "portable"])
def test_a_player_created_meanwhile_refuses_the_import_whole(registry, monkeypatch, portable):
    """Another write created a player of the file after the import looked them up: the
    insert meets the unique licence number, the import is refused (``concurrent_change``)
    and nothing of it is written, on both paths."""
    if portable:
        monkeypatch.setattr(connection, "vendor", "sqlite")
    monkeypatch.setattr(licence_registry, "_players_by_licence_number", lambda numbers: {})
    before = (Player.objects.count(), Licence.objects.count(), LicenceImport.objects.count())
    content = csv(
        HEADER, ["990001;Nouveau;Joueur;01/01/1990;101;", "2002;Quéré;Maëlle;30/08/1999;201;"]
    )
    with pytest.raises(RuleViolation) as refused:
        import_licences(season=registry.season, content=content, file_name="f.csv", by=None)
    assert [problem.code for problem in refused.value.problems] == ["concurrent_change"]
    after = (Player.objects.count(), Licence.objects.count(), LicenceImport.objects.count())
    assert after == before
    assert not Player.objects.filter(licence_number=990001).exists()


def test_a_player_deleted_meanwhile_refuses_the_import_whole(registry, monkeypatch):
    """On PostgreSQL the licences find their players in the database: a licence whose
    player is gone (deleted after the import looked them up) refuses the import
    (``concurrent_change``) instead of leaving the line out. (The portable path has the
    foreign key, checked at commit: never reached in a test's transaction.)"""
    Player.objects.create(licence_number=990_002, last_name="Parti", first_name="Joueur")
    look_up = licence_registry._players_by_licence_number

    def look_up_then_delete(numbers):
        found = look_up(numbers)
        Player.objects.filter(licence_number=990_002).delete()
        return found

    monkeypatch.setattr(licence_registry, "_players_by_licence_number", look_up_then_delete)
    content = csv(
        HEADER, ["990001;Nouveau;Joueur;01/01/1990;101;", "990002;Parti;Joueur;01/01/1990;101;"]
    )
    with pytest.raises(RuleViolation) as refused:
        import_licences(season=registry.season, content=content, file_name="f.csv", by=None)
    assert [problem.code for problem in refused.value.problems] == ["concurrent_change"]
    # Nothing of the import written (the deletion was the import's own doing: undone too).
    assert not Player.objects.filter(licence_number=990_001).exists()
    assert not Licence.objects.filter(season=registry.season, player__licence_number__gt=990_000)
    assert not LicenceImport.objects.exists()
