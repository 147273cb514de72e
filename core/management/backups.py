"""Logical backups of the database and their restore (``manage.py backup_database``,
``manage.py restore_database``; docs/backups.md).

A backup is one ``pg_dump`` archive in custom format (compressed, restored table by table
by ``pg_restore``), written as ``<database>-<UTC time>.dump`` in ``BACKUP_DIR``: first under
a ``.partial`` name, renamed once ``pg_dump`` has succeeded, so a file with the final name
is always a whole archive. ``pg_dump`` reads one snapshot of the database (a single
repeatable-read transaction): the archive is consistent whatever runs meanwhile.

Retention (:func:`expired`): every backup of the last ``BACKUP_KEEP_DAYS`` days, and the
first backup of each of the last ``BACKUP_KEEP_MONTHS`` calendar months; the newest backup
is never deleted.

A restore (:func:`restore`) creates the database if it does not exist, then replays the
archive with ``pg_restore --clean --if-exists --single-transaction --exit-on-error``: the
database is either the archive's, whole, or left as it was. The binaries are those of the
server's major version (``BACKUP_PG_BIN_DIR``, else Debian's
``/usr/lib/postgresql/<major>/bin``, else the ``PATH``), checked first and refused with the
versions named: ``pg_dump`` of that very version (an older one cannot dump the server, a
newer one writes an archive the server cannot replay), ``pg_restore`` of that version or
newer, and an archive of a newer ``pg_dump`` than the server is refused before anything.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings

SUFFIX = ".dump"
_STAMP = "%Y%m%dT%H%M%SZ"
_NAME = re.compile(r"^(?P<db>.+)-(?P<stamp>\d{8}T\d{6}Z)\.dump$")
_VERSION = re.compile(r"(\d+)(?:\.(\d+))?")


class BackupError(Exception):
    """A backup or a restore that cannot run or failed; the message says why."""


@dataclass(frozen=True)
class Target:
    """Where the database is: libpq's connection arguments, taken from ``DATABASES``."""

    name: str
    host: str
    port: str
    user: str
    password: str

    def args(self) -> list[str]:
        return ["--host", self.host, "--port", self.port, "--username", self.user]

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        if self.password:
            env["PGPASSWORD"] = self.password
        return env

    def connect(self, dbname: str | None = None) -> Any:
        import psycopg

        return psycopg.connect(
            host=self.host, port=self.port, user=self.user, password=self.password or None,
            dbname=dbname or self.name, autocommit=True, connect_timeout=10,
        )  # fmt: skip


def target(alias: str = "default") -> Target:
    db = settings.DATABASES[alias]
    if "postgresql" not in db["ENGINE"]:
        raise BackupError("Backups need PostgreSQL (DATABASE_URL); copy the SQLite file.")
    return Target(
        name=str(db["NAME"]),
        host=str(db.get("HOST") or "127.0.0.1"),
        port=str(db.get("PORT") or 5432),
        user=str(db.get("USER") or "postgres"),
        password=str(db.get("PASSWORD") or ""),
    )


@dataclass(frozen=True)
class Backup:
    path: Path
    database: str
    taken_at: dt.datetime


def backup_dir() -> Path:
    return Path(settings.BACKUP_DIR)


def backups(directory: Path | None = None) -> list[Backup]:
    """The whole backups in ``directory`` (``.partial`` files are not), oldest first."""
    found = []
    for path in (directory or backup_dir()).glob(f"*{SUFFIX}"):
        match = _NAME.match(path.name)
        if match:
            taken = dt.datetime.strptime(match["stamp"], _STAMP).replace(tzinfo=dt.UTC)
            found.append(Backup(path, match["db"], taken))
    return sorted(found, key=lambda b: b.taken_at)


def expired(
    taken: Iterable[dt.datetime], *, now: dt.datetime, keep_days: int, keep_months: int
) -> set[dt.datetime]:
    """The backup times retention lets go: not within ``keep_days`` days of ``now``, not
    the first of its calendar month within the last ``keep_months`` months (this month
    counts as one), and not the newest."""
    times = sorted(set(taken))
    if not times:
        return set()
    keep = {times[-1]}
    keep |= {t for t in times if now - t < dt.timedelta(days=keep_days)}
    month_now = now.year * 12 + now.month - 1
    first_of_month: dict[int, dt.datetime] = {}
    for t in times:
        first_of_month.setdefault(t.year * 12 + t.month - 1, t)
    keep |= {t for month, t in first_of_month.items() if month_now - month < keep_months}
    return set(times) - keep


def _major(text: str) -> int:
    match = _VERSION.search(text)
    if match is None:
        raise BackupError(f"No version in « {text.strip()} ».")
    return int(match[1])


def server_major(where: Target) -> int:
    with where.connect("postgres") as conn:
        row = conn.execute("SHOW server_version_num").fetchone()
    return int(row[0]) // 10000


def binary(name: str, major: int, *, exact: bool = False) -> Path:
    """The PostgreSQL program ``name`` for a server of ``major``, checked to be at least
    that version (``pg_restore`` reads the archives of its own version and older ones), or
    that very version (``exact``: ``pg_dump``, whose archive must restore on this server,
    and a newer ``pg_dump`` writes commands an older server refuses)."""
    configured = str(getattr(settings, "BACKUP_PG_BIN_DIR", ""))
    candidates = [Path(configured) / name] if configured else []
    candidates.append(Path(f"/usr/lib/postgresql/{major}/bin/{name}"))
    found = shutil.which(name)
    if found:
        candidates.append(Path(found))
    path = next((c for c in candidates if c.is_file() and os.access(c, os.X_OK)), None)
    if path is None:
        raise BackupError(f"{name} not found: install PostgreSQL {major}'s client or set "
                          "BACKUP_PG_BIN_DIR.")  # fmt: skip
    version = subprocess.run([str(path), "--version"], capture_output=True, text=True,
                             check=True).stdout  # fmt: skip
    found_major = _major(version.split("(PostgreSQL)")[-1])
    if found_major < major or (exact and found_major != major):
        raise BackupError(f"{path} is {version.strip()}, the server is PostgreSQL {major}: set "
                          f"BACKUP_PG_BIN_DIR to PostgreSQL {major}'s binaries.")  # fmt: skip
    return path


@dataclass(frozen=True)
class Taken:
    backup: Backup
    size: int
    seconds: float
    deleted: list[Path]


def take(*, now: dt.datetime | None = None, directory: Path | None = None,
         alias: str = "default", where: Target | None = None) -> Taken:  # fmt: skip
    """Dump the database of ``alias`` (or ``where``) into a new archive, then apply the
    retention to that database's backups."""
    where = where or target(alias)
    directory = directory or backup_dir()
    directory.mkdir(parents=True, exist_ok=True)
    now = now or dt.datetime.now(dt.UTC)
    final = directory / f"{where.name}-{now.strftime(_STAMP)}{SUFFIX}"
    partial = final.with_name(final.name + ".partial")
    pg_dump = binary("pg_dump", server_major(where), exact=True)
    started = time.monotonic()
    run = subprocess.run(
        [str(pg_dump), *where.args(), "--format=custom", "--file", str(partial), where.name],
        env=where.env(), capture_output=True, text=True,
    )  # fmt: skip
    if run.returncode != 0:
        partial.unlink(missing_ok=True)
        raise BackupError(f"pg_dump failed: {run.stderr.strip()}")
    partial.replace(final)
    seconds = time.monotonic() - started
    kept = [b for b in backups(directory) if b.database == where.name]
    gone = expired(
        (b.taken_at for b in kept), now=now,
        keep_days=int(settings.BACKUP_KEEP_DAYS), keep_months=int(settings.BACKUP_KEEP_MONTHS),
    )  # fmt: skip
    deleted = []
    for b in kept:
        if b.taken_at in gone:
            b.path.unlink()
            deleted.append(b.path)
    return Taken(Backup(final, where.name, now), final.stat().st_size, seconds, deleted)


@dataclass(frozen=True)
class Restored:
    database: str
    created: bool
    seconds: float
    dumped_by: str


def archive_version(pg_restore: Path, archive: Path) -> str:
    """The ``pg_dump`` version that wrote ``archive`` (read by ``pg_restore --list``, which
    also refuses a file that is not a whole archive)."""
    listing = subprocess.run([str(pg_restore), "--list", str(archive)], capture_output=True,
                             text=True)  # fmt: skip
    if listing.returncode != 0:
        raise BackupError(f"{archive} is not a readable archive: {listing.stderr.strip()}")
    match = re.search(r"Dumped by pg_dump version: (\S+)", listing.stdout)
    return match[1] if match else "?"


def restore(archive: Path, *, alias: str = "default", where: Target | None = None) -> Restored:
    """Replay ``archive`` into the database of ``alias`` (or ``where``) in one transaction,
    creating the database if it does not exist."""
    if not archive.is_file():
        raise BackupError(f"No file {archive}.")
    where = where or target(alias)
    major = server_major(where)
    pg_restore = binary("pg_restore", major)
    dumped_by = archive_version(pg_restore, archive)
    if dumped_by != "?" and _major(dumped_by) > major:
        newer = _major(dumped_by)
        raise BackupError(f"{archive} was written by pg_dump {dumped_by}, newer than the "
                          f"server ({major}): restore it on PostgreSQL {newer}.")  # fmt: skip
    from psycopg import sql

    with where.connect("postgres") as conn:
        exists = conn.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [where.name]
        ).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(where.name)))
    started = time.monotonic()
    run = subprocess.run(
        [str(pg_restore), *where.args(), "--dbname", where.name, "--clean", "--if-exists",
         "--single-transaction", "--exit-on-error", "--no-owner", str(archive)],
        env=where.env(), capture_output=True, text=True,
    )  # fmt: skip
    if run.returncode != 0:
        raise BackupError(f"pg_restore failed, nothing was changed: {run.stderr.strip()}")
    return Restored(where.name, not exists, time.monotonic() - started, dumped_by)
