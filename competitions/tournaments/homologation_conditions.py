"""The homologation conditions of chapter 5, judged on a tournament's
declaration and one of its result revisions (checked at submission, and
again at homologation under the rulebook then in force)."""

from __future__ import annotations

from competitions.models import OrganizerKind, ResultPlayer, ResultRevision, Stage, Tournament
from core.problems import RuleViolation
from core.vocabulary import Format
from federation.models import ArbiterAccreditation, ClubAffiliation
from rankings.rules.homologation import TournamentFacts, check_homologation
from rankings.rules.rulebook import EventKind, Organizer, Rulebook


def homologation_facts(tournament: Tournament, revision: ResultRevision) -> TournamentFacts:
    """The facts chapter 5 judges, read from the declaration and the revision."""
    if tournament.organizer_kind == OrganizerKind.CLUB:
        # A club-organised tournament has its club (a database constraint); the stubs
        # see the nullable column.
        affiliated = ClubAffiliation.objects.filter(
            club_id=tournament.organizer_club_id,  # type: ignore[misc]
            season_id=tournament.season_id,
        ).exists()
        organizer = Organizer.AFFILIATED_CLUB if affiliated else Organizer.UNAFFILIATED_CLUB
    else:
        organizers: dict[str, Organizer] = {
            OrganizerKind.FEDERATION: Organizer.FFT,
            OrganizerKind.ZONE: Organizer.ZONE,
            OrganizerKind.COMMITTEE: Organizer.REGIONAL_COMMITTEE,
        }
        organizer = organizers[tournament.organizer_kind]
    arbiter_number = tournament.arbiter.licence_number
    arbiter_played = ResultPlayer.objects.filter(
        revision=revision, licence_number=arbiter_number
    ).exists()
    sessions = list(revision.sessions.all())
    first = sessions[0]
    return TournamentFacts(
        organizer=organizer,
        format=Format(tournament.format),
        event_kind=EventKind.FREE_TOURNAMENT
        if tournament.stage == Stage.ORDINARY
        else EventKind.OFFICIAL_CHAMPIONSHIP,
        arbiter_is_official=ArbiterAccreditation.objects.filter(
            player_id=tournament.arbiter_id, season_id=tournament.season_id
        ).exists(),
        arbiter_plays=tournament.arbiter_plays or arbiter_played,
        single_venue=True,  # a declaration names one venue
        simultaneous=True,  # and one date: its sessions are played there, together
        entries=revision.entries.count(),
        table_sizes=(3,) * first.tables_of_three + (4,) * (first.tables - first.tables_of_three),
    )


def require_conditions(
    tournament: Tournament, revision: ResultRevision, rulebook: Rulebook
) -> None:
    """Raise RuleViolation listing every unmet homologation condition."""
    problems = check_homologation(homologation_facts(tournament, revision), rulebook)
    if problems:
        raise RuleViolation(problems)
