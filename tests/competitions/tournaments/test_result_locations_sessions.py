"""A problem in a session's list of entries (eliminations) is said in words on the pages."""

from __future__ import annotations

from django.utils import translation

from competitions.tournaments.result_locations import describe


def test_a_session_entry_is_described_in_words():
    sent = {"sessions": [{"number": 1}, {"number": 2, "entries": [{"number": 7, "score": 3}]}]}
    with translation.override("fr"):
        words = describe("sessions[1].entries[0].carried", sent)
    assert words == "séance 2, inscrit 7, champ «\xa0carried\xa0»"


def test_a_cut_between_positions_is_described_in_words():
    sent = {
        "sessions": [
            {"number": 1},
            {"number": 2, "cuts": [{"after_position": 3, "entries": [{"number": 9}]}]},
        ]
    }
    with translation.override("fr"):
        words = describe("sessions[1].cuts[0].entries[0].carried", sent)
        sheets = describe("cuts[1].points_divisor", {"cuts": [{}, {"session": 2}]})
        within = describe("cuts[0]", {"cuts": [{"session": 2, "after_position": 1}]})
    assert words == "séance 2, coupure après la position 3, inscrit 9, champ «\xa0carried\xa0»"
    assert sheets == "coupure avant la séance 2, champ «\xa0points_divisor\xa0»"
    assert within == "coupure de la séance 2 après la position 1"
