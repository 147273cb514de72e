"""The exports of a ranking staff and clubs use: who may export what, and the table
they get (French headers and labels, English on request).

Federation staff export every committee, zone staff the committees of their zones,
committee staff (CCR) their committees, club managers their clubs. The table holds
what the public ranking pages show (no private fact); the step's source and the
demotion limit, which only the federation's series computation reads, are left out.
A club manager's export is for the club's members and board, that is the public: players
who asked for anonymity are named there as on the public pages (docs/privacy.md); staff
exports name everyone. The formats (CSV streamed row by row, XLSX, printable PDF) are
``core/export_formats.py``'s; the noticeboard's PDF prints ``PDF_COLUMNS``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q
from django.http import HttpResponseBase
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _

from core.export_formats import export_response
from federation.access import Scope
from federation.models import Club, Committee, Player, Season
from federation.public_names import anonymous_name
from rankings.models import RankingSnapshot
from rankings.selectors import EXPORT_FIELDS, export_entries, snapshot_kind, step_labels

FORMATS = ("csv", "xlsx", "pdf")
PDF_COLUMNS = (0, 1, 2, 3, 5, 6, 7, 8, 9, 14)
"""The columns printed on the noticeboard (place, licence, names, club name, committee,
series, PCN, PP, tournaments): the full table is in the CSV and XLSX."""
LANGUAGES = ("fr", "en")


class ExportScopeError(Exception):
    """The user may not export this (part of the) ranking; the message is in the
    request's language."""


@dataclass(frozen=True)
class ExportTarget:
    """The part of a ranking a user exports: some committees (``None``: all), or one
    club, or a club manager's clubs."""

    committee_ids: set[int] | None
    committee: Committee | None = None
    club: Club | None = None
    club_ids: frozenset[int] | None = None
    public: bool = False
    """A club manager's export (posted on a club's board: to the public): players who
    asked for anonymity are named as on the public pages (federation.public_names)."""

    @property
    def national(self) -> bool:
        return self.committee_ids is None and self.club_ids is None and self.club is None


def _number(value: str) -> int | None:
    return int(value) if value.isascii() and value.isdigit() else None


def export_target(
    scope: Scope, committee_number: str | None, club_number: str | None = None
) -> ExportTarget:
    """What ``scope`` may export, narrowed to one committee or one club if asked."""
    if not scope.manages_anything:
        raise ExportScopeError(
            _("Only federation, zone or committee staff and club managers may export the ranking.")
        )
    if club_number:
        number = _number(club_number)
        club = (
            Club.objects.select_related("committee").filter(number=number).first()
            if number is not None
            else None
        )
        if club is None:
            raise ExportScopeError(_("Unknown club %(number)s.") % {"number": club_number})
        if not scope.covers_club(club):
            raise ExportScopeError(_("You may export only the ranking of your clubs."))
        return ExportTarget(committee_ids={club.committee_id}, club=club, public=not scope.is_staff)
    if not scope.is_staff:  # a club manager: their clubs
        if committee_number:
            raise ExportScopeError(_("You may export only the ranking of your clubs."))
        clubs = list(Club.objects.select_related("committee").filter(pk__in=scope.club_ids))
        if len(clubs) == 1:
            return ExportTarget(committee_ids={clubs[0].committee_id}, club=clubs[0], public=True)
        return ExportTarget(committee_ids=None, club_ids=frozenset(scope.club_ids), public=True)
    allowed = None
    if not scope.national:
        allowed = set(
            Committee.objects.filter(
                Q(pk__in=scope.committee_ids) | Q(zone_id__in=scope.zone_ids)
            ).values_list("pk", flat=True)
        )
    if not committee_number:
        return ExportTarget(committee_ids=allowed)
    number = _number(committee_number)
    committee = Committee.objects.filter(number=number).first() if number is not None else None
    if committee is None:
        raise ExportScopeError(_("Unknown committee %(number)s.") % {"number": committee_number})
    if allowed is not None and committee.pk not in allowed:
        raise ExportScopeError(_("You may export only the ranking of your committees."))
    return ExportTarget(committee_ids={committee.pk}, committee=committee)


COLUMNS = (
    # (the header's msgid, the value's field in ``EXPORT_FIELDS``; ``step`` becomes its label)
    (gettext_noop("Place"), "place"),
    (gettext_noop("Licence"), "licence_number"),
    (gettext_noop("Last name"), "player__last_name"),
    (gettext_noop("First name"), "player__first_name"),
    (gettext_noop("Club"), "club__number"),
    (gettext_noop("Club name"), "club__name"),
    (gettext_noop("Committee"), "committee__number"),
    (gettext_noop("Series"), "step"),
    (gettext_noop("PCN"), "total_pcn"),
    (gettext_noop("PP"), "total_pp"),
    (gettext_noop("Season PCN"), "season_pcn"),
    (gettext_noop("Season PP"), "season_pp"),
    (gettext_noop("Carried-over PCN"), "carried_pcn"),
    (gettext_noop("Carried-over PP"), "carried_pp"),
    (gettext_noop("Tournaments"), "tournaments"),
    (gettext_noop("Place in committee"), "place_in_committee"),
    (gettext_noop("Place in club"), "place_in_club"),
)
_POSITIONS = [EXPORT_FIELDS.index(field) for _msgid, field in COLUMNS]
_STEP = [field for _msgid, field in COLUMNS].index("step")
_LICENCE, _LAST, _FIRST = (
    [field for _msgid, field in COLUMNS].index(name)
    for name in ("licence_number", "player__last_name", "player__first_name")
)


def hidden_licence_numbers() -> frozenset[int]:
    """The licence numbers of the players who asked for anonymity (a few: one query)."""
    numbers = Player.objects.filter(name_hidden=True).values_list("licence_number", flat=True)
    return frozenset(numbers)


@dataclass(frozen=True)
class RankingTable:
    """A ranking's export, its words resolved in the language active when it was
    built (the rows are read lazily: a streamed response reads them after the view
    returned, when the request's language is no longer active)."""

    snapshot: RankingSnapshot
    target: ExportTarget
    title: str
    subtitle: str
    header: list[str]
    labels: dict[str, str]
    anonymous: str = ""  # how a player who asked for anonymity is named (public exports)

    @property
    def season(self) -> Season:
        return self.snapshot.season

    def rows(self) -> Iterator[list[object]]:
        club_ids = {self.target.club.pk} if self.target.club is not None else self.target.club_ids
        entries = export_entries(self.snapshot, self.target.committee_ids, club_ids)
        hidden = hidden_licence_numbers() if self.target.public else frozenset()
        for entry in entries.iterator(chunk_size=5000):
            row: list[object] = [entry[i] for i in _POSITIONS]
            row[_STEP] = self.labels.get(str(row[_STEP]), row[_STEP])
            if row[_LICENCE] in hidden:  # as on the public pages (federation.public_names)
                row[_LICENCE], row[_LAST], row[_FIRST] = "", self.anonymous, ""
            yield row

    def file_name(self, extension: str) -> str:
        part = ""
        if self.target.club is not None:
            part = f"-club-{self.target.club.number}"
        elif self.target.committee is not None:
            part = f"-comite-{self.target.committee.number}"
        kind = snapshot_kind(self.snapshot)
        return f"classement-{self.season.name}-{kind}{part}.{extension}"


def _when(moment: datetime) -> str:
    local = timezone.localtime(moment)
    return _("%(day)s at %(time)s") % {
        "day": date_format(local, "d/m/Y"),
        "time": date_format(local, "H:i"),
    }


def ranking_table(snapshot: RankingSnapshot, target: ExportTarget) -> RankingTable:
    """The export of ``snapshot`` for ``target`` in the active language."""
    english = (get_language() or "fr").startswith("en")
    labels = {
        code: str(label[1 if english else 0]) for code, label in step_labels(snapshot).items()
    }
    if target.club is not None:
        title = _("PCN ranking of club %(number)s %(name)s") % {
            "number": target.club.number,
            "name": target.club.name,
        }
    elif target.committee is not None:
        title = _("PCN ranking of committee %(committee)s") % {"committee": target.committee}
    elif target.national:
        title = _("National PCN ranking")
    else:
        title = _("PCN ranking of your committees or clubs")
    if snapshot_kind(snapshot) == "live":
        state = _("Live ranking (provisional), computed on %(when)s")
    else:
        state = _("Official ranking, published on %(when)s")
    subtitle = _("Season %(season)s") % {"season": snapshot.season.name}
    subtitle += " · " + state % {"when": _when(snapshot.computed_at)}
    return RankingTable(
        snapshot=snapshot,
        target=target,
        title=title,
        subtitle=subtitle,
        header=[_(msgid) for msgid, _field in COLUMNS],
        labels=labels,
        anonymous=anonymous_name(),
    )


def ranking_export_response(table: RankingTable, file_format: str) -> HttpResponseBase:
    """The ranking as a downloaded file (``core/export_formats.py``)."""
    return export_response(
        table, file_format, sheet_title=table.season.name, pdf_columns=PDF_COLUMNS
    )
