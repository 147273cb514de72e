"""The fonts the printable PDFs use: DejaVu Sans (regular and bold), vendored in
``core/fonts/`` with its licence. reportlab's built-in fonts (Helvetica...) cover
Latin-1 only: a name such as "Łukasz Wójcik", "Nguyễn", a Greek or a Cyrillic one would
print as black boxes. DejaVu Sans covers Latin (with Vietnamese), Greek and Cyrillic;
reportlab embeds the subset of glyphs a document uses, so every reader shows the
same letters."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import NamedTuple

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONTS = Path(__file__).resolve().parent / "fonts"


class PdfFonts(NamedTuple):
    regular: str
    bold: str


@cache
def pdf_fonts() -> PdfFonts:
    """Register DejaVu Sans with reportlab (once a process) and give its names."""
    fonts = PdfFonts("DejaVuSans", "DejaVuSans-Bold")
    for name in fonts:
        pdfmetrics.registerFont(TTFont(name, str(FONTS / f"{name}.ttf")))
    # <b> in a Paragraph picks the bold face.
    addMapping(fonts.regular, 0, 0, fonts.regular)
    addMapping(fonts.regular, 1, 0, fonts.bold)
    addMapping(fonts.regular, 0, 1, fonts.regular)
    addMapping(fonts.regular, 1, 1, fonts.bold)
    return fonts
