"""Shared builders for the results tests: small played tournaments and refusal helpers."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest

from competitions.rules.results import LicenceStatus, ResultsDocument, parse_json
from core.problems import RuleViolation
from tests.competitions.rules.results.tournament_builder import Tournament, play


def individual_tournament(seed: int = 7) -> Tournament:
    """12 players at 3 tables, 2 sessions of 2 positions of 3 deals, one late arrival."""
    return play(random.Random(seed), players=12, sessions=2, positions=2, deals=3, penalties=1)


def licensed(document: ResultsDocument | dict[str, Any]) -> dict[int, LicenceStatus]:
    """Every licence number of ``document`` licensed for the season."""
    if isinstance(document, dict):
        document = parse_json(document)
    return {
        player.licence_number: LicenceStatus.LICENSED
        for entry in document.entries
        for player in entry.players
        if player.licence_number is not None
    }


def refusal(action: Callable[[], object]) -> list[tuple[str, str]]:
    """The (field, code) of every problem ``action`` raises."""
    with pytest.raises(RuleViolation) as refused:
        action()
    return [(problem.field, problem.code) for problem in refused.value.problems]


def messages(action: Callable[[], object]) -> list[str]:
    with pytest.raises(RuleViolation) as refused:
        action()
    return [problem.message for problem in refused.value.problems]


@pytest.fixture
def tournament() -> Tournament:
    return individual_tournament()


@pytest.fixture
def results(tournament: Tournament) -> dict[str, Any]:
    """A valid individual results document (JSON values), fresh for each test."""
    return copy.deepcopy(tournament.results_document())
