"""The staff CSV export of a ranking, streamed row by row (150,000 rows never sit in
memory): federation staff export every committee, zone staff the committees of
their zones, committee staff (CCR) their committees."""

from __future__ import annotations

import csv
from collections.abc import Iterator

from django.http import StreamingHttpResponse
from django.utils.translation import gettext as _

from core.spreadsheet import safe_row
from federation.access import Scope
from federation.models import Committee
from rankings.models import RankingSnapshot
from rankings.selectors import export_entries, snapshot_kind

HEADER = [
    "place", "licence_number", "last_name", "first_name", "committee", "club", "club_name",
    "season_pcn", "season_pp", "carried_pcn", "carried_pp", "total_pcn", "total_pp",
    "tournaments", "place_in_committee", "place_in_club", "step", "series", "step_source",
]  # fmt: skip


class ExportScopeError(Exception):
    """The user may not export this (part of the) ranking; the message is in the
    request's language."""


def export_committees(scope: Scope, committee_number: str | None) -> set[int] | None:
    """Committee ids the user may export (``None``: all), narrowed to one if asked."""
    if not scope.is_staff:
        raise ExportScopeError(
            _("Only federation, zone or committee staff may export the ranking.")
        )
    allowed = None
    if not scope.national:
        allowed = set(
            Committee.objects.filter(pk__in=scope.committee_ids).values_list("pk", flat=True)
        ) | set(Committee.objects.filter(zone_id__in=scope.zone_ids).values_list("pk", flat=True))
    if committee_number is None or committee_number == "":
        return allowed
    try:
        committee = Committee.objects.filter(number=int(committee_number)).first()
    except ValueError:
        committee = None
    if committee is None:
        raise ExportScopeError(_("Unknown committee %(number)s.") % {"number": committee_number})
    if allowed is not None and committee.pk not in allowed:
        raise ExportScopeError(_("You may export only the ranking of your committees."))
    return {committee.pk}


class _Echo:
    def write(self, value: str) -> str:
        return value


def csv_lines(snapshot: RankingSnapshot, committees: set[int] | None) -> Iterator[str]:
    """The export's lines; every cell through ``safe_row`` (no formula a spreadsheet
    would run, core/spreadsheet.py)."""
    writer = csv.writer(_Echo(), delimiter=";")
    yield "\ufeff" + writer.writerow(HEADER)  # BOM: spreadsheets then read UTF-8
    for row in export_entries(snapshot, committees).iterator(chunk_size=5000):
        yield writer.writerow(safe_row(row))


def ranking_csv_response(
    snapshot: RankingSnapshot, committees: set[int] | None
) -> StreamingHttpResponse:
    kind = snapshot_kind(snapshot)
    name = f"classement-{snapshot.season.name}-{kind}.csv"
    response = StreamingHttpResponse(
        csv_lines(snapshot, committees), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
