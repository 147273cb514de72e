"""The room's printouts (A4 PDF, DejaVu Sans: ``core/pdf_fonts.py``) of a drawn session:

- **table cards**: one per table and position, the table's number large, who sits where,
  and the table's QR code (its score page at that position: :func:`table_url`);
- **fiches de déplacement**: each player's table and seat at every position;
- **score sheets** (« feuilles de marque »): one per table and position, pre-filled with the
  seats' names and the deal numbers; a table of 5 has a column for the mort of each deal
  (who sits out is written as the deal is played: a passed deal keeps its mort).
"""

from __future__ import annotations

import functools
import io
from collections.abc import Iterator
from dataclasses import dataclass
from xml.sax.saxutils import escape

import segno
from django.conf import settings
from django.http import HttpRequest
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    KeepTogether,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from competitions.day import room, table_tokens
from competitions.models import PlayedSession
from competitions.rules.day.layout import TableAt
from competitions.rules.engine.tables import seat_word
from core.pdf_fonts import pdf_fonts


def table_url(session: PlayedSession, position: int, table: int, site: str | None = None) -> str:
    """The address a table's QR code opens: that table's score page at that position, under
    its signed token (``competitions/day/table_tokens.py``), with the site's address
    (``site``, else ``SITE_URL``)."""
    return (site or settings.SITE_URL).rstrip("/") + table_tokens.table_url(
        session, position, table
    )


def cards_site(request: HttpRequest) -> str | None:
    """The site's address for the cards printed from ``request``: ``SITE_URL`` when it is
    configured, else the address the arbiter reached (a phone in the room reaches it too,
    where the default ``localhost`` would open the phone itself)."""
    return None if settings.SITE_URL_SET else request.build_absolute_uri("/")


def _title(session: PlayedSession) -> str:
    tournament = session.tournament
    return f"{tournament.name} – {date_format(tournament.date, 'd/m/Y')}"


class _Names:
    """Who sits on each starting number of a session."""

    def __init__(self, session: PlayedSession) -> None:
        self.layout, self.seating = room.layout_and_seating(session)
        self.names = room.member_names(session.tournament)

    def at(self, number: int) -> str:
        holder = self.seating.get(number)
        if holder is None:
            return ""
        return self.names.get((holder.entry, holder.member), "")

    def seats(self, table: TableAt) -> Iterator[tuple[str, int, str]]:
        for orientation, number in table.seats.items():
            yield orientation.value, number, self.at(number)


@dataclass(frozen=True)
class _QrPath:
    """A QR code as PDF path operators in module units: one ``re`` per run of dark modules
    in a row, (0, 0) its lower left corner, ``modules`` wide (the quiet zone included)."""

    modules: int
    code: str

    def getCode(self) -> str:  # what reportlab's Canvas.drawPath reads
        return self.code


QUIET_ZONE = 2
"""Light modules around a code (segno's ``border=2``, as the cards always had)."""


@functools.lru_cache(maxsize=2048)
def _qr_path(url: str) -> _QrPath:
    """The path of ``url``'s QR code (segno's, error level M), computed once a
    process (a table's token never changes: reprinting a session's cards, or one position's,
    encodes nothing again)."""
    rows = segno.make(url, error="m", micro=False).matrix
    n = len(rows) + 2 * QUIET_ZONE
    runs = []
    for r, row in enumerate(rows):
        y = n - 1 - QUIET_ZONE - r
        start = None
        for c, dark in enumerate([*row, 0]):
            if dark and start is None:
                start = c
            elif not dark and start is not None:
                runs.append(f"{QUIET_ZONE + start} {y} {c - start} 1 re")
                start = None
    return _QrPath(n, "\n".join(runs))


def _qr(canvas: Canvas, url: str, x: float, y: float, size: float) -> None:
    """The QR code of ``url``, ``size`` wide, its lower left corner at (x, y): each row's
    runs of dark modules one rectangle, the whole code one filled path, written in module
    units under a scale (integers: nothing to format per rectangle)."""
    qr = _qr_path(url)
    canvas.setFillColor(colors.white)
    canvas.rect(x, y, size, size, stroke=0, fill=1)
    canvas.setFillColor(colors.black)
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(size / qr.modules, size / qr.modules)
    canvas.drawPath(qr, stroke=0, fill=1)
    canvas.restoreState()


def table_cards_pdf(
    session: PlayedSession, position: int | None = None, *, site: str | None = None
) -> bytes:
    """Two cards a page: every table at every position (or at ``position``), with its QR
    code (on ``site``: :func:`table_url`)."""
    fonts = pdf_fonts()
    names = _Names(session)
    output = io.BytesIO()
    canvas = Canvas(output, pagesize=A4)
    canvas.setTitle(_("Table cards – session %(n)s") % {"n": session.number})
    width, height = A4
    slot = 0
    for at, tables in enumerate(names.layout.positions, start=1):
        if position is not None and at != position:
            continue
        for table in tables:
            if slot == 2:
                canvas.showPage()
                slot = 0
            top = height - slot * height / 2 - 15 * mm
            canvas.setFont(fonts.regular, 10)
            canvas.drawString(15 * mm, top, _title(session))
            canvas.setFont(fonts.bold, 14)
            canvas.drawString(
                15 * mm,
                top - 8 * mm,
                _("Session %(s)s – position %(p)s") % {"s": session.number, "p": at},
            )
            canvas.setFont(fonts.bold, 48)
            canvas.drawString(15 * mm, top - 28 * mm, _("Table %(t)s") % {"t": table.table})
            canvas.setFont(fonts.regular, 12)
            line = top - 40 * mm
            for seat, number, name in names.seats(table):
                canvas.drawString(15 * mm, line, f"{seat_word(seat)} ({number}) : {name}")
                line -= 7 * mm
            url = table_url(session, at, table.table, site)
            _qr(canvas, url, width - 85 * mm, top - 75 * mm, 70 * mm)
            canvas.setFont(fonts.regular, 7)
            canvas.drawString(width - 85 * mm, top - 80 * mm, url[:90])
            canvas.setFont(fonts.regular, 9)
            canvas.drawString(
                15 * mm, top - 80 * mm, _("Scan to enter this table's scores at this position.")
            )
            if slot == 0:
                canvas.setStrokeColor(colors.lightgrey)
                canvas.line(10 * mm, height / 2, width - 10 * mm, height / 2)
            slot += 1
    canvas.showPage()
    canvas.save()
    return output.getvalue()


def _document(output: io.BytesIO, title: str) -> SimpleDocTemplate:
    return SimpleDocTemplate(
        output,
        pagesize=A4,
        leftMargin=15 * mm,
        rightMargin=15 * mm,
        topMargin=15 * mm,
        bottomMargin=15 * mm,
        title=title,
    )


def _styles():
    fonts = pdf_fonts()
    styles = getSampleStyleSheet()
    for style in ("Title", "Normal", "Heading2", "Heading3"):
        styles[style].fontName = fonts.bold if style != "Normal" else fonts.regular
    return styles


def _grid(cells: list[list[str]], widths: list[float] | None = None) -> Table:
    fonts = pdf_fonts()
    table = Table(cells, colWidths=widths, repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, 0), fonts.bold, 10),
                ("FONT", (0, 1), (-1, -1), fonts.regular, 10),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#dde4ee")),
                ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ]
        )
    )
    return table


def movement_sheets_pdf(session: PlayedSession) -> bytes:
    """Each player's « fiche de déplacement », by name: table and seat at every position."""
    names = _Names(session)
    styles = _styles()
    output = io.BytesIO()
    title = _("Movement sheets – session %(n)s") % {"n": session.number}
    story: list = [Paragraph(escape(_title(session)), styles["Title"])]
    people = sorted(names.seating, key=lambda n: (names.at(n).casefold(), n))
    for number in people:
        holder = names.seating[number]
        rows = [[_("Position"), _("Table"), _("Seat")]]
        for position in range(1, len(names.layout.positions) + 1):
            table = names.layout.seat_of(number, position)
            if table is None:
                continue
            seat = next(o.value for o, n in table.seats.items() if n == number)
            rows.append([str(position), str(table.table), seat_word(seat)])
        head = _("%(name)s – entry no. %(entry)s – session %(s)s") % {
            "name": names.at(number),
            "entry": holder.entry,
            "s": session.number,
        }
        story.append(
            KeepTogether(
                [
                    Paragraph(escape(head), styles["Heading3"]),
                    _grid(rows, [30 * mm, 30 * mm, 40 * mm]),
                    Spacer(1, 6 * mm),
                ]
            )
        )
    document = _document(output, title)
    document.build(story)
    return output.getvalue()


def score_sheets_pdf(session: PlayedSession) -> bytes:
    """A score sheet per table and position: the seats' names, one line per deal, the
    totals; a table of 5 has its mort's column."""
    names = _Names(session)
    styles = _styles()
    output = io.BytesIO()
    title = _("Score sheets – session %(n)s") % {"n": session.number}
    story: list = []
    deals = session.deals_per_position
    for position, tables in enumerate(names.layout.positions, start=1):
        for table in tables:
            if story:
                story.append(PageBreak())
            story.append(Paragraph(escape(_title(session)), styles["Normal"]))
            story.append(
                Paragraph(
                    escape(
                        _("Session %(s)s – position %(p)s – table %(t)s")
                        % {"s": session.number, "p": position, "t": table.table}
                    ),
                    styles["Heading2"],
                )
            )
            seats = list(names.seats(table))
            fifth = table.size == 5
            head = [_("Deal")] + [f"{seat_word(s)}\n{name}" for s, _n, name in seats]
            if fifth:
                head.append(_("Mort"))
            cells = [head]
            for deal in range(1, deals + 1):
                cells.append([str(deal)] + [""] * (len(head) - 1))
            cells.append([_("Total")] + [""] * (len(head) - 1))
            story.append(_grid(cells))
            story.append(Spacer(1, 4 * mm))
            note = _("Each line sums to zero.")
            if fifth:
                note += " " + _(
                    "Table of 5: each deal one player, the mort, deals to the four others "
                    "and scores 0; write his seat in the Mort column. The mort goes round in "
                    "the direction of play and deals again while everyone passes."
                )
            story.append(Paragraph(escape(note), styles["Normal"]))
    document = _document(output, title)
    document.build(story)
    return output.getvalue()
