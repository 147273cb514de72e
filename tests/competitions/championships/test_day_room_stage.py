"""A championship stage's first session drawn on the day: article 25's seating, nothing else."""

import pytest

from competitions.day import room
from competitions.models import ChampionshipEntry, ChampionshipStage, EntryMember, TournamentEntry
from competitions.rules.day.layout import seating_from_json
from core.problems import RuleViolation


@pytest.fixture
def field(api, as_user, finals, enter_all, players):
    """Twenty players of club 101 entered in committee 1's individual regional final, and
    their entries on the day, present."""
    numbers = players(20, 101)
    as_user("committee_staff")
    enter_all(api, finals["individual"], [[n] for n in numbers])
    stage = ChampionshipStage.objects.get(pk=finals["individual"])
    for entry in ChampionshipEntry.objects.filter(stage=stage):
        day = TournamentEntry.objects.create(
            tournament=stage.tournament, number=entry.number, championship_entry=entry,
            present=True,
        )  # fmt: skip
        for member in entry.players.all():
            EntryMember.objects.create(entry=day, tournament=stage.tournament, player=member.player)
    return stage


def test_a_stage_s_first_session_is_seated_by_article_25(registry, field):
    tournament = field.tournament
    arbiter = registry.users["arbiter"]
    with pytest.raises(RuleViolation) as refused:
        room.session_draw(tournament=tournament, positions=4, deals_per_position=5, by=arbiter)
    assert [p.code for p in refused.value.problems] == ["day_room_placement_not_allowed"]
    session = room.session_draw(
        tournament=tournament,
        positions=4,
        deals_per_position=5,
        placement="championship",
        seed=3,
        by=arbiter,
    )
    assert session.placement == "championship"
    seating = seating_from_json(session.seating)
    assert sorted(h.entry for h in seating.values()) == sorted(
        tournament.day_entries.values_list("number", flat=True)
    )
