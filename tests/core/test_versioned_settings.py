"""One store for the four per-season settings: version 1 from the default on first read,
the publish permission checked by the store before anything is read, versions numbered
under the scope's lock, parsed versions read once."""

from __future__ import annotations

import pytest

from competitions.championships.championship_settings import championship_rules_update
from competitions.championships.regional import regional_rules_publish
from competitions.championships.settings_versions import (
    CHAMPIONSHIP_RULES,
    championship_rules_in_force,
    regional_rules_in_force,
)
from competitions.models import Championship, RegionalChampionship, RulebookVersion
from competitions.rulebooks import rulebook_in_force, rulebook_update
from competitions.rules.championships.championship_rules import ChampionshipRules
from competitions.rules.rulebook import Rulebook
from core.errors import PermissionDenied
from core.problems import RuleViolation
from core.versioned_settings import settings_in_force
from rankings.series_policies import series_policy_in_force, series_policy_update


@pytest.fixture
def duo(registry):
    championship = Championship.objects.create(season=registry.season, kind="duo")
    return RegionalChampionship.objects.create(
        championship=championship, committee=registry.committees[1]
    )


def test_the_first_read_stores_the_default_as_version_1_once(registry):
    first, rulebook = rulebook_in_force(season=registry.season)
    again, cached = rulebook_in_force(season=registry.season)
    assert (first.pk, first.version, rulebook) == (again.pk, 1, Rulebook.default())
    assert cached is rulebook  # a version is parsed once
    assert RulebookVersion.objects.filter(season=registry.season).count() == 1
    version, rules = championship_rules_in_force(season=registry.season, kind="seniors")
    assert (version.version, rules) == (1, ChampionshipRules.current("seniors"))
    assert settings_in_force(CHAMPIONSHIP_RULES, scope={"season": registry.season, "kind": "duo"})


def test_regional_rules_have_no_default(duo):
    assert regional_rules_in_force(duo) is None


@pytest.mark.parametrize("role", ["player", "club_manager", "zone_staff"])
def test_the_store_refuses_who_may_not_publish_before_reading_anything(registry, duo, role):
    by = registry.users[role]
    garbage = {"not": "a setting"}
    publications = [
        lambda: rulebook_update(season=registry.season, data=garbage, by=by),
        lambda: series_policy_update(season=registry.season, data=garbage, by=by),
        lambda: championship_rules_update(championship=duo.championship, data=garbage, by=by),
    ]
    if role != "zone_staff":  # the zone's staff cover its committees
        publications.append(lambda: regional_rules_publish(regional=duo, data=garbage, by=by))
    for publish in publications:
        with pytest.raises(PermissionDenied):
            publish()


def test_versions_are_numbered_and_an_invalid_one_is_not_stored(registry):
    staff = registry.users["federation_staff"]
    data = Rulebook.default().to_dict()
    data["floor"] = 40
    assert rulebook_update(season=registry.season, data=data, by=staff).version == 1
    data["floor"] = 30
    second = rulebook_update(season=registry.season, data=data, by=staff, note="floor 30")
    assert (second.version, second.note, second.created_by) == (2, "floor 30", staff)
    with pytest.raises(RuleViolation):
        rulebook_update(season=registry.season, data={**data, "floor": "low"}, by=staff)
    version, rulebook = rulebook_in_force(season=registry.season)
    assert (version.pk, rulebook.floor) == (second.pk, 30)
    policy, _ = series_policy_in_force(season=registry.season)
    assert policy.version == 1
