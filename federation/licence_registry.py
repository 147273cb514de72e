"""Importing a season's licensees into the registry from a CSV file.

:func:`import_licences` reads the file (:mod:`federation.rules.licence_file`), checks
that every club exists (and, for the API, that the importer's scope covers it),
then writes in ONE transaction with bulk operations:

- a player is found by their permanent licence number: created if new, updated in
  place if their name, birth date (or e-mail / phone, when the file has those
  columns) changed, left alone otherwise — never duplicated;
- their licence for the season is created, or moved in place to the club of the
  file (and its ``issued_on`` updated, when the file has that column);
- players and licences of the season that are absent from the file are left
  untouched (a committee imports its own clubs only); the result counts them;
- every accepted import is recorded as a :class:`LicenceImport` (who, when, file,
  SHA-256, counts), also when nothing changed: re-importing the same file writes
  no Player or Licence row, only that audit record;
- history: created and changed players and licences get their
  ``simple_history`` rows, attributed to the importer with the change reason
  ``licence import #<id>``.

How: on PostgreSQL, set-based — new players and licences staged by ``COPY`` from plain
tuples and inserted with their history rows by one ``INSERT … SELECT`` each (the
licences' player keys joined in the database), changed rows by ``UPDATE … FROM
unnest(…)``; elsewhere (the embedded SQLite) ``bulk_*_with_history``. Both write the
same rows (``tests/federation/test_licence_import_paths.py``). The registry's rows are
read as plain tuples: a model instance is made only for a row that changes.

A file with any problem is refused whole (:class:`LicenceFileRefused`, a
``RuleViolation`` listing every problem): nothing is written.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import IntegrityError, connection, transaction
from django.db.models import Model
from django.utils import timezone
from simple_history.utils import bulk_create_with_history, bulk_update_with_history

from core.bulk_rows import column, copied_fields
from core.problems import RuleViolation
from federation.access import Scope
from federation.models import Club, Licence, LicenceImport, Player, Season, User
from federation.rules.licence_file import (
    LicenceFile,
    LicenceFileRefused,
    LicenceLine,
    LineProblem,
    read_licence_file,
)

WRITE_BATCH = 2000
UPDATE_BATCH = 10_000
PLAYER_FIELDS = ("last_name", "first_name", "birth_date")
OPTIONAL_PLAYER_FIELDS = ("email", "phone")
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class ImportResult:
    """What an accepted import did."""

    import_id: int
    season: str
    file_name: str
    sha256: str
    encoding: str
    delimiter: str
    rows: int
    players_created: int
    players_updated: int
    players_unchanged: int
    licences_created: int
    licences_updated: int
    licences_unchanged: int
    licences_not_in_file: int
    notices: tuple[str, ...] = ()

    @property
    def changed(self) -> bool:
        return bool(
            self.players_created
            or self.players_updated
            or self.licences_created
            or self.licences_updated
        )


class ClubsOutsideScope(Exception):
    """The file has licences in clubs the importer's roles do not cover."""

    def __init__(self, clubs: Sequence[Club]) -> None:
        self.clubs = tuple(clubs)
        names = ", ".join(f"{club.number} ({club.name})" for club in self.clubs)
        super().__init__(
            f"You may import licences only for the clubs your roles cover; this file has "
            f"licences in clubs outside your scope: {names}. Nothing was imported."
        )


class PlayersOutsideScope(Exception):
    """The file moves players whose current club the importer's roles do not cover.

    ``problems`` locate every such line (``lines[N].licence_number``); the messages name
    only what the federation publishes (licence number, club, committee), never a
    player's private data.
    """

    def __init__(self, problems: Sequence[LineProblem]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(problem.describe() for problem in self.problems))


def import_licences(
    *,
    season: Season,
    content: bytes,
    file_name: str,
    by: User | None,
    scope: Scope | None = None,
    today: dt.date | None = None,
) -> ImportResult:
    """Import the licensees of ``season`` from the CSV ``content``.

    ``scope`` (the API passes the importer's) restricts the clubs the file may
    name and, unless it is national, the players it may touch: a player whose current
    club (their licence of ``season``, else their latest licence) is outside the scope
    belongs to another committee, and only federation staff move a player between
    committees. ``None`` means no restriction (the management command). ``today``
    bounds plausible dates (default: today). Raises :class:`ClubsOutsideScope`,
    :class:`PlayersOutsideScope` (every such line), or :class:`LicenceFileRefused` with
    every problem; then nothing is written.
    """
    licence_file = read_licence_file(content, today=today or timezone.localdate())
    clubs = _clubs_by_number(licence_file.club_numbers)
    if scope is not None:
        outside = [club for club in clubs.values() if not scope.covers_club(club)]
        if outside:
            raise ClubsOutsideScope(sorted(outside, key=lambda club: club.number))
        if not scope.national:
            moves = _moves_outside_scope(licence_file, season, scope)
            if moves:
                raise PlayersOutsideScope(moves)
    problems = [*licence_file.problems, *unknown_club_problems(licence_file, clubs)]
    if problems:
        raise LicenceFileRefused(problems)
    try:
        return _write(
            season=season,
            licence_file=licence_file,
            clubs=clubs,
            file_name=file_name,
            sha256=hashlib.sha256(content).hexdigest(),
            by=by,
        )
    except IntegrityError as exc:
        raise RuleViolation.single(
            "file",
            "concurrent_change",
            "The registry changed while this file was being imported (another import?); "
            "nothing was imported. Try again.",
            {},
        ) from exc


def _moves_outside_scope(
    licence_file: LicenceFile, season: Season, scope: Scope
) -> list[LineProblem]:
    """Lines on players whose current club ``scope`` does not cover (a move between
    committees, or zones): located, naming only public facts."""
    current: dict[int, Club] = {}
    numbers = [line.licence_number for line in licence_file.lines]
    for chunk in _chunks(numbers):
        licences = (
            Licence.objects.filter(player__licence_number__in=chunk)
            .select_related("player", "club__committee")
            .order_by("player_id", "-season__start_date")
        )
        for licence in licences:
            number = licence.player.licence_number
            if licence.season_id == season.pk or number not in current:
                current[number] = licence.club
    problems = []
    for line in licence_file.lines:
        club = current.get(line.licence_number)
        if club is not None and not scope.covers_club(club):
            problems.append(
                LineProblem(
                    line.line,
                    "licence_number",
                    "player_outside_scope",
                    f"Licence {line.licence_number} is held in club {club.number} "
                    f"({club.name}) of committee {club.committee.number}, outside your "
                    "scope: only federation staff move a player between committees.",
                    {
                        "licence": line.licence_number,
                        "club": club.number,
                        "committee": club.committee.number,
                    },
                )
            )
    return problems


def unknown_club_problems(licence_file: LicenceFile, clubs: dict[int, Club]) -> list[LineProblem]:
    return [
        LineProblem(
            line,
            "club_number",
            "unknown_club",
            f"No club has the FFT club number {number}.",
            {"club": number},
        )
        for line, number in licence_file.club_references
        if number not in clubs
    ]


@transaction.atomic
def _write(
    *,
    season: Season,
    licence_file: LicenceFile,
    clubs: dict[int, Club],
    file_name: str,
    sha256: str,
    by: User | None,
) -> ImportResult:
    # Imports of one season run one after the other (PostgreSQL row lock).
    list(Season.objects.select_for_update().filter(pk=season.pk).values_list("pk"))
    lines = licence_file.lines
    columns = set(licence_file.columns)

    # The registry's rows as plain tuples: a model instance only for a row that changes.
    player_fields = [*PLAYER_FIELDS, *(f for f in OPTIONAL_PLAYER_FIELDS if f in columns)]
    player_columns = _attnames(Player)
    compared = [player_columns.index(name) for name in player_fields]
    existing = _players_by_licence_number(line.licence_number for line in lines)
    new_players: list[LicenceLine] = []
    changed_players: list[Player] = []
    for line in lines:
        row = existing.get(line.licence_number)
        if row is None:
            new_players.append(line)
            continue
        values = [getattr(line, name) for name in player_fields]
        if any(row[index] != value for index, value in zip(compared, values, strict=True)):
            player = Player.from_db(connection.alias, player_columns, row)
            for name, value in zip(player_fields, values, strict=True):
                setattr(player, name, value)
            changed_players.append(player)

    licence_fields = ["club", *(["issued_on"] if "issued_on" in columns else [])]
    licence_columns = _attnames(Licence)
    player_of, club_of, issued_on_of = (
        licence_columns.index(name) for name in ("player_id", "club_id", "issued_on")
    )
    season_licences = {
        row[player_of]: row
        for row in Licence.objects.filter(season=season).values_list(*licence_columns)
    }
    new_licences: list[tuple[LicenceLine, Club]] = []
    changed_licences: list[Licence] = []
    kept = 0
    for line in lines:
        club = clubs[line.club_number]
        player_row = existing.get(line.licence_number)
        row = season_licences.get(player_row[0]) if player_row is not None else None
        if row is None:
            new_licences.append((line, club))
            continue
        kept += 1
        if row[club_of] != club.pk or (
            "issued_on" in columns and row[issued_on_of] != line.issued_on
        ):
            licence = Licence.from_db(connection.alias, licence_columns, row)
            licence.club = club
            if "issued_on" in columns:
                licence.issued_on = line.issued_on
            changed_licences.append(licence)

    record = LicenceImport.objects.create(
        season=season,
        imported_by=by,
        file_name=file_name[:255],
        sha256=sha256,
        rows=len(lines),
        players_created=len(new_players),
        players_updated=len(changed_players),
        licences_created=len(new_licences),
        licences_updated=len(changed_licences),
    )
    history = {
        "default_user": by,
        "default_change_reason": f"licence import #{record.pk}",
        "default_date": timezone.now(),
        "batch_size": WRITE_BATCH,
    }
    if connection.vendor == "postgresql":
        _create_at_floor(season, player_fields, new_players, new_licences, **history)
    else:
        player_ids = {number: row[0] for number, row in existing.items()}
        _create_portably(season, player_fields, new_players, new_licences, player_ids, **history)
    if changed_players:
        _update_in_bulk(changed_players, Player, player_fields, **history)
    if changed_licences:
        _update_in_bulk(changed_licences, Licence, licence_fields, **history)

    return ImportResult(
        import_id=record.pk,
        season=season.name,
        file_name=record.file_name,
        sha256=sha256,
        encoding=licence_file.encoding,
        delimiter=licence_file.delimiter,
        rows=len(lines),
        players_created=len(new_players),
        players_updated=len(changed_players),
        players_unchanged=len(lines) - len(new_players) - len(changed_players),
        licences_created=len(new_licences),
        licences_updated=len(changed_licences),
        licences_unchanged=kept - len(changed_licences),
        licences_not_in_file=len(season_licences) - kept,
        notices=licence_file.notices,
    )


def _create_portably(
    season: Season,
    player_fields: Sequence[str],
    new_players: Sequence[LicenceLine],
    new_licences: Sequence[tuple[LicenceLine, Club]],
    player_ids: dict[int, int],
    **history: Any,
) -> None:
    """The new players and licences by ``bulk_create_with_history`` (any database);
    ``player_ids`` are the keys of the registry's players by licence number."""
    if new_players:
        created = bulk_create_with_history(
            [
                Player(
                    licence_number=line.licence_number,
                    **{name: getattr(line, name) for name in player_fields},
                )
                for line in new_players
            ],
            Player,
            **history,
        )
        player_ids.update({player.licence_number: player.pk for player in created})
    if new_licences:
        bulk_create_with_history(
            [
                Licence(
                    player_id=player_ids[line.licence_number],
                    season_id=season.pk,
                    club_id=club.pk,
                    issued_on=line.issued_on,
                )
                for line, club in new_licences
            ],
            Licence,
            **history,
        )


def _create_at_floor(
    season: Season,
    player_fields: Sequence[str],
    new_players: Sequence[LicenceLine],
    new_licences: Sequence[tuple[LicenceLine, Club]],
    **history: Any,
) -> None:
    """The rows :func:`_create_portably` writes, set-based on PostgreSQL: no model
    instance, no key read back into Python.

    The new players' values are copied from plain tuples (``COPY``) into a temporary
    table, then one ``INSERT … SELECT`` writes the players and, from its ``RETURNING``,
    their history rows; the new licences likewise, the database joining each line's
    licence number to its player's key. Every column the file does not give is written
    with the model's default, prepared as Django prepares it for an ``INSERT``.
    """
    quote = connection.ops.quote_name
    if new_players:
        given = ["licence_number", *player_fields]
        _insert_select_with_history(
            Player,
            staged=[(name, _sql_type(Player, name)) for name in given],
            rows=(tuple(getattr(line, name) for name in given) for line in new_players),
            expressions={name: f"staged.{quote(name)}" for name in given},
            joins="",
            **history,
        )
    if new_licences:
        _insert_select_with_history(
            Licence,
            staged=[
                ("licence_number", "integer"),
                ("club_id", "bigint"),
                ("issued_on", "date"),
            ],
            rows=((line.licence_number, club.pk, line.issued_on) for line, club in new_licences),
            expressions={
                "player_id": f"player.{quote(column(Player._meta.pk))}",
                "season_id": str(int(season.pk)),
                "club_id": "staged.club_id",
                "issued_on": "staged.issued_on",
            },
            joins=f"JOIN {quote(Player._meta.db_table)} AS player USING (licence_number)",
            **history,
        )


STAGED_TABLE = "licence_import_staged"


def _sql_type(model: type[Model], attname: str) -> str:
    """The SQL type of the column of ``model`` with this attribute name."""
    field = next(field for field in model._meta.concrete_fields if field.attname == attname)
    sql_type = field.db_type(connection)
    assert sql_type is not None
    return sql_type


def _insert_select_with_history(
    model: type[Model],
    *,
    staged: Sequence[tuple[str, str]],
    rows: Iterable[Sequence[Any]],
    expressions: dict[str, str],
    joins: str,
    default_user: User | None,
    default_change_reason: str,
    default_date: dt.datetime,
    batch_size: int,
) -> None:
    """Stage ``rows`` (columns ``staged``: name, SQL type) by ``COPY`` into a temporary
    table, then insert one ``model`` row per staged row — ``expressions`` give the SQL of
    some of its columns (by attribute name), every other column its default — and, in the
    same statement, their history rows as ``bulk_create_with_history`` writes them (the
    tracked fields, then date, user, reason, type ``+``)."""
    quote = connection.ops.quote_name
    prototype = model()
    values: list[str] = []
    params: list[Any] = []
    fields = copied_fields(model)
    for field in fields:
        if field.attname in expressions:
            values.append(expressions[field.attname])
        else:  # the default, as an INSERT of a new instance would write it
            values.append("%s")
            params.append(field.get_db_prep_save(field.pre_save(prototype, True), connection))
    unknown = set(expressions) - {field.attname for field in fields}
    assert not unknown, f"not columns of {model.__name__}: {unknown}"
    historical = model.history.model  # type: ignore[attr-defined]
    tracked = [field.attname for field in historical.tracked_fields]
    meta = model._meta
    column_of = {field.attname: column(field) for field in meta.concrete_fields}
    returned = ", ".join(quote(column_of[name]) for name in tracked)
    history_columns = [
        *(historical._meta.get_field(name).column for name in tracked),
        "history_date",
        "history_user_id",
        "history_change_reason",
        "history_type",
    ]
    user_id = default_user.pk if default_user is not None else None
    sql = (
        f"WITH created AS (INSERT INTO {quote(meta.db_table)} "
        f"({', '.join(quote(column(field)) for field in fields)}) "
        f"SELECT {', '.join(values)} FROM {STAGED_TABLE} AS staged {joins} "
        f"RETURNING {returned}) "
        f"INSERT INTO {quote(historical._meta.db_table)} "
        f"({', '.join(quote(column) for column in history_columns)}) "
        f"SELECT {returned}, "
        "%s, %s, %s, '+' FROM created"
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TEMPORARY TABLE {STAGED_TABLE} "
            f"({', '.join(f'{quote(name)} {sql_type}' for name, sql_type in staged)}) "
            "ON COMMIT DROP"
        )
        staged_rows = 0
        with cursor.cursor.copy(f"COPY {STAGED_TABLE} FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
                staged_rows += 1
        cursor.execute(sql, [*params, default_date, user_id, default_change_reason])
        if cursor.rowcount != staged_rows:  # a player deleted meanwhile: refused whole
            raise IntegrityError(
                f"{model.__name__}: {staged_rows} rows staged, {cursor.rowcount} inserted"
            )
        cursor.execute(f"DROP TABLE {STAGED_TABLE}")


def _history_in_bulk(
    model: type[Model],
    objs: Sequence[Model],
    history_type: str,
    *,
    default_user: User | None,
    default_change_reason: str,
    default_date: dt.datetime,
    batch_size: int,
) -> None:
    """The history rows ``simple_history``'s ``bulk_history_create`` writes (the tracked
    fields, then date, user, reason, type), by ``COPY`` from plain tuples: no model
    instance per row."""
    historical = model.history.model  # type: ignore[attr-defined]
    tracked = [field.attname for field in historical.tracked_fields]
    quote = connection.ops.quote_name
    columns = [
        *(historical._meta.get_field(name).column for name in tracked),
        "history_date",
        "history_user_id",
        "history_change_reason",
        "history_type",
    ]
    user_id = default_user.pk if default_user is not None else None
    tail = (default_date, user_id, default_change_reason, history_type)
    sql = (
        f"COPY {quote(historical._meta.db_table)} "
        f"({', '.join(quote(column) for column in columns)}) FROM STDIN"
    )
    with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
        for obj in objs:
            copy.write_row((*(getattr(obj, name) for name in tracked), *tail))


def _update_in_bulk(
    objs: Sequence[Model], model: type[Model], fields: Sequence[str], **history: Any
) -> None:
    """``bulk_update_with_history``, with a fast path on PostgreSQL.

    Django's ``bulk_update`` builds one ``CASE WHEN`` per row and field: about 30 s
    for 50,000 players. On PostgreSQL one ``UPDATE … FROM unnest(arrays)`` per
    batch does the same in well under a second; the history rows are then written
    in bulk as ``bulk_update_with_history`` would.
    """
    if connection.vendor != "postgresql":
        bulk_update_with_history(objs, model, fields, **history)
        return
    meta = model._meta
    # Concrete fields: the stubs' get_field also returns relations without a column.
    columns: list[Any] = [meta.pk, *(meta.get_field(name) for name in fields)]
    quote = connection.ops.quote_name
    assignments = ", ".join(f"{quote(column(c))} = batch.{quote(column(c))}" for c in columns[1:])
    arrays = ", ".join(f"%s::{c.db_type(connection)}[]" for c in columns)
    names = ", ".join(quote(column(c)) for c in columns)
    sql = (
        f"UPDATE {quote(meta.db_table)} AS target SET {assignments} "
        f"FROM unnest({arrays}) AS batch({names}) "
        f"WHERE target.{quote(column(meta.pk))} = batch.{quote(column(meta.pk))}"
    )
    with connection.cursor() as cursor:
        for chunk in _chunks(objs, UPDATE_BATCH):
            cursor.execute(
                sql,
                [
                    [c.get_db_prep_save(getattr(obj, c.attname), connection) for obj in chunk]
                    for c in columns
                ],
            )
    _history_in_bulk(model, objs, "~", **history)


def _clubs_by_number(numbers: Iterable[int]) -> dict[int, Club]:
    clubs: dict[int, Club] = {}
    for chunk in _chunks(sorted(numbers)):
        clubs.update(
            (club.number, club)
            for club in Club.objects.filter(number__in=chunk).select_related("committee")
        )
    return clubs


def _attnames(model: type[Model]) -> list[str]:
    """The attribute names of ``model``'s columns, in the order ``from_db`` takes them."""
    return [field.attname for field in model._meta.concrete_fields]


def _players_by_licence_number(numbers: Iterable[int]) -> dict[int, tuple[Any, ...]]:
    """The rows of the players of these licence numbers (every column, in
    :func:`_attnames` order, the key first): on PostgreSQL in one query on an array
    parameter (``IN`` with 10,000 parameters per chunk costs seconds to build and send
    for 50,000 numbers), elsewhere in chunks of the database's parameter limit."""
    attnames = _attnames(Player)
    assert attnames[0] == "id"
    number = attnames.index("licence_number")
    if connection.vendor == "postgresql":
        quote = connection.ops.quote_name
        columns = ", ".join(quote(column(field)) for field in Player._meta.concrete_fields)
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {columns} FROM {quote(Player._meta.db_table)} "
                "WHERE licence_number = ANY(%s)",
                [list(numbers)],
            )
            return {row[number]: row for row in cursor.fetchall()}
    players: dict[int, tuple[Any, ...]] = {}
    for chunk in _chunks(list(numbers)):
        players.update(
            (row[number], row)
            for row in Player.objects.filter(licence_number__in=chunk).values_list(*attnames)
        )
    return players


def _chunks(items: Sequence[T], size: int | None = None) -> Iterator[Sequence[T]]:
    """Slices small enough for the database's limit on query parameters."""
    size = size or min(connection.features.max_query_params or 10_000, 10_000) - 10
    for start in range(0, len(items), size):
        yield items[start : start + size]
