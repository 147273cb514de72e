"""A championship stage's tournament takes its day entries through the championship's own
service (who may enter whom, eligibility on the stage's day), mirrored into the day's
entries with the same number; entries made at the championships desk are brought in; a
player cannot enter a stage by themself; an ineligible or out-of-scope entry is refused by
the championship and nothing is written on either side."""

from __future__ import annotations

import pytest

from competitions.championships.entries import EntryRequest as StageRequest
from competitions.championships.entries import entries_register
from competitions.day import entries
from competitions.day.entries import EntryRequest
from competitions.models import ChampionshipEntry, ChampionshipStage, EntryState, TournamentEntry
from core.errors import NotFound, PermissionDenied
from core.problems import RuleViolation

pytestmark = pytest.mark.django_db


@pytest.fixture
def duo_final(finals) -> ChampionshipStage:
    return ChampionshipStage.objects.select_related("tournament").get(pk=finals["duo"])


def test_a_stage_entry_goes_through_the_championship_and_is_mirrored(registry, duo_final, players):
    a, b = players(2, 101)
    tournament = duo_final.tournament
    entry = entries.entry_enter(
        tournament=tournament,
        request=EntryRequest(licence_numbers=(a, b)),
        by=registry.users["committee_staff"],
    )
    stage_entry = ChampionshipEntry.objects.get(stage=duo_final)
    assert entry.championship_entry == stage_entry
    assert entry.number == stage_entry.number
    assert entry.state == EntryState.ENTERED
    assert [m.player.licence_number for m in entry.members.order_by("order")] == [a, b]
    # withdrawn here, withdrawn in the championship
    entries.entry_withdraw(entry=entry, by=registry.users["committee_staff"])
    stage_entry.refresh_from_db()
    assert stage_entry.status == "withdrawn"


def test_the_championship_refuses_and_nothing_is_written(registry, duo_final, players):
    a, b = players(2, 201)  # committee 2's players in committee 1's regional final
    with pytest.raises(RuleViolation) as refused:
        entries.entry_enter(
            tournament=duo_final.tournament,
            request=EntryRequest(licence_numbers=(a, b)),
            by=registry.users["federation_staff"],
        )
    assert {p.code for p in refused.value.problems} == {"wrong_committee"}
    assert all(p.field.startswith("licence_numbers[") for p in refused.value.problems)
    with pytest.raises(RuleViolation) as refused:
        entries.entry_enter(
            tournament=duo_final.tournament,
            request=EntryRequest(licence_numbers=(a,), names=("Sans Licence",)),
            by=registry.users["federation_staff"],
        )
    assert {p.code for p in refused.value.problems} == {"day_stage_entry_by_licence"}
    assert not ChampionshipEntry.objects.exists()
    assert not TournamentEntry.objects.exists()


def test_a_player_does_not_enter_a_stage_by_themself(registry, duo_final, players):
    (partner,) = players(1, 101)
    with pytest.raises(PermissionDenied):
        entries.entry_enter(
            tournament=duo_final.tournament,
            request=EntryRequest(licence_numbers=(1001, partner)),
            by=registry.users["player"],
        )
    assert not TournamentEntry.objects.exists()


def test_desk_entries_are_brought_into_the_day(registry, duo_final, players):
    a, b, c, d = players(4, 101)
    made = entries_register(
        stage=duo_final,
        requests=[StageRequest((a, b)), StageRequest((c, d))],
        by=registry.users["committee_staff"],
    )
    with pytest.raises(NotFound):  # a club manager does not run a committee's stage
        entries.stage_entries_mirror(
            tournament=duo_final.tournament, by=registry.users["club_manager"]
        )
    changed = entries.stage_entries_mirror(
        tournament=duo_final.tournament, by=registry.users["committee_staff"]
    )
    assert changed == 2
    numbers = list(
        TournamentEntry.objects.filter(tournament=duo_final.tournament).values_list(
            "number", flat=True
        )
    )
    assert numbers == [m.entry.number for m in made]
    assert (
        entries.stage_entries_mirror(
            tournament=duo_final.tournament, by=registry.users["committee_staff"]
        )
        == 0
    )
