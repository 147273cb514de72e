"""A tournament's row written with its history row, for one tournament or many at once.

The declaration, the submission and the homologation write a tournament's row through
these two functions only, whether one tournament is written (the API, the pages) or the
new tournaments of a bulk load: one statement for the rows, one for their history rows
(who acted, when, the row as it now is, and why for a correction), the same rows either
way. The history rows are those ``simple_history`` writes when a row is saved.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.db.models import Case, Value, When
from django.db.models.functions import Cast
from django.utils import timezone

from competitions.models import Tournament
from core.bulk_rows import insert_rows
from federation.access import Actor


def tournaments_insert(tournaments: Sequence[Tournament], *, by: Actor | None) -> None:
    """Insert new tournaments (their keys set: results refer to them), each with its
    history row (``+``: created). A reference declared meanwhile raises the unique
    constraint's ``IntegrityError``, nothing written."""
    if not tournaments:
        return
    Tournament.objects.bulk_create(tournaments)
    _history_insert(tournaments, "+", by, reason=None)


def tournaments_update(
    tournaments: Sequence[Tournament],
    fields: Sequence[str],
    *,
    by: Actor | None,
    reason: str | None = None,
) -> None:
    """Write ``fields`` of tournaments already stored, as the instances hold them, in one
    statement (a value shared by all of them is written once; others row by row), each
    with its history row (``~``: changed) saying who and, for a correction, why."""
    if not tournaments:
        return
    values: dict[str, Any] = {}
    for name in fields:
        field = Tournament._meta.get_field(name)
        attname = field.attname  # type: ignore[union-attr]
        each = [getattr(t, attname) for t in tournaments]
        if all(value == each[0] for value in each):
            values[attname] = each[0]
        else:
            case = Case(
                *(
                    When(pk=t.pk, then=Value(value, output_field=field))  # type: ignore[arg-type]
                    for t, value in zip(tournaments, each, strict=True)
                ),
                output_field=field,  # type: ignore[arg-type]
            )  # as ``bulk_update`` writes it
            cast = connection.features.requires_casted_case_in_updates
            values[attname] = Cast(case, output_field=field) if cast else case  # type: ignore[arg-type]
    Tournament.objects.filter(pk__in=[t.pk for t in tournaments]).update(**values)
    _history_insert(tournaments, "~", by, reason=reason)


def _history_insert(
    tournaments: Sequence[Tournament], kind: str, by: Actor | None, *, reason: str | None
) -> None:
    now = timezone.now()
    insert_rows(
        Tournament.history.model,
        [_history(tournament, kind, by, now, reason) for tournament in tournaments],
    )


def _history(
    tournament: Tournament, kind: str, by: Actor | None, when: dt.datetime, reason: str | None
):
    """The history row simple_history writes when the tournament is saved (``+``: created,
    ``~``: changed), as it is now."""
    model = Tournament.history.model
    return model(
        history_date=when,
        history_type=kind,
        history_user=by if by is not None and by.is_authenticated else None,
        history_change_reason=reason,
        **{f.attname: getattr(tournament, f.attname) for f in model.tracked_fields},
    )
