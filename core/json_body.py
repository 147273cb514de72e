"""Limits every decoded JSON body meets before anything reads it (no Django here).

- :data:`MAX_DEPTH` levels of nesting at most: the deepest document the API
  takes (a results document, score sheets) has about eight; a body nested a
  thousand levels deep would otherwise exhaust Python's recursion in the decoder
  or in whatever walks it next.
- No key twice in one object (JSON allows it, the last one silently winning):
  refused, so that what the sender meant is never guessed.
- No NUL character (``\\x00``, written ``\\u0000``) in a key or a string:
  PostgreSQL cannot store one.

:func:`loads` decodes text with these limits; :func:`check` applies the depth and
NUL limits to an already decoded value. Both raise :class:`RuleViolation` with
every problem located (``entries[3].players[0].name``).
"""

from __future__ import annotations

import json
from typing import Any

from core.problems import Problem, RuleViolation

MAX_DEPTH = 32
NUL = "\x00"


def _join(where: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{where}[{key}]"
    key = key.replace(NUL, "\\u0000")
    return f"{where}.{key}" if where else key


def too_deep(where: str = "") -> Problem:
    return Problem(
        where or "document",
        "too_deep",
        f"JSON nested more than {MAX_DEPTH} levels deep is not accepted.",
    )


def check(value: Any, where: str = "") -> None:
    """Refuse ``value`` nested deeper than :data:`MAX_DEPTH` or holding a NUL character."""
    problems: list[Problem] = []
    stack: list[tuple[Any, str, int]] = [(value, where, 1)]
    while stack:
        item, at, depth = stack.pop()
        if isinstance(item, str):
            if NUL in item:
                problems.append(
                    Problem(
                        at or "document",
                        "null_character",
                        "This text holds a NUL character (\\u0000), which is not accepted.",
                    )
                )
            continue
        if not isinstance(item, dict | list):
            continue
        if depth > MAX_DEPTH:
            raise RuleViolation([*problems, too_deep(at)])
        if isinstance(item, dict):
            for key, child in item.items():
                if isinstance(key, str) and NUL in key:
                    problems.append(
                        Problem(
                            _join(at, key),
                            "null_character",
                            "This key holds a NUL character (\\u0000), which is not accepted.",
                        )
                    )
                stack.append((child, _join(at, str(key)), depth + 1))
        else:
            stack.extend((child, _join(at, i), depth + 1) for i, child in enumerate(item))
    if problems:
        raise RuleViolation(sorted(problems, key=lambda p: p.field))


def loads(text: str, *, what: str = "body") -> Any:
    """``text`` decoded as JSON within the limits above; RuleViolation if it is not."""
    duplicates: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        found = dict(items)
        if len(found) != len(items):
            keys = [key for key, _ in items]
            duplicates.extend(key for key in found if keys.count(key) > 1)
        return found

    def constant(name: str) -> float:
        raise ValueError(f"{name} is not a JSON number")

    try:
        decoded = json.loads(text, object_pairs_hook=pairs, parse_constant=constant)
    except json.JSONDecodeError as error:
        raise RuleViolation.single(
            "document",
            "invalid_json",
            f"The {what} is not valid JSON: {error.msg} at line {error.lineno}, "
            f"column {error.colno}.",
        ) from None
    except RecursionError:
        raise RuleViolation([too_deep()]) from None
    except ValueError as error:
        raise RuleViolation.single(
            "document", "invalid_json", f"The {what} is not valid JSON: {error}."
        ) from None
    if duplicates:
        raise RuleViolation(
            Problem(
                "document",
                "duplicate_key",
                f"The key '{key}' appears twice in the same JSON object; each field is given once.",
            )
            for key in dict.fromkeys(duplicates)
        )
    check(decoded)
    return decoded
