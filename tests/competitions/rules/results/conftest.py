"""Fixtures of the results tests: a small played tournament and its results document."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from tests.competitions.rules.results.tournament_builder import Tournament, play


@pytest.fixture
def tournament() -> Tournament:
    """12 players at 3 tables, 2 sessions of 2 positions of 3 deals, one late arrival."""
    return play(random.Random(7), players=12, sessions=2, positions=2, deals=3, penalties=1)


@pytest.fixture
def results(tournament: Tournament) -> dict[str, Any]:
    """A valid individual results document (JSON values), fresh for each test."""
    return copy.deepcopy(tournament.results_document())
