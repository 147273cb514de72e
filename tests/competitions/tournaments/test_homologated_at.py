"""``Tournament.homologated_at``: set by the first homologation, kept by a correction
(the day a tournament counts from in the ranking as of a date, rankings/as_of.py)."""

from __future__ import annotations

import pytest

from competitions.homologation import tournament_correct, tournament_homologate
from competitions.models import Tournament

pytestmark = pytest.mark.django_db


def test_the_first_homologation_sets_it_and_a_correction_keeps_it(
    registry, submitted_tournament, twelve_results
):
    staff = registry.users["federation_staff"]
    assert submitted_tournament.homologated_at is None
    tournament_homologate(tournament=submitted_tournament, by=staff)
    first = Tournament.objects.get(pk=submitted_tournament.pk).homologated_at
    assert first is not None
    swapped = [700, 900, 500, 300, 100, 50, 0, -50, -100, -300, -900, -1200]
    tournament_correct(
        tournament=submitted_tournament,
        content=twelve_results(swapped),
        source="json",
        reason="Totaux des deux premiers inversés",
        by=staff,
    )
    corrected = Tournament.objects.get(pk=submitted_tournament.pk)
    assert corrected.homologated_revision.number == 2
    assert corrected.homologated_at == first
