"""Backups and their restore (core/management/backups.py, manage.py backup_database and
restore_database, docs/backups.md): the restore drill on the demo federation, the
retention, the refusals."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from core.management.backups import BackupError, expired, restore
from tests.core.conftest import DemoArchive, admin_connection, drop_database, run_django


def fingerprint(demo: DemoArchive) -> dict[str, tuple[int, str]]:
    """Every table of the database: its row count and the md5 of its rows in order (each
    row as PostgreSQL writes it as text); and every sequence's position."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(demo.url.replace("postgres://", "postgresql://")) as conn:
        tables = [row[0] for row in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
        )]  # fmt: skip
        prints = {}
        for table in tables:
            query = sql.SQL(
                "SELECT count(*), coalesce(md5(string_agg(t::text, E'\\n' ORDER BY t::text)), '')"
                " FROM {} AS t"
            ).format(sql.Identifier(table))
            count, digest = conn.execute(query).fetchone()
            prints[table] = (count, digest)
        for name, last in conn.execute(
            "SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = 'public'"
        ):
            prints[f"sequence {name}"] = (last or 0, "")
    return prints


def test_restore_drill(demo_archive):
    """The demo backed up, its database dropped, the backup restored: every table's rows and
    every sequence as they were, and the live ranking in Redis agrees with the database."""
    before = fingerprint(demo_archive)
    assert len(before) > 60
    assert sum(count for count, _ in before.values()) > 50_000
    drop_database(demo_archive)
    run = run_django(
        f"call_command('restore_database', {str(demo_archive.archive)!r}, yes=True)\n"
        "call_command('verify_live_ranking')\n",
        database_url=demo_archive.url, store_url=demo_archive.redis_url,
    )  # fmt: skip
    assert "(created)" in run.stdout
    assert " 0 differences." in run.stdout
    after = fingerprint(demo_archive)
    assert after == before


def test_a_failed_restore_changes_nothing(demo_archive, tmp_path):
    """An archive cut short: pg_restore fails part-way, in its one transaction, so the
    database is still whole."""
    before = fingerprint(demo_archive)
    data = demo_archive.archive.read_bytes()
    cut = tmp_path / "cut.dump"
    cut.write_bytes(data[: len(data) * 2 // 3])
    with pytest.raises(BackupError, match="nothing was changed"):
        restore(cut, where=demo_archive.target())
    assert fingerprint(demo_archive) == before


def test_a_newer_archive_is_refused_before_anything(demo_archive, tmp_path):
    """pg_restore reads no archive of a newer pg_dump: refused, naming both versions,
    before the database is touched (here: not even created)."""
    from core.management.backups import archive_version, binary

    with admin_connection(demo_archive) as conn:
        major = int(conn.execute("SHOW server_version_num").fetchone()[0]) // 10000
    dumped_by = archive_version(binary("pg_restore", major), demo_archive.archive)
    assert dumped_by.startswith(f"{major}.")
    newer = tmp_path / "newer.dump"  # the version strings of its header (server, pg_dump)
    newer.write_bytes(demo_archive.archive.read_bytes().replace(
        f"{dumped_by} (".encode(), f"{major + 1}{dumped_by[len(str(major)):]} (".encode()
    ))  # fmt: skip
    where = demo_archive.target(name=f"{demo_archive.database}_never")
    with pytest.raises(BackupError, match=f"newer than the server \\({major}\\)"):
        restore(newer, where=where)
    with admin_connection(demo_archive) as conn:
        assert not conn.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [where.name]
        ).fetchone()


def test_no_archive_no_restore(demo_archive, tmp_path):
    with pytest.raises(BackupError, match="No file"):
        restore(tmp_path / "missing.dump", where=demo_archive.target())
    garbage = tmp_path / "garbage.dump"
    garbage.write_bytes(b"not an archive")
    with pytest.raises(BackupError, match="not a readable archive"):
        restore(garbage, where=demo_archive.target())


def _at(day: str, hour: int = 2) -> dt.datetime:
    return dt.datetime.fromisoformat(day).replace(hour=hour, tzinfo=dt.UTC)


def test_retention_keeps_the_days_and_the_first_of_each_month():
    now = _at("2026-11-28", 3)
    daily = [_at("2026-07-01") + dt.timedelta(days=n) for n in range(151)]  # to 2026-11-28
    gone = expired(daily, now=now, keep_days=7, keep_months=3)
    kept = sorted(set(daily) - gone)
    assert kept == [
        _at("2026-09-01"), _at("2026-10-01"), _at("2026-11-01"),
        *(_at(f"2026-11-{d}") for d in range(22, 29)),
    ]  # fmt: skip


def test_retention_never_deletes_the_newest():
    old = [_at("2025-01-05"), _at("2025-01-06")]
    assert expired(old, now=_at("2026-11-28"), keep_days=7, keep_months=1) == {old[0]}
    assert expired([], now=_at("2026-11-28"), keep_days=0, keep_months=0) == set()


def test_backup_then_retention(demo_archive, tmp_path, settings):
    """backup_database writes a whole archive under its final name and deletes what the
    retention lets go (only this database's backups)."""
    from core.management.backups import take

    settings.BACKUP_KEEP_DAYS, settings.BACKUP_KEEP_MONTHS = 2, 1
    name = demo_archive.database
    for stamp in ("20260101T020000Z", "20261126T020000Z", "20261127T020000Z"):
        (tmp_path / f"{name}-{stamp}.dump").write_bytes(b"old")
    (tmp_path / "other-20260101T020000Z.dump").write_bytes(b"another database's")
    (tmp_path / f"{name}-x-20260101T020000Z.dump").write_bytes(b"another database's")
    taken = take(now=_at("2026-11-28", 3), directory=tmp_path, where=demo_archive.target())
    assert taken.backup.path.read_bytes()[:5] == b"PGDMP"
    assert {p.name for p in tmp_path.iterdir()} == {
        # the first of November (the one month kept), the last two days
        f"{name}-20261126T020000Z.dump", f"{name}-20261127T020000Z.dump",
        f"{name}-20261128T030000Z.dump",
        "other-20260101T020000Z.dump", f"{name}-x-20260101T020000Z.dump",
    }  # fmt: skip
    assert not list(Path(tmp_path).glob("*.partial"))
