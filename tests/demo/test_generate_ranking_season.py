"""``manage.py generate_ranking_season``, the benchmarks' synthetic season, at a small
size: it must keep up with the schema (a new NOT NULL column broke it once, unseen until a
benchmark ran), and what it writes must rank."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from competitions.models import Allocation
from federation.models import Licence, Season
from rankings.models import SeasonRanking

pytestmark = pytest.mark.django_db


def test_a_small_synthetic_season_is_generated_once():
    out = StringIO()
    call_command("generate_ranking_season", players=300, allocations=2_000, year=2190,
                 stdout=out)  # fmt: skip
    season = Season.objects.get(name="2190-2191")
    previous = Season.objects.get(name="2189-2190")
    assert Licence.objects.filter(season=season).count() == 300
    assert Allocation.objects.filter(season=season).count() == 2_000
    assert SeasonRanking.objects.get(season=previous).official is not None
    call_command("generate_ranking_season", players=300, allocations=2_000, year=2190,
                 stdout=out)  # fmt: skip
    assert Allocation.objects.filter(season=season).count() == 2_000  # nothing added
    assert "already has its allocations" in out.getvalue()
