"""Where a problem of a results submission is, in words a club secretary understands.

The API keeps the machine path of each problem (``lines[16].score``,
``entries[3].players[0].positions[2].table``); a person reads « ligne 16, colonne
« score » », « inscrit 4 (DUPONT Jean), séance 1, position 2, table 3 », « feuille de
marque de la séance 1, position 2, table 3, donne 3 ». The entry numbers, names,
sessions and tables are read from the submission as it was sent (``sent``: the
decoded JSON, when the submission was JSON), so the words match what the secretary
has in front of them. In the active language (French by default).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from competitions.rules.results.csv_columns import french_column, french_record
from competitions.rules.results.document import MAX_DOCUMENT_BYTES
from core.messages import problem_message
from core.problems import Problem

_LINE = re.compile(r"^lines\[(\d+)\](?:\.(\w+))?$")
_STEP = re.compile(r"\.?([A-Za-z_]+)(?:\[(\d+)\])?")
_SEATS = frozenset({"N", "S", "E", "W"})
_DECLARATION = frozenset(
    {
        "organizer",
        "arbiter_is_official",
        "arbiter_plays",
        "single_venue",
        "simultaneous",
        "days",
        "format",
    }
)


@dataclass(frozen=True)
class LocatedProblem:
    """A problem as a person reads it: where, and what (in the active language)."""

    where: str
    message: str
    code: str
    field: str
    licence_number: int | None = None
    """For a name that differs from the registry's: the number the secretary may confirm."""


def located(problems: tuple[Problem, ...] | list[Problem], sent: object) -> list[LocatedProblem]:
    """Each problem with its place in words, in the order given; a CSV file's columns
    and record kinds named in French (as the French template heads them)."""
    tree = sent_tree(sent)
    return [
        LocatedProblem(
            where=describe(problem.field, tree),
            message=problem_message(_columns_in_french(problem)),
            code=problem.code,
            field=problem.field,
            licence_number=_confirmable(problem),
        )
        for problem in problems
    ]


def _in_french() -> bool:
    return not (get_language() or "fr").startswith("en")


def _columns_in_french(problem: Problem) -> Problem:
    """A CSV line's problem with the columns and record kinds it names in French."""
    if not problem.field.startswith("lines") or not _in_french():
        return problem
    params = dict(problem.params)
    if isinstance(params.get("column"), str):
        params["column"] = french_column(str(params["column"]))
    if isinstance(params.get("columns"), str):
        names = str(params["columns"]).split(", ")
        params["columns"] = ", ".join(f"« {french_column(name)} »" for name in names)
    if isinstance(params.get("record"), str):
        params["record"] = french_record(str(params["record"]))
    return replace(problem, params=params)


def _confirmable(problem: Problem) -> int | None:
    if problem.code != "licence_name_mismatch":
        return None
    number = problem.params.get("licence_number")
    return number if isinstance(number, int) else None


def sent_tree(sent: object) -> dict[str, Any] | None:
    """The submission as decoded JSON, when it was JSON (else ``None``)."""
    if isinstance(sent, dict):
        return sent
    if isinstance(sent, bytes | str) and len(sent) <= MAX_DOCUMENT_BYTES:
        try:
            decoded = json.loads(sent)
        except (ValueError, RecursionError):
            return None
        return decoded if isinstance(decoded, dict) else None
    return None


def describe(field: str, sent: dict[str, Any] | None = None) -> str:
    """``field`` in words (the field itself when it has no words)."""
    if not field:
        return ""
    if field == "lines":
        return _("the file")
    line = _LINE.match(field)
    if line is not None:
        number, column = int(line.group(1)), line.group(2)
        where = _("line 1 (header)") if number == 1 else _("line %(line)s") % {"line": number}
        if column:
            name = french_column(column) if _in_french() else column
            where += ", " + _("column « %(column)s »") % {"column": name}
        return where
    if field.split(".")[0].split("[")[0] in _DECLARATION:
        return _("the tournament's declaration")
    if field == "document":
        return _("the document")
    steps = [(m.group(1), m.group(2)) for m in _STEP.finditer(field)]
    if not steps:
        return field
    head, index = steps[0]
    if index is None:
        return _step_words(head, None, {}) or field
    item = _item(sent, head, int(index))
    words = [_top_words(head, int(index), item)]
    node: object = item
    for name, sub in steps[1:]:
        child = node.get(name) if isinstance(node, dict) else None
        if sub is not None:
            child = child[int(sub)] if isinstance(child, list) and int(sub) < len(child) else None
        words.append(_step_words(name, sub, child if isinstance(child, dict) else {}))
        node = child
    return ", ".join(word for word in words if word)


def _item(sent: dict[str, Any] | None, name: str, index: int) -> dict[str, Any]:
    items = sent.get(name) if isinstance(sent, dict) else None
    if isinstance(items, list) and index < len(items) and isinstance(items[index], dict):
        return items[index]
    return {}


def _top_words(name: str, index: int, item: dict[str, Any]) -> str:
    if name == "entries":
        number = item.get("number", index + 1)
        names = [
            str(p.get("name"))
            for p in item.get("players") or []
            if isinstance(p, dict) and p.get("name")
        ]
        if names:
            return _("entry %(number)s (%(names)s)") % {"number": number, "names": ", ".join(names)}
        return _("entry %(number)s") % {"number": number}
    if name == "sessions":
        return _("session %(number)s") % {"number": item.get("number", index + 1)}
    if name == "penalties":
        return _("penalty %(number)s") % {"number": index + 1}
    if name == "cuts":  # a score sheets document's cuts
        if item.get("after_position"):
            return _("cut of session %(session)s after position %(position)s") % {
                "session": item.get("session", "?"),
                "position": item["after_position"],
            }
        return _("cut before session %(session)s") % {"session": item.get("session", "?")}
    if name == "score_sheets":
        if {"session", "position", "table"} <= item.keys():
            return _(
                "score sheet of session %(session)s, position %(position)s, table %(table)s"
            ) % {
                "session": item["session"],
                "position": item["position"],
                "table": item["table"],
            }
        return _("score sheet %(number)s") % {"number": index + 1}
    return f"{name}[{index}]"


def _step_words(name: str, index: str | None, item: dict[str, Any]) -> str:
    if name == "players" and index is not None:
        who = item.get("name") or item.get("licence_number")
        return _("player %(who)s") % {"who": who} if who else ""
    if name == "players":
        return ""  # the entry's players as a whole: the entry says it
    if name in _SEATS:
        return _("seat %(seat)s") % {"seat": name}
    if name == "positions" and index is not None:
        if {"session", "position", "table"} <= item.keys():
            return _("session %(session)s, position %(position)s, table %(table)s") % item
        return _("position score %(number)s") % {"number": int(index) + 1}
    if name == "cuts" and index is not None:  # a session's cut between positions
        return _("cut after position %(position)s") % {"position": item.get("after_position", "?")}
    if name == "entries" and index is not None:  # a session's entries (eliminations)
        return _("entry %(number)s") % {"number": item.get("number", int(index) + 1)}
    if name == "deals" and index is not None:
        return _("deal %(number)s") % {"number": int(index) + 1}
    if index is None:
        return _("field « %(name)s »") % {"name": name}
    return f"{name}[{index}]"
