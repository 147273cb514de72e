"""The French names of the results CSV's columns and record kinds (pure).

The results CSV names its columns by English codes (``licence_number``); a secretary may
head the columns in French instead (« numéro de licence »), and write the record kinds
in French (« joueur »). This is the one mapping between the two, read by the CSV reader
(:mod:`competitions.rules.results.csv_format`), the report of a file's problems and the
templates offered for download (``docs/results-format.md`` lists it).

A French name is matched whatever its case, accents, spaces, hyphens or apostrophes
(« Numéro de licence », « numero_de_licence », « NUMERO-DE-LICENCE »).
"""

from __future__ import annotations

import unicodedata

FRENCH_COLUMNS: dict[str, str] = {
    "record": "type",
    "session": "séance",
    "tables": "tables",
    "tables_of_three": "tables de trois",
    "deals": "donnes",
    "entry": "participant",
    "place": "place",
    "entry_total": "total du participant",
    "abandoned": "abandon",
    "licence_number": "numéro de licence",
    "name": "nom",
    "player_total": "total du joueur",
    "position": "position",
    "table": "table",
    "score": "score",
    "best_position_score": "meilleur score",
    "prise": "prise",
    "garde": "garde",
    "garde_sans": "garde sans",
    "garde_contre": "garde contre",
    "points": "points",
    "kind": "nature",
    "reason": "motif",
    "arbiter_accord": "accord de l’arbitre",
    "points_divisor": "diviseur des points",
    "carried": "points reportés",
    "after_position": "après la position",
}
"""Column code → its French name."""

FRENCH_RECORDS: dict[str, str] = {
    "session": "séance",
    "player": "joueur",
    "position": "position",
    "penalty": "pénalité",
    "session_entry": "séance du participant",
    "position_cut": "coupure",
}
"""Record kind (the ``record`` column's value) → its French name."""


def folded(text: str) -> str:
    """``text`` lower-case, without accents, its spaces, hyphens and apostrophes as ``_``."""
    decomposed = unicodedata.normalize("NFKD", text.strip().casefold())
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    for separator in (" ", "-", "'", "\u2019"):
        bare = bare.replace(separator, "_")
    return bare


_COLUMN_OF = {folded(french): code for code, french in FRENCH_COLUMNS.items()}
_RECORD_OF = {folded(french): code for code, french in FRENCH_RECORDS.items()}


def column_code(header_cell: str) -> str:
    """The code of the column a header cell names, in English or French; the cell
    lower-cased when it names none (reported as an unknown column)."""
    name = header_cell.strip().lower()
    if name in FRENCH_COLUMNS:
        return name
    return _COLUMN_OF.get(folded(header_cell), name)


def record_code(cell: str) -> str:
    """The record kind a ``record`` cell names, in English or French (lower-cased)."""
    text = cell.strip().lower()
    return _RECORD_OF.get(folded(text), text)


def french_column(code: str) -> str:
    """The French name of a column code (the code itself when it is none)."""
    return FRENCH_COLUMNS.get(code, code)


def french_record(code: str) -> str:
    return FRENCH_RECORDS.get(code, code)


TEMPLATE_COLUMNS = tuple(
    c for c in FRENCH_COLUMNS if c not in ("points_divisor", "carried", "after_position")
)
"""The template's columns: every column but those of sessions with eliminations."""
TEMPLATE_EXAMPLE: tuple[dict[str, object], ...] = (
    {"record": "session", "session": 1, "tables": 3, "tables_of_three": 0, "deals": 8},
    {"record": "player", "entry": 1, "place": 1, "entry_total": 172, "abandoned": 0,
     "licence_number": 10434, "name": "DUPONT Annie", "player_total": 172},
    {"record": "position", "session": 1, "entry": 1, "licence_number": 10434,
     "position": 1, "table": 3, "score": 172},
)  # fmt: skip
"""The lines of the template under its header: one of each common kind, to follow."""


def template_rows() -> tuple[list[str], list[list[object]]]:
    """The downloadable template's French header and example lines (kinds in French)."""
    header = [french_column(code) for code in TEMPLATE_COLUMNS]
    rows = [
        [
            french_record(str(line[code])) if code == "record" else line.get(code)
            for code in TEMPLATE_COLUMNS
        ]
        for line in TEMPLATE_EXAMPLE
    ]
    return header, rows
