"""Model instances from the rows of a hand-written statement, as the ORM would give them.

A request served fifty times at once (a table's phone entering a deal) spends more in
building its ORM queries than PostgreSQL spends answering them. Its few reads are written
once as SQL; :func:`instance` turns a row into a model instance exactly as a queryset
would: each value through the database's and the field's converters (a JSON column read as
text is decoded, SQLite's dates parsed), the fields not read deferred (loaded on first
access, as ``.only()`` leaves them).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, TypeVar

from django.db import connection
from django.db.models import Model

M = TypeVar("M", bound=Model)


def instance(model: type[M], names: Sequence[str], values: Sequence[Any]) -> M:
    """The instance of ``model`` whose fields ``names`` (attribute names, e.g.
    ``season_id``) hold ``values`` as the database returned them; the others deferred."""
    given = dict(zip(names, values, strict=True))
    attnames, reads = _reads(model, tuple(names))
    converted = []
    for attname, column, converters in reads:
        value = given[attname]
        for convert in converters:
            value = convert(value, column, connection)
        converted.append(value)
    return model.from_db(connection.alias, attnames, converted)


@lru_cache(maxsize=64)
def _reads(model: type[Model], names: tuple[str, ...]) -> tuple[list[str], list[tuple]]:
    """The fields ``names`` in the model's order (``from_db`` reads them so), each with its
    column and the converters a queryset would apply (the database's, then the field's)."""
    fields = [field for field in model._meta.concrete_fields if field.attname in names]
    reads = []
    for field in fields:
        column = field.get_col(model._meta.db_table)
        converters = [
            *connection.ops.get_db_converters(column),
            *field.get_db_converters(connection),
        ]
        reads.append((field.attname, column, converters))
    return [field.attname for field in fields], reads


def columns(model: type[Model], names: Sequence[str], alias: str = "") -> str:
    """The quoted columns of ``model``'s fields ``names`` (attribute names), for a
    hand-written statement."""
    quote = connection.ops.quote_name
    prefix = f"{alias}." if alias else ""
    by_name = {field.attname: str(field.column) for field in model._meta.concrete_fields}
    return ", ".join(f"{prefix}{quote(by_name[name])}" for name in names)
