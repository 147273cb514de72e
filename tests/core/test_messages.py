"""core.messages: French by code, English on request, every gap found in strict mode."""

from __future__ import annotations

import pytest
from django.test import override_settings

from core import errors
from core.messages import (
    MissingFrenchText,
    error_message,
    french,
    french_catalogue,
    localize,
    problem_message,
)
from core.problems import Problem


def test_a_service_error_is_french_by_default_and_english_on_request():
    refusal = errors.PermissionDenied("Only staff may do this.")
    assert error_message(refusal, language="fr") == "Vous n’avez pas le droit de faire cela."
    assert error_message(refusal, language="en") == "Only staff may do this."
    assert error_message(refusal, language="en-gb") == "Only staff may do this."


def test_params_fill_the_french_text_with_french_numbers(monkeypatch):
    monkeypatch.setitem(
        french_catalogue(), "demo_sum", "la table {table} totalise {sum} points ({ratio})"
    )
    problem = Problem(
        "sessions[0]", "demo_sum", "Table 3 sums to 20.", {"table": 3, "sum": 20, "ratio": 0.5}
    )
    assert problem_message(problem, language="fr") == "la table 3 totalise 20 points (0,5)"
    assert problem_message(problem, language="en") == "Table 3 sums to 20."


def test_params_do_not_change_what_a_problem_equals():
    assert Problem("a", "b", "c", {"x": 1}) == Problem("a", "b", "c")
    assert hash(Problem("a", "b", "c", {"x": 1})) == hash(Problem("a", "b", "c"))


def test_strict_mode_refuses_a_code_without_french_text():
    with pytest.raises(MissingFrenchText, match="no_such_code"):
        french("no_such_code", "English.")


def test_strict_mode_refuses_a_placeholder_without_value(monkeypatch):
    monkeypatch.setitem(french_catalogue(), "demo_missing", "table {table}")
    with pytest.raises(MissingFrenchText, match="table"):
        localize("demo_missing", "Table.", {}, language="fr")


@override_settings(MESSAGES_STRICT=False)
def test_outside_strict_mode_a_gap_falls_back_without_failing(monkeypatch):
    assert french("no_such_code", "English.") == "English."
    monkeypatch.setitem(french_catalogue(), "demo_missing", "table {table}")
    assert localize("demo_missing", "Table.", {}, language="fr") == "table …"
