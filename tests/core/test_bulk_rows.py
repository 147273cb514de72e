"""core.bulk_rows.insert_rows: COPY on PostgreSQL writes the rows bulk_create writes."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection, transaction

from core.bulk_rows import JsonText, insert_rows, insert_values, reserve_keys
from core.models import OutboxMessage
from federation.models import Player

pytestmark = pytest.mark.django_db


def players() -> list[Player]:
    return [
        Player(licence_number=880_000 + i, last_name=f"Lefèvre-{i}", first_name="Élise",
               birth_date=dt.date(1950, 1, 1) + dt.timedelta(days=i), email="", phone="")
        for i in range(5)
    ] + [Player(licence_number=880_010, last_name="Quéré", first_name="Loïc")]  # fmt: skip


def messages() -> list[OutboxMessage]:
    return [
        OutboxMessage(task="a.task", args=[1, "deux", None], kwargs={"clé": [3.5]}),
        OutboxMessage(task="b.task", countdown=2.5, attempts=3, last_error="a\ttab\nand line"),
        OutboxMessage(task="c.task"),  # defaults: [] and {}
    ]


def written(*, portable: bool, monkeypatch) -> dict[str, list[tuple]]:
    """The rows ``insert_rows`` writes by one path, read back (then rolled back)."""
    started = dt.datetime.now(dt.UTC)
    with transaction.atomic():
        with monkeypatch.context() as patch:
            if portable:
                patch.setattr(connection, "vendor", "sqlite")  # bulk_create's path
            assert insert_rows(Player, players()) == 6
            assert insert_rows(OutboxMessage, messages()) == 3
            assert insert_rows(Player, []) == 0
        rows = {
            "players": list(
                Player.objects.filter(licence_number__gte=880_000)
                .order_by("licence_number")
                .values_list(
                    "licence_number",
                    "last_name",
                    "first_name",
                    "birth_date",
                    "email",
                    "phone",
                    "search_name",
                )
            ),
            "messages": list(
                OutboxMessage.objects.order_by("task").values_list(
                    "task", "args", "kwargs", "countdown", "sent_at", "attempts", "last_error"
                )
            ),
        }
        created = list(OutboxMessage.objects.values_list("created_at", flat=True))
        assert created
        assert all(started <= at <= dt.datetime.now(dt.UTC) for at in created)  # auto_now_add
        transaction.set_rollback(True)
    return rows


def test_copy_writes_the_rows_bulk_create_writes(monkeypatch):
    assert connection.vendor == "postgresql"
    copied = written(portable=False, monkeypatch=monkeypatch)
    portable = written(portable=True, monkeypatch=monkeypatch)
    assert copied == portable
    assert copied["players"][0][:3] == (880_000, "Lefèvre-0", "Élise")
    assert copied["players"][0][-1]  # the generated column, computed by the database
    assert copied["messages"][0][1:3] == ([1, "deux", None], {"clé": [3.5]})
    assert copied["messages"][1][-1] == "a\ttab\nand line"


def test_copy_does_not_set_the_keys_bulk_create_does(monkeypatch):
    objs = players()
    insert_rows(Player, objs)
    assert all(obj.pk is None for obj in objs)  # documented: read them back by a natural key


def values_written(*, portable: bool, monkeypatch) -> list[tuple]:
    """The rows ``insert_values`` writes by one path (plain values, JSON given as values
    and as text, defaults left out; keys reserved where the database can), read back."""
    started = dt.datetime.now(dt.UTC)
    with transaction.atomic():
        with monkeypatch.context() as patch:
            if portable:
                patch.setattr(connection, "vendor", "sqlite")  # bulk_create's path
            keys = reserve_keys(OutboxMessage, 2)
            rows = [
                {"task": "a.task", "args": [1, "deux", None], "kwargs": {"clé": [3.5]}},
                {"task": "b.task", "args": JsonText('[{"é":1}]'), "kwargs": {}, "countdown": 2.5},
            ]
            if keys is not None:
                assert not portable
                assert len(set(keys)) == 2
                for row, key in zip(rows, keys, strict=True):
                    row["id"] = key
            stored = insert_values(OutboxMessage, rows)
            if portable:
                assert keys is None
                assert stored is not None
                keys = [obj.pk for obj in stored]
            assert insert_values(OutboxMessage, []) in ([], None)
        found = list(
            OutboxMessage.objects.filter(pk__in=keys)
            .order_by("task")
            .values_list("task", "args", "kwargs", "countdown", "sent_at", "attempts", "last_error")
        )
        created = list(OutboxMessage.objects.values_list("created_at", flat=True))
        assert len(created) == 2
        assert all(started <= at <= dt.datetime.now(dt.UTC) for at in created)  # auto_now_add
        transaction.set_rollback(True)
    return found


def test_insert_values_writes_the_rows_bulk_create_writes(monkeypatch):
    assert connection.vendor == "postgresql"
    copied = values_written(portable=False, monkeypatch=monkeypatch)
    assert copied == values_written(portable=True, monkeypatch=monkeypatch)
    assert copied == [
        ("a.task", [1, "deux", None], {"clé": [3.5]}, None, None, 0, ""),
        ("b.task", [{"é": 1}], {}, 2.5, None, 0, ""),
    ]
