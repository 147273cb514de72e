"""Every problem of a file in one pass: structure, registry and rules together, each
mistake once, where it is in the file."""

from __future__ import annotations

import csv
import io

import pytest

from competitions.rules.results import LicenceStatus, validate
from competitions.rules.results.csv_format import read_csv
from competitions.rules.results.json_format import read_json
from core.problems import RuleViolation
from tests.competitions.rules.results.licences import licensed
from tests.competitions.rules.results.mistakes import excel_csv, with_mistakes
from tests.competitions.rules.results.refusals import refusal


def registry_names(results) -> dict[int, str]:
    return {
        p["licence_number"]: p["name"]
        for entry in results["entries"]
        for p in entry["players"]
        if p["licence_number"] is not None
    }


def check(reading, results, **options):
    names = registry_names(results)
    return validate(
        reading.document,
        format="individual",
        licences=dict.fromkeys(names, LicenceStatus.LICENSED),
        registry_names=registry_names(results),
        more_problems=reading.problems,
        **options,
    )


def test_three_mistakes_of_three_kinds_are_reported_together_once_each(results):
    mistakes = with_mistakes(results)
    reading = read_csv(mistakes.text.encode("cp1252"))
    assert reading.problems == ()
    assert refusal(lambda: check(reading, results)) == [
        (f"lines[{mistakes.renamed_line}].licence_number", "licence_name_mismatch"),
        (f"lines[{mistakes.unbalanced_line}].score", "table_scores_do_not_sum_to_zero"),
        (f"lines[{mistakes.misplaced_line}].place", "wrong_place"),
    ]


def test_a_name_confirmed_is_no_longer_a_problem_and_is_returned(results):
    mistakes = with_mistakes(results)
    reading = read_csv(mistakes.text.encode())
    with pytest.raises(RuleViolation) as refused:
        check(reading, results, confirmed=frozenset({mistakes.licence_number}))
    assert "licence_name_mismatch" not in {p.code for p in refused.value.problems}
    text = excel_csv(results).replace(mistakes.registry_name, mistakes.written_name, 1)
    validated = check(read_csv(text.encode()), results, confirmed={mistakes.licence_number})
    [confirmation] = validated.confirmations
    assert confirmation.licence_number == mistakes.licence_number
    assert confirmation.name_in_file == mistakes.written_name
    assert confirmation.registry_name == mistakes.registry_name


def test_a_cell_that_cannot_be_read_hides_nothing_else_and_causes_nothing_else(results):
    rows = list(csv.reader(io.StringIO(excel_csv(results)), delimiter=";"))
    col = {name: i for i, name in enumerate(rows[0])}
    position = next(i for i, row in enumerate(rows) if row[col["record"]] == "position")
    rows[position][col["score"]] = "12,5"  # a decimal comma: the line cannot be read
    placed_2 = next(i for i, row in enumerate(rows) if row[col["place"]] == "2")
    rows[placed_2][col["place"]] = "3"
    buffer = io.StringIO()
    csv.writer(buffer, delimiter=";").writerows(rows)
    reading = read_csv(buffer.getvalue().encode())
    assert [(p.field, p.code) for p in reading.problems] == [
        (f"lines[{position + 1}].score", "not_an_integer")
    ]
    # Its table does not balance and its player's total does not add up without the
    # score that could not be read: that is the same mistake, not reported again.
    assert refusal(lambda: check(reading, results)) == [
        (f"lines[{position + 1}].score", "not_an_integer"),
        (f"lines[{placed_2 + 1}].place", "wrong_place"),
    ]


def test_position_lines_of_a_missing_player_are_one_problem(results):
    text = excel_csv(results)
    lines = text.split("\r\n")
    number = str(results["entries"][0]["players"][0]["licence_number"])
    player = next(i for i, line in enumerate(lines) if line.startswith("player;"))
    lines[player] = lines[player].replace(number, "999999", 1)
    reading = read_csv("\r\n".join(lines).encode())
    [problem] = reading.problems
    assert problem.code == "position_player_not_found"
    assert problem.params["lines"] == ", ".join(
        str(i + 1)
        for i, line in enumerate(lines)
        if line.startswith("position;") and number in line
    )


def test_json_is_read_as_far_as_it_can_be_and_located_as_sent(results):
    results["entries"][1]["total"] = "12"  # cannot be read: entry 2 is left out
    misplaced = next(i for i, e in enumerate(results["entries"]) if e["place"] > 3 and i != 1)
    results["entries"][misplaced]["place"] = 1  # and this one is misplaced
    reading = read_json(results)
    assert [(p.field, p.code) for p in reading.problems] == [("entries[1].total", "not_an_integer")]
    assert len(reading.document.entries) == len(results["entries"]) - 1
    problems = refusal(lambda: check(reading, results))
    assert problems[0] == ("entries[1].total", "not_an_integer")
    assert (f"entries[{misplaced}].place", "wrong_place") in problems
    assert not {code for _, code in problems} & {
        "first_session_players_mismatch",
        "totals_do_not_sum_to_zero",
        "table_scores_do_not_sum_to_zero",
        "below_minimum_participation",
    }


def test_an_unknown_licence_number_is_refused_a_player_without_one_is_not(results):
    reading = read_csv(excel_csv(results).encode())
    statuses = licensed(results)
    first = results["entries"][0]["players"][0]["licence_number"]
    statuses[first] = LicenceStatus.UNKNOWN
    with pytest.raises(RuleViolation) as refused:
        validate(reading.document, format="individual", licences=statuses)
    assert [(p.code, p.params["licence_number"]) for p in refused.value.problems] == [
        ("unknown_licence_number", first)
    ]


def test_a_name_refusal_words_the_registrys_name_as_the_reader_may_read_it(results):
    """``names_shown``: the name a refusal gives in place of the registry's (a player the
    reader may not read by name); the comparison is still with the registry's name."""
    mistakes = with_mistakes(results)
    reading = read_csv(mistakes.text.encode())
    shown = {mistakes.licence_number: "joueur ayant demandé l'anonymat"}
    with pytest.raises(RuleViolation) as refused:
        check(reading, results, names_shown=shown)
    [problem] = [p for p in refused.value.problems if p.code == "licence_name_mismatch"]
    assert problem.params["registry_name"] == "joueur ayant demandé l'anonymat"
    assert mistakes.registry_name not in problem.message
    assert mistakes.registry_name not in str(problem.params)
