"""The seeded demo's tournaments, rankings and championships: loaded through the services,
in every state, with rankings for both seasons, and something for each demo user."""

from __future__ import annotations

import unicodedata
from collections import Counter

import pytest

from competitions.championships.qualification_status import qualification_status
from competitions.models import (
    Allocation,
    Championship,
    ChampionshipEntry,
    ChampionshipStage,
    Qualification,
    RegionalRulesVersion,
    ResultRevision,
    Tournament,
    TournamentStatus,
)
from competitions.tournaments import access
from core.vocabulary import Format
from demo.tournaments import CORRECTION_REASONS, REFUSAL_REASONS, SAMPLE_REFERENCES
from federation.access import scope_of
from rankings.models import RankingEntry
from rankings.reads.selectors import LIVE, OFFICIAL, RankingFilter, ranking_for_season
from tests.demo.conftest import seeded_demo

pytestmark = pytest.mark.django_db
TOURNAMENTS = 30


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    yield from seeded_demo(django_db_blocker, tournaments=TOURNAMENTS, players=3000, clubs=100)


def states(season) -> Counter[str]:
    ordinary = Tournament.objects.filter(season=season, stage="ordinary")
    return Counter(ordinary.values_list("status", flat=True))


def test_both_seasons_have_homologated_tournaments_with_points(demo):
    for season in demo.registry.seasons:
        homologated = Tournament.objects.filter(season=season, status=TournamentStatus.HOMOLOGATED)
        assert homologated.count() >= 5
        points = Allocation.objects.filter(season=season, current=True, pcn__gt=0)
        assert points.values("tournament").distinct().count() == homologated.count()
    # Every format an ordinary tournament is played in.
    assert set(Tournament.objects.values_list("format", flat=True)) == set(Format)


def test_every_tournament_is_one_of_the_plan_and_went_through_the_services(demo):
    club_own = 5 + 7 + len(SAMPLE_REFERENCES) + 2  # the last two: the tournament day's
    ordinary = Tournament.objects.filter(stage="ordinary")
    assert ordinary.count() == TOURNAMENTS + club_own
    # Submitted through results_submit: every tournament past « declared » has a revision
    # whose rows were stored, and a history row per change of state.
    for tournament in ordinary.exclude(status=TournamentStatus.DECLARED):
        revision = tournament.revisions.order_by("number").first()
        assert revision is not None
        assert revision.entries.exists()
        assert tournament.history.count() >= 2


def test_results_pass_validation_without_warnings_but_for_guests(demo):
    stored = ResultRevision.objects.values_list("warnings", flat=True)
    codes = Counter(w["code"] for warnings in stored for w in warnings)
    assert set(codes) <= {"no_licence_number"}  # players without licence (guests)


def test_refused_tournaments_keep_their_reasons(demo):
    refused = Tournament.objects.filter(status=TournamentStatus.REFUSED)
    assert refused.exists()
    for tournament in refused:
        assert tournament.refusal_reasons
        assert set(tournament.refusal_reasons) <= set(REFUSAL_REASONS)
        assert not Allocation.objects.filter(tournament=tournament).exists()


def test_corrected_tournaments_keep_the_first_revision_and_its_points(demo):
    corrected = Tournament.objects.filter(
        status=TournamentStatus.HOMOLOGATED, homologated_revision__number=2
    )
    assert corrected.count() >= 2
    for tournament in corrected:
        second = tournament.homologated_revision
        assert second.reason in CORRECTION_REASONS
        assert second.sha256 != tournament.revisions.get(number=1).sha256
        assert Allocation.objects.filter(tournament=tournament, current=False).exists()
        current = Allocation.objects.filter(tournament=tournament, current=True)
        assert set(current.values_list("revision_id", flat=True)) == {second.pk}


def test_the_current_season_has_open_tournaments(demo):
    current = states(demo.registry.current_season)
    assert current[TournamentStatus.RESULTS_SUBMITTED] >= 1
    assert current[TournamentStatus.DECLARED] >= 1 + len(SAMPLE_REFERENCES)
    assert states(demo.registry.previous_season)[TournamentStatus.DECLARED] == 0


def test_the_club_finds_its_tournaments_in_every_state(demo):
    club_user = demo.registry.users["club"].user
    club = club_user.roles.get().club
    mine = Tournament.objects.filter(organizer_club=club)
    assert set(mine.values_list("status", flat=True)) == set(TournamentStatus)
    scope = scope_of(club_user)
    assert all(access.may_manage(scope, t) for t in mine)
    for fmt, reference in SAMPLE_REFERENCES.items():
        sample = mine.get(reference=reference)
        assert (sample.status, sample.format) == (TournamentStatus.DECLARED, fmt)


def test_committee_and_zone_staff_have_results_to_homologate(demo):
    awaiting = list(
        Tournament.objects.filter(status=TournamentStatus.RESULTS_SUBMITTED).select_related(
            "organizer_club__committee__zone", "organizer_committee__zone"
        )
    )
    for username in ("ccr", "zone", "admin"):
        scope = scope_of(demo.registry.users[username].user)
        assert any(access.may_homologate(scope, t) for t in awaiting), username


def test_official_ranking_of_the_previous_season_and_live_ranking_of_the_current(demo):
    previous, current = demo.registry.previous_season, demo.registry.current_season
    official = ranking_for_season(previous, OFFICIAL)
    live = ranking_for_season(current, LIVE)
    assert official is not None
    assert official.kind == OFFICIAL
    assert live is not None
    assert live.kind == LIVE
    assert RankingEntry.objects.filter(snapshot_id=live.snapshot_id).exists()  # provisional
    for ranking, season in ((official, previous), (live, current)):
        ranked = RankingEntry.objects.filter(snapshot_id=ranking.snapshot_id, season_pcn__gt=0)
        scored = Allocation.objects.filter(season=season, current=True, pcn__gt=0)
        assert ranked.count() == scored.values("player").distinct().count() > 0
    # The current season's ranking carries over from the published official one.
    assert RankingEntry.objects.filter(snapshot_id=live.snapshot_id, carried_pcn__gt=0).exists()


def test_joueur_has_results_and_points_in_both_seasons(demo):
    joueur = demo.registry.users["joueur"].user.player
    registry = demo.registry
    for season, kind in ((registry.previous_season, OFFICIAL), (registry.current_season, LIVE)):
        allocations = Allocation.objects.filter(player=joueur, season=season, current=True)
        assert allocations.count() >= 3
        ranking = ranking_for_season(season, kind)
        entry = RankingEntry.objects.get(snapshot_id=ranking.snapshot_id, player=joueur)
        assert entry.season_pcn == sum(a.pcn for a in allocations) > 0


def test_a_player_is_found_by_name_through_the_ranking_selector(demo):
    joueur = demo.registry.users["joueur"].user.player
    ranking = ranking_for_season(demo.registry.current_season, LIVE)
    # As a person types it: lower case, without accents, first name first.
    typed = unicodedata.normalize("NFKD", f"{joueur.first_name} {joueur.last_name}")
    query = typed.encode("ascii", "ignore").decode().lower()
    found = ranking.entries(RankingFilter(query=query)).page(0, 10_000)
    assert joueur.licence_number in {e.licence_number for e in found}
    assert ranking.entries(RankingFilter(query="zzzz nobody")).page(0, 1) == []


def test_championships_are_under_way(demo):
    current = demo.registry.current_season
    assert Championship.objects.filter(season=current).count() == 4
    versions = RegionalRulesVersion.objects.filter(regional__committee__number=1).select_related(
        "regional__championship"
    )
    assert versions.count() == 4
    # the zone finds the interclubs' rules awaiting its approval on the championships desk
    awaiting = [v.regional.championship.kind for v in versions if v.approved_at is None]
    assert awaiting == ["interclubs"]
    stages = ChampionshipStage.objects.select_related("tournament")
    assert stages.count() == 6
    played = stages.filter(tournament__status=TournamentStatus.HOMOLOGATED).order_by(
        "tournament__date"
    )
    assert [(s.championship.kind, s.kind) for s in played] == [
        ("duo", "regional_semi_final"),
        ("duo", "regional_final"),
    ]
    for stage in played:
        assert Allocation.objects.filter(tournament=stage.tournament, current=True).exists()
    # `ccr` finds the DUO regional final's three places to record (nothing recorded yet)
    status = qualification_status(played[1].championship)
    assert status.national is not None
    assert [q.right for q in status.national.qualified] == ["committee_quota"] * 3
    assert not Qualification.objects.exists()
    assert sum(s.entries.count() for s in stages) == sum(demo.championships.entries.values()) > 0
    # `joueur` finds an entry of their own (GET /api/championships/me/).
    joueur = demo.registry.users["joueur"].user.player
    assert ChampionshipEntry.objects.filter(players__player=joueur).exists()


def test_homologations_are_spread_over_the_season_for_the_ranking_as_of_a_date(demo):
    """Two days after each tournament was played (never later than now): the ranking
    as of a past day of the demo is not empty."""
    import datetime as dt

    from django.utils import timezone

    from rankings.season.as_of import PARIS

    homologated = Tournament.objects.filter(status=TournamentStatus.HOMOLOGATED)
    assert homologated.filter(homologated_at__isnull=True).count() == 0
    for tournament in homologated.exclude(championship_stage__isnull=False):
        at = dt.datetime.combine(tournament.date + dt.timedelta(days=2), dt.time(20), tzinfo=PARIS)
        assert tournament.homologated_at <= at
        if at < timezone.now() - dt.timedelta(hours=1):  # well before the demo was loaded
            assert tournament.homologated_at == at
    assert homologated.filter(homologated_at__lt=timezone.now() - dt.timedelta(days=30)).exists()


def test_the_demo_day_has_a_tournament_taking_entries_and_one_under_way(demo):
    from competitions.day.access import may_run_day
    from competitions.day.entries import EntryRequest, entry_enter
    from competitions.models import DealRecord, EntryState, PlayedSession
    from competitions.rules.day.layout import layout_from_json

    users = {name: d.user for name, d in demo.registry.users.items()}
    coming = Tournament.objects.get(reference="DEMO-JOUR-A-VENIR")
    today = Tournament.objects.get(reference="DEMO-JOUR-EN-COURS")
    assert coming.online_entries
    assert coming.date > today.date
    assert coming.day_entries.filter(state=EntryState.ENTERED).count() == 20
    assert demo.day.counts()["day: entries to the coming tournament"] == 20
    for tournament in (coming, today):
        assert tournament.arbiter_id == users["arbitre"].player_id
        assert may_run_day(users["arbitre"], tournament)
        assert may_run_day(users["club"], tournament)
        assert not may_run_day(users["joueur"], tournament)

    session = PlayedSession.objects.get(tournament=today, number=1)
    layout = layout_from_json(session.plan)
    assert sorted(t.size for t in layout.tables_at(1)) == [4, 4, 5, 5]
    assert today.day_entries.filter(present=True).count() == 18
    assert DealRecord.objects.filter(session=session).count() == 6
    assert today.day_entries.filter(members__player=users["joueur"].player).exists()

    # `joueur` enters the coming tournament himself, as the calendar's « S'inscrire » does
    entry = entry_enter(
        tournament=coming,
        request=EntryRequest(licence_numbers=(users["joueur"].player.licence_number,)),
        by=users["joueur"],
    )
    assert entry.state == EntryState.ENTERED
