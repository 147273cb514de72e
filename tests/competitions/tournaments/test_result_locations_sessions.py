"""A problem in a session's list of entries (eliminations) is said in words on the pages."""

from __future__ import annotations

from django.utils import translation

from competitions.tournaments.result_locations import describe


def test_a_session_entry_is_described_in_words():
    sent = {"sessions": [{"number": 1}, {"number": 2, "entries": [{"number": 7, "score": 3}]}]}
    with translation.override("fr"):
        words = describe("sessions[1].entries[0].carried", sent)
    assert words == "séance 2, inscrit 7, champ «\xa0carried\xa0»"
