"""A championship stage's files: its results and its qualified players as CSV, XLSX and a
printable PDF (through ``core.export_formats``: French headers, French labels, every
cell spreadsheet-safe), and the first session's seating as a PDF for the arbiter."""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from xml.sax.saxutils import escape

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.text import slugify
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import LongTable, PageBreak, Paragraph, SimpleDocTemplate, TableStyle
from reportlab.platypus.flowables import Spacer

from competitions.championships.qualification_status import ChampionshipQualification, entry_key
from competitions.models import (
    ChampionshipStage,
    ChampionshipStageKind,
    QualificationRightChoice,
    ResultEntry,
    ResultPlayer,
    StageSeating,
)
from competitions.rules.championships.qualification import QualificationRight
from competitions.rules.engine.tables import seat_word
from core.pdf_fonts import pdf_fonts
from federation.models import Licence, Player


def _stage_title(stage: ChampionshipStage) -> str:
    return stage.tournament.name


def _stage_subtitle(stage: ChampionshipStage) -> str:
    where = stage.tournament.venue
    return _("%(date)s, %(venue)s – exported on %(today)s") % {
        "date": date_format(stage.tournament.date, "d/m/Y"),
        "venue": where,
        "today": date_format(timezone.localdate(), "d/m/Y"),
    }


def _clubs(stage: ChampionshipStage, numbers: set[int]) -> dict[int, tuple[str, int | None]]:
    """Licence number → (club, committee number) of the players' licences of the stage's
    season (the committee a number, as in the CSV: a number cell in the XLSX)."""
    return {
        number: (f"{club_number} {club}", committee)
        for number, club_number, club, committee in Licence.objects.filter(
            season=stage.tournament.season, player__licence_number__in=numbers
        ).values_list(
            "player__licence_number", "club__number", "club__name", "club__committee__number"
        )
    }


@dataclass
class StageResultsTable:
    """The homologated results of a stage, one line per player (a duo's or a team's
    players share their entry's place)."""

    stage: ChampionshipStage
    title: str
    subtitle: str
    header: list[str]

    @classmethod
    def of(cls, stage: ChampionshipStage) -> StageResultsTable:
        return cls(
            stage,
            _("Results: %(stage)s") % {"stage": _stage_title(stage)},
            _stage_subtitle(stage),
            [
                _("Place"),
                _("Entry"),
                _("Licence"),
                _("Last name"),
                _("First name"),
                _("Club"),
                _("Committee"),
                _("Total"),
                _("Abandoned"),
            ],
        )

    def rows(self) -> Iterator[list[object]]:
        revision = self.stage.tournament.homologated_revision_id
        entries = ResultEntry.objects.filter(revision_id=revision).order_by("place", "number")
        players = list(
            ResultPlayer.objects.filter(revision_id=revision)
            .select_related("player")
            .order_by("pk")
        )
        clubs = _clubs(self.stage, {p.licence_number for p in players if p.licence_number})
        by_entry: dict[int, list[ResultPlayer]] = {}
        for p in players:
            by_entry.setdefault(p.entry_id, []).append(p)
        yes, no = _("yes"), _("no")
        for entry in entries:
            for p in by_entry.get(entry.pk, []):
                last, first = (
                    (p.player.last_name.upper(), p.player.first_name) if p.player else (p.name, "")
                )
                club, committee = clubs.get(p.licence_number or 0, ("", None))
                yield [
                    entry.place,
                    entry.number,
                    p.licence_number,
                    last,
                    first,
                    club,
                    committee,
                    entry.total,
                    yes if entry.abandoned else no,
                ]

    def file_name(self, extension: str) -> str:
        return f"resultats-{_slug(self.stage)}.{extension}"


RIGHT_LABELS = {c.value: c.label for c in QualificationRightChoice}


@dataclass
class QualifiedTable:
    """Who this stage qualifies for the national final now (the live status: a regional
    final's committee places, the national qualifier's places), one line per player, and
    whether the qualification is recorded."""

    stage: ChampionshipStage
    status: ChampionshipQualification
    recorded: set[str]
    title: str
    subtitle: str
    header: list[str]

    @classmethod
    def of(
        cls, stage: ChampionshipStage, status: ChampionshipQualification, recorded: set[str]
    ) -> QualifiedTable:
        return cls(
            stage,
            status,
            recorded,
            _("Qualified for the national final: %(stage)s") % {"stage": _stage_title(stage)},
            _stage_subtitle(stage),
            [
                _("Place"),
                _("Licence"),
                _("Last name"),
                _("First name"),
                _("Club"),
                _("Committee"),
                _("Right"),
                _("Recorded"),
            ],
        )

    def qualifications(self) -> list:
        national = self.status.national
        if national is None:
            return []
        if self.stage.kind == ChampionshipStageKind.REGIONAL_FINAL:
            committee = str(self.stage.regional.committee.number)  # type: ignore[union-attr]  # regional stage: regional is set (CheckConstraint)
            rights: tuple[QualificationRight, ...] = (QualificationRight.COMMITTEE_QUOTA,)
            found = [q for q in national.qualified if q.committee == committee]
        else:
            rights = (QualificationRight.NATIONAL_QUALIFIER, QualificationRight.REATTRIBUTED_PLACE)
            found = list(national.qualified)
        return sorted((q for q in found if q.right in rights), key=lambda q: q.place or 0)

    def rows(self) -> Iterator[list[object]]:
        qualified = self.qualifications()
        numbers = {int(n) for q in qualified for n in q.entry.licence_numbers}
        players = {p.licence_number: p for p in Player.objects.filter(licence_number__in=numbers)}
        clubs = _clubs(self.stage, numbers)
        yes, no = _("yes"), _("no")
        for q in qualified:
            recorded = yes if entry_key(q.entry.licence_numbers) in self.recorded else no
            for n in sorted(int(n) for n in q.entry.licence_numbers):
                player = players.get(n)
                club, committee = clubs.get(n, ("", None))
                yield [
                    q.place,
                    n,
                    player.last_name.upper() if player else "",
                    player.first_name if player else "",
                    club,
                    committee,
                    str(RIGHT_LABELS.get(str(q.right), q.right)),
                    recorded,
                ]

    def file_name(self, extension: str) -> str:
        return f"qualifies-{_slug(self.stage)}.{extension}"


def _slug(stage: ChampionshipStage) -> str:
    return slugify(stage.tournament.name)[:60] or f"stade-{stage.pk}"


SEAT_ORDER = {"N": 0, "E": 1, "S": 2, "W": 3, "5": 4}


def seating_pdf(stage: ChampionshipStage, seating: StageSeating) -> bytes:
    """The first session's seating for the arbiter: A4 portrait, by table (then by seat),
    then by name (for the players looking for their place), with the draw's seed."""
    numbers = [int(a["licence_number"]) for a in seating.assignments]
    players = {p.licence_number: p for p in Player.objects.filter(licence_number__in=numbers)}

    def name(n: int) -> str:
        p = players.get(n)
        return f"{p.last_name.upper()} {p.first_name}" if p else str(n)

    def seat(a: dict) -> str:
        return seat_word(str(a["orientation"]))

    by_table = sorted(
        seating.assignments, key=lambda a: (a["table"], SEAT_ORDER.get(str(a["orientation"]), 9))
    )
    by_name = sorted(seating.assignments, key=lambda a: name(int(a["licence_number"])))
    head = [_("Table"), _("Seat"), _("Licence"), _("Player"), _("Entry")]
    fonts = pdf_fonts()  # DejaVu Sans: names beyond Latin-1 print (core/pdf_fonts.py)

    def grid(rows: list[dict]) -> LongTable:
        cells = [head] + [
            [str(a["table"]), seat(a), str(a["licence_number"]), name(int(a["licence_number"])),
             str(a["entry"])]
            for a in rows
        ]  # fmt: skip
        table = LongTable(cells, repeatRows=1)
        table.setStyle(
            TableStyle(
                [
                    ("FONT", (0, 0), (-1, 0), fonts.bold, 10),
                    ("FONT", (0, 1), (-1, -1), fonts.regular, 10),
                    ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#dde4ee")),
                    ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
                    ("ALIGN", (0, 0), (0, -1), "RIGHT"),
                ]
            )
        )
        return table

    output = io.BytesIO()
    title = _("First session seating: %(stage)s") % {"stage": _stage_title(stage)}
    document = SimpleDocTemplate(
        output,
        pagesize=A4,
        leftMargin=15 * mm,
        rightMargin=15 * mm,
        topMargin=15 * mm,
        bottomMargin=15 * mm,
        title=title,
    )
    styles = getSampleStyleSheet()
    for style in ("Title", "Normal", "Heading2"):
        styles[style].fontName = fonts.bold if style != "Normal" else fonts.regular
    subtitle = _("%(date)s, %(venue)s – %(tables)s tables – draw no. %(seed)s") % {
        "date": date_format(stage.tournament.date, "d/m/Y"),
        "venue": stage.tournament.venue,
        "tables": seating.tables,
        "seed": seating.seed,
    }
    document.build(
        [
            Paragraph(escape(title), styles["Title"]),
            Paragraph(escape(subtitle), styles["Normal"]),
            Spacer(1, 5 * mm),
            grid(by_table),
            PageBreak(),
            Paragraph(escape(_("By name")), styles["Heading2"]),
            grid(by_name),
        ]
    )
    return output.getvalue()
