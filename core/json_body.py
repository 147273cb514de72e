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
        {"max_depth": MAX_DEPTH},
    )


def _path(chain: tuple | None) -> str:
    """The dotted path of a node from its chain of (parent chain, key) pairs."""
    keys: list[str | int] = []
    while chain is not None:
        chain, key = chain
        keys.append(key)
    where = ""
    for key in reversed(keys):
        where = _join(where, key)
    return where


def check(value: Any, where: str = "", *, nul: bool = True) -> None:
    """Refuse ``value`` nested deeper than :data:`MAX_DEPTH` or holding a NUL character
    (``nul=False``: the caller knows there is none, only the depth is checked).

    One pass over the containers only; a path is spelled out only for a problem."""
    problems: list[Problem] = []
    root: tuple | None = (None, where) if where else None
    stack: list[tuple[Any, tuple | None, int]] = (
        [(value, root, 1)] if isinstance(value, dict | list) else []
    )

    def null_character(chain: tuple | None, what: str) -> None:
        problems.append(
            Problem(
                _path(chain) or "document",
                "null_character",
                f"This {what} holds a NUL character (\\u0000), which is not accepted.",
            )
        )

    if nul and isinstance(value, str) and NUL in value:
        null_character(root, "text")
    while stack:
        item, chain, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise RuleViolation([*problems, too_deep(_path(chain))])
        if isinstance(item, dict):
            for key, child in item.items():
                if nul and isinstance(key, str) and NUL in key:
                    null_character((chain, key), "key")
                if isinstance(child, dict | list):
                    stack.append((child, (chain, key), depth + 1))
                elif nul and isinstance(child, str) and NUL in child:
                    null_character((chain, key), "text")
        else:
            for index, child in enumerate(item):
                if isinstance(child, dict | list):
                    stack.append((child, (chain, index), depth + 1))
                elif nul and isinstance(child, str) and NUL in child:
                    null_character((chain, index), "text")
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
            {"line": error.lineno, "column": error.colno},
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
                {"key": key},
            )
            for key in dict.fromkeys(duplicates)
        )
    # A NUL can only come from a \u0000 escape (JSON refuses it raw inside a string).
    check(decoded, nul="\\u0000" in text)
    return decoded
