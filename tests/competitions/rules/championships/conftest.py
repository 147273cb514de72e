"""Fixtures of the championship rules tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from competitions.rules.championships.player_facts import PlayerFacts
from competitions.rules.championships.seasons import Season
from tests.competitions.rules.championships.player_facts import make_player


@pytest.fixture
def season() -> Season:
    return Season.starting_in(2025)


@pytest.fixture
def player() -> Callable[..., PlayerFacts]:
    """A factory of PlayerFacts, licensed in club C01 of committee R01 by default."""
    return make_player
