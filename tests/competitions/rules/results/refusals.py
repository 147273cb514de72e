"""What a refused action says: the (field, code) or the message of every problem
of the RuleViolation it raises."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from core.problems import RuleViolation


def refusal(action: Callable[[], object]) -> list[tuple[str, str]]:
    """The (field, code) of every problem ``action`` raises."""
    with pytest.raises(RuleViolation) as refused:
        action()
    return [(problem.field, problem.code) for problem in refused.value.problems]


def messages(action: Callable[[], object]) -> list[str]:
    """The message of every problem ``action`` raises."""
    with pytest.raises(RuleViolation) as refused:
        action()
    return [problem.message for problem in refused.value.problems]
