"""A results CSV as French Excel saves it (semicolons, CRLF), and the same file with
three mistakes a club makes: a licence number under another person's name, a
table whose scores do not balance, a wrong place."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

from competitions.rules.results import parse_json
from competitions.rules.results.csv_writer import write_csv


@dataclass(frozen=True)
class Mistakes:
    text: str
    """The CSV with the three mistakes."""
    renamed_line: int
    """The player line whose licence number is under another person's name."""
    licence_number: int
    registry_name: str
    written_name: str
    unbalanced_line: int
    """The position line whose score was changed (the first at its table)."""
    misplaced_line: int
    """The player line of the entry placed 2, written 3."""


def excel_csv(results: dict[str, Any]) -> str:
    """``results`` as the CSV French Excel writes: semicolons, CRLF."""
    return write_csv(parse_json(results), delimiter=";")


def with_mistakes(results: dict[str, Any]) -> Mistakes:
    rows = list(csv.reader(io.StringIO(excel_csv(results)), delimiter=";"))
    header = rows[0]
    col = {name: header.index(name) for name in header}
    players = [i for i, row in enumerate(rows) if row[col["record"]] == "player"]
    licensed = [i for i in players if rows[i][col["licence_number"]]]
    renamed, other = licensed[1], licensed[4]
    licence = int(rows[renamed][col["licence_number"]])
    registry_name = rows[renamed][col["name"]]
    rows[renamed][col["name"]] = rows[other][col["name"]]
    first_position = next(i for i, row in enumerate(rows) if row[col["record"]] == "position")
    rows[first_position][col["score"]] = str(int(rows[first_position][col["score"]]) + 10)
    second = next(i for i in players if rows[i][col["place"]] == "2")
    rows[second][col["place"]] = "3"
    buffer = io.StringIO()
    csv.writer(buffer, delimiter=";", lineterminator="\r\n").writerows(rows)
    return Mistakes(
        text=buffer.getvalue(),
        renamed_line=renamed + 1,
        licence_number=licence,
        registry_name=registry_name,
        written_name=rows[other][col["name"]],
        unbalanced_line=first_position + 1,
        misplaced_line=second + 1,
    )
