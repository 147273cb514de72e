"""The player records' row locks: where a merge of two records and the writes that name
a record (a homologation's allocations) meet, so that nothing is written on a record
while it is being retired.

- :func:`players_lock`: the rows of the given players, locked until the transaction
  ends, **in id order** in one statement (two writers locking overlapping sets wait for
  each other, never deadlock). ``exclusive`` (a merge, ``portal/merging.py``):
  ``FOR UPDATE``; otherwise (a homologation) ``FOR SHARE``: homologations naming the
  same players do not wait for each other, only for a merge, and a merge waits for them.
- :func:`players_current`: the record that holds each player's rows now, under the
  share lock: the player itself, or the record it was merged into. A writer that read
  the player ids before a merge committed (its results document, say) writes on the
  kept record, not on the retired one.

On PostgreSQL the locks are row locks; on another database (SQLite, the embedded
default, one writer at a time) the rows are only read.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection, transaction

from federation.models import Player


def players_lock(player_ids: Iterable[int], *, exclusive: bool = False) -> dict[int, Player]:
    """Lock the rows of ``player_ids`` in id order until the transaction ends (inside
    ``transaction.atomic``); return them by id (unknown ids are left out)."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("players_lock must be taken inside transaction.atomic")
    rows = Player.objects.filter(pk__in=sorted(set(player_ids))).order_by("pk")
    if exclusive:
        return {p.pk: p for p in rows.select_for_update(of=("self",))}
    if connection.vendor != "postgresql":
        return {p.pk: p for p in rows}
    sql, params = rows.query.sql_with_params()
    return {p.pk: p for p in Player.objects.raw(f"{sql} FOR SHARE", params)}


def players_current(player_ids: Iterable[int]) -> dict[int, int]:
    """Each player id's record now (itself, or the record it was merged into), its row
    and that record's share-locked until the transaction ends: no merge of them can
    commit in between. Merges never leave a chain, so one more step is enough unless a
    kept record was itself merged since (then it is followed too)."""
    current = {pk: pk for pk in set(player_ids)}
    locked: dict[int, Player] = {}
    asked: set[int] = set()
    wanted = set(current)
    while wanted:
        locked |= players_lock(wanted)
        asked |= wanted
        for pk, record in current.items():
            player = locked.get(record)
            if player is not None and player.merged_into_id is not None:
                current[pk] = player.merged_into_id
        wanted = set(current.values()) - asked
    return current
