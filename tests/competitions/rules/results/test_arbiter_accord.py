"""Whether an abandon had the arbiter's accord (chapter 4: « La personne qui quitte un tournoi
en cours sans accord de l'arbitre sera suspendue … 12 mois »), in every form of the results,
without changing the hash of results that do not say it."""

from __future__ import annotations

import copy

import pytest

from competitions.rules.results import parse_csv, parse_json, results_sha256, validate
from competitions.rules.results.csv_writer import write_csv
from competitions.rules.results.score_sheets import parse_score_sheets
from tests.competitions.rules.results.licences import licensed
from tests.competitions.rules.results.refusals import refusal
from tests.competitions.rules.results.test_score_sheets import level_leaders


def last_abandons(results, **accord):
    """The results with the last-placed entry abandoning (it is already last)."""
    changed = copy.deepcopy(results)
    last = max(changed["entries"], key=lambda e: e["place"])
    assert sum(e["place"] == last["place"] for e in changed["entries"]) == 1
    last.update(abandoned=True, **accord)
    return changed, last["number"]


@pytest.mark.parametrize("accord", [True, False])
def test_json_says_whether_the_arbiter_agreed(results, accord):
    changed, number = last_abandons(results, arbiter_accord=accord)
    document = parse_json(changed)
    entry = next(e for e in document.entries if e.number == number)
    assert (entry.abandoned, entry.arbiter_accord) == (True, accord)
    assert entry.left_without_accord is (not accord)
    validate(document, format="individual", licences=licensed(document))


def test_an_abandon_that_does_not_say_keeps_its_hash(results):
    """Results written before the distinction read as « not said » and hash as they did."""
    changed, _ = last_abandons(results)
    said, _ = last_abandons(results, arbiter_accord=None)
    assert results_sha256(parse_json(changed)) == results_sha256(parse_json(said))
    assert not any(e.left_without_accord for e in parse_json(changed).entries)
    without, _ = last_abandons(results, arbiter_accord=False)
    assert results_sha256(parse_json(without)) != results_sha256(parse_json(changed))


@pytest.mark.parametrize("accord", [True, False, None])
def test_csv_carries_the_accord_and_hashes_like_json(results, accord):
    changed, number = last_abandons(results, arbiter_accord=accord)
    document = parse_json(changed)
    written = write_csv(document)
    assert ("arbiter_accord" in written.splitlines()[0]) is (accord is not None)
    again = parse_csv(written)
    assert results_sha256(again) == results_sha256(document)
    assert next(e for e in again.entries if e.number == number).arbiter_accord is accord


def test_csv_in_french_names_the_column():
    header = (
        "type;participant;place;total du participant;abandon;accord de l’arbitre;numéro de licence"
    )
    document = parse_csv(f"{header}\njoueur;1;1;0;1;0;10434\n".encode())
    assert document.entries[0].arbiter_accord is False


def test_the_accord_is_said_only_of_an_abandon(results):
    changed = copy.deepcopy(results)
    changed["entries"][0]["arbiter_accord"] = False
    document = parse_json(changed)
    problems = refusal(lambda: validate(document, format="individual", licences=licensed(document)))
    assert ("entries[0].arbiter_accord", "arbiter_accord_without_abandon") in problems


def test_a_bad_accord_is_refused_where_it_is(results):
    changed, _ = last_abandons(results, arbiter_accord="non")
    index = next(i for i, e in enumerate(changed["entries"]) if e.get("abandoned"))
    assert (f"entries[{index}].arbiter_accord", "wrong_type") in refusal(
        lambda: parse_json(changed)
    )


def test_score_sheets_entries_say_it_too():
    sheets = level_leaders()
    sheets["entries"] = [
        {"number": n, "players": [{"licence_number": n}], "abandoned": n == 8,
         **({"arbiter_accord": False} if n == 8 else {})}
        for n in range(1, 9)
    ]  # fmt: skip
    document = parse_score_sheets(sheets, format="individual")
    assert [e.number for e in document.entries if e.left_without_accord] == [8]
