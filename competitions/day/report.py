"""The arbiter's report for the committee (PDF): the tournament, the field, the sessions'
tables, the incidents of the day (penalties, those removed, corrections, abandons) and the
standings at the end. For those who see the day."""

from __future__ import annotations

import io
from xml.sax.saxutils import escape

from django.utils.formats import date_format
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import LongTable, Paragraph, SimpleDocTemplate, Spacer, TableStyle

from competitions.day.closing import day_results, require_reader, standings_view
from competitions.models import DayCorrection, DayPenalty, Tournament, TournamentEntry
from competitions.rules.engine.penalties import CATALOGUE, PenaltyKind
from core.pdf_fonts import pdf_fonts
from federation.access import Actor


def _kind(kind: str) -> str:
    try:
        return CATALOGUE[PenaltyKind(kind)].label_fr
    except ValueError:
        return kind


def arbiter_report_pdf(*, tournament: Tournament, by: Actor) -> bytes:
    require_reader(tournament, by)
    fonts = pdf_fonts()
    styles = getSampleStyleSheet()
    for style in ("Title", "Heading2", "Normal"):
        styles[style].fontName = fonts.bold if style != "Normal" else fonts.regular
    day = day_results(tournament=tournament)
    view = standings_view(tournament, day, None)

    def table(rows: list[list[str]], widths: list[float]) -> LongTable:
        cells = [[Paragraph(escape(str(c)), styles["Normal"]) for c in row] for row in rows]
        t = LongTable(cells, colWidths=[w * mm for w in widths], repeatRows=1)
        t.setStyle(
            TableStyle(
                [
                    ("BACKGROUND", (0, 0), (-1, 0), colors.lightgrey),
                    ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ]
            )
        )
        return t

    story: list = [
        Paragraph(escape(f"Rapport d’arbitrage – {tournament.name}"), styles["Title"]),
        Paragraph(
            escape(
                f"{date_format(tournament.date, 'l j F Y')}, {tournament.venue}. "
                f"Arbitre : {tournament.arbiter or '—'}."
            ),
            styles["Normal"],
        ),
        Spacer(1, 4 * mm),
        Paragraph("Le champ", styles["Heading2"]),
    ]
    entries = len(day.entries)
    players = sum(len(e.members) for e in day.entries)
    story.append(Paragraph(f"{entries} inscriptions, {players} joueurs.", styles["Normal"]))
    rows = [["Séance", "Positions", "Donnes par position", "Tables (3 / 4 / 5 joueurs)"]]
    for session in day.sessions:
        first = session.layout.positions[0] if session.layout.positions else ()
        sizes = [sum(1 for t in first if t.size == n) for n in (3, 4, 5)]
        rows.append(
            [
                str(session.number),
                str(len(session.layout.positions)),
                str(session.layout.deals_per_position),
                f"{len(first)} ({sizes[0]} / {sizes[1]} / {sizes[2]})",
            ]
        )
    story += [table(rows, [20, 25, 40, 60]), Paragraph("Pénalités", styles["Heading2"])]
    penalties = DayPenalty.objects.filter(tournament=tournament).select_related("member__player")
    rows = [["Joueur", "Faute", "Points", "Quand", "Motif"]]
    for p in penalties:
        when = f"S{p.session} P{p.position}" if p.session else "—"
        reason = p.reason
        if p.removed_at is not None:
            reason += f" — retirée : {p.removal_reason}"
        rows.append([str(p.member), _kind(p.kind), str(p.points), when, reason])
    story.append(table(rows, [40, 45, 15, 20, 55]) if len(rows) > 1 else _none(styles))
    story.append(Paragraph("Corrections des scores", styles["Heading2"]))
    rows = [["Séance", "Position", "Table", "Donne", "Motif"]]
    for c in DayCorrection.objects.filter(session__tournament=tournament).select_related("session"):
        deal = "bilans" if c.deal == 0 else str(c.deal)
        rows.append([str(c.session.number), str(c.position), str(c.table), deal, c.reason])
    story.append(table(rows, [18, 18, 15, 15, 109]) if len(rows) > 1 else _none(styles))
    story.append(Paragraph("Abandons", styles["Heading2"]))
    rows = [["Inscription", "Après", "Accord de l’arbitre"]]
    for e in TournamentEntry.objects.filter(tournament=tournament, abandoned_session__isnull=False):
        rows.append(
            [
                f"n° {e.number} {view.names.get(e.number, '')}",
                f"séance {e.abandoned_session}, position {e.abandoned_position}",
                "oui" if e.abandon_agreed else "non (article 27 ; ch. 4 : sanction à examiner)",
            ]
        )
    story.append(table(rows, [70, 50, 55]) if len(rows) > 1 else _none(styles))
    story.append(Paragraph("Classement", styles["Heading2"]))
    rows = [["Place", "N°", "Nom", "Score", "Pénalités", "Total"]]
    for line in view.standings.lines:
        rows.append(
            [
                str(line.place),
                str(line.entry),
                view.names.get(line.entry, ""),
                str(line.score),
                str(line.penalty_points),
                str(line.total) + (" (abandon)" if line.abandoned else ""),
            ]
        )
    story.append(table(rows, [15, 12, 70, 25, 25, 28]))
    out = io.BytesIO()
    SimpleDocTemplate(
        out,
        pagesize=A4,
        title=f"Rapport d’arbitrage – {tournament.name}",
        leftMargin=12 * mm,
        rightMargin=12 * mm,
    ).build(story)
    return out.getvalue()


def _none(styles) -> Paragraph:
    return Paragraph("Aucune.", styles["Normal"])
