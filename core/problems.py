"""Located problems with an input, shared by every pure rules package.

A rule that refuses an input raises :class:`RuleViolation` carrying one or
more :class:`Problem`. Each problem says *where* (``field``, a dotted path
such as ``deals[2].points``), *what* (``code``, stable and machine-readable)
and *why* (``message``, for a person). The API layer turns a
``RuleViolation`` into a 400 with the same shape for every endpoint.

No Django import here: the pure packages (``competitions.rules.engine``,
``competitions.rules.championships``, ``competitions.rules.pcn``, ``rankings.rules``)
depend on this module.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with an input, and where."""

    field: str
    code: str
    message: str
    params: Mapping[str, object] = dataclasses.field(
        default_factory=dict, compare=False, hash=False, repr=False
    )
    """The values the message names (``{"table": 3, "sum": 20}``), so that the Django
    layer can say the same thing in French by ``code`` (:mod:`core.messages`); the
    ``message`` itself stays English developer text."""


class RuleViolation(ValueError):
    """An input the regulations refuse; carries every problem found."""

    def __init__(self, problems: Problem | Iterable[Problem]) -> None:
        self.problems: tuple[Problem, ...] = (
            (problems,) if isinstance(problems, Problem) else tuple(problems)
        )
        if not self.problems:
            raise ValueError("RuleViolation needs at least one problem")
        super().__init__("; ".join(f"{p.field}: {p.message}" for p in self.problems))

    @classmethod
    def single(
        cls, field: str, code: str, message: str, params: Mapping[str, object] | None = None
    ) -> RuleViolation:
        return cls(Problem(field=field, code=code, message=message, params=params or {}))
