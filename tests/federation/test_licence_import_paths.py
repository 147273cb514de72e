"""The licence import writes the same rows by both of its paths: COPY and set-based
updates on PostgreSQL, ``bulk_*_with_history`` elsewhere (the embedded SQLite).

The portable path runs here on PostgreSQL with the connection's vendor set to
``sqlite`` (what the import branches on); the suite has no SQLite database.
"""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from federation.licence_registry import import_licences
from federation.models import Licence, Player

pytestmark = pytest.mark.django_db

HEADER = "licence_number;last_name;first_name;birth_date;club_number;issued_on"
FIRST = [
    "1001;Renommé;Ancien;01/02/1960;102;01/09/2026",  # a player of the registry, moved
    *(f"{770_000 + i};Lefèvre-{i};Élise;0{1 + i % 9}/03/1971;101;" for i in range(30)),
    "1002;Quéré;Loïc;12/12/1999;201;",
]
UPDATED = [
    "1001;Renommé;Ancien;01/02/1960;101;01/09/2026",  # moved back
    *(
        f"{770_000 + i};Lefèvre-{i}{'-bis' if i % 3 == 0 else ''};Élise;"
        f"0{1 + i % 9}/03/1971;{102 if i % 4 == 0 else 101};"
        for i in range(30)
    ),
]


def csv(lines: list[str]) -> bytes:
    return ("\n".join([HEADER, *lines]) + "\n").encode()


def rows() -> dict[str, list[tuple]]:
    """What the imports wrote, keys and dates aside (sorted as text: some are None)."""
    return {
        "players": sorted_rows(
            Player.objects.values_list(
                "licence_number", "last_name", "first_name", "birth_date", "email", "phone"
            )
        ),
        "licences": sorted_rows(
            Licence.objects.values_list(
                "player__licence_number", "season__name", "club__number", "issued_on"
            )
        ),
        "player history": sorted_rows(
            (
                h.licence_number,
                h.last_name,
                h.first_name,
                h.birth_date,
                h.history_type,
                h.history_user_id,
                (h.history_change_reason or "").split("#")[0],
            )
            for h in Player.history.all()
        ),
        "licence history": sorted_rows(
            (
                h.player_id and Player.objects.get(pk=h.player_id).licence_number,
                h.club_id,
                h.season_id,
                h.issued_on,
                h.history_type,
                h.history_user_id,
                (h.history_change_reason or "").split("#")[0],
            )
            for h in Licence.history.all()
        ),
    }


def sorted_rows(values) -> list[tuple]:
    return sorted(values, key=repr)


def imported(registry, *, portable: bool, monkeypatch) -> tuple[dict, list]:
    with transaction.atomic():
        with monkeypatch.context() as patch:
            if portable:
                patch.setattr(connection, "vendor", "sqlite")
            user = registry.users["federation_staff"]
            results = [
                import_licences(
                    season=registry.season, content=csv(lines), file_name="f.csv", by=user
                )
                for lines in (FIRST, UPDATED, UPDATED)
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
    # created and updated players, created and updated licences; the third import: nothing
    assert copied_counts == portable_counts == [(30, 2, 30, 2), (0, 10, 0, 9), (0, 0, 0, 0)]
    assert copied == portable
    history = copied["player history"]
    assert {h[4] for h in history} == {"+", "~"}
    assert {h[5] for h in history if h[0] >= 770_000} == {registry.users["federation_staff"].pk}
