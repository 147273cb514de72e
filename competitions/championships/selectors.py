"""Reads of the championships, shaped for the API and the services, without N+1."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping

from django.db.models import Prefetch, QuerySet

from competitions.models import (
    Championship,
    ChampionshipEntry,
    ChampionshipStage,
    CommitteeQuota,
    EntryPlayer,
    Qualification,
    RegionalChampionship,
    RegionalRulesVersion,
    ResultEntry,
    ResultPenalty,
    ResultPlayer,
    ResultRevision,
    ResultSession,
    StagePenalty,
    TeamFlag,
    TournamentStatus,
)
from competitions.rules.championships.stage_compliance import (
    CutPlayed,
    EntryPlayed,
    PenaltyPlayed,
    RecordedPenalty,
    RegisteredEntry,
    SessionPlayed,
    StageResults,
)
from competitions.rules.results.document import ResultsDocument

STAGE_RELATED = (
    "championship__season",
    "regional__committee__zone",
    "tournament__season",
    "tournament__arbiter",
    "tournament__organizer_committee",
    "tournament__homologated_revision",
    "rules_version",
)


def championships() -> QuerySet[Championship]:
    return Championship.objects.select_related("season").order_by("-season__start_date", "kind")


def championship_detail() -> QuerySet[Championship]:
    return championships().prefetch_related(
        Prefetch(
            "regionals",
            queryset=RegionalChampionship.objects.select_related("committee").order_by(
                "committee__number"
            ),
        ),
        Prefetch("stages", queryset=stages()),
        Prefetch(
            "quotas",
            queryset=CommitteeQuota.objects.select_related("committee").order_by(
                "committee__number"
            ),
        ),
    )


def regionals() -> QuerySet[RegionalChampionship]:
    return RegionalChampionship.objects.select_related(
        "championship__season", "committee__zone"
    ).prefetch_related(
        Prefetch(
            "rules_versions",
            queryset=RegionalRulesVersion.objects.select_related(
                "created_by", "approved_by"
            ).order_by("-version"),
        )
    )


def stages() -> QuerySet[ChampionshipStage]:
    """The stages with their tournaments and the tournaments' declared sessions."""
    return (
        ChampionshipStage.objects.select_related(*STAGE_RELATED)
        .prefetch_related("tournament__declared_sessions")
        .order_by("tournament__date", "pk")
    )


def active_players() -> Prefetch:
    return Prefetch(
        "players",
        queryset=EntryPlayer.objects.filter(active=True).select_related("player").order_by("order"),
        to_attr="active_players",
    )


def stage_entries(stage: ChampionshipStage) -> QuerySet[ChampionshipEntry]:
    return (
        ChampionshipEntry.objects.filter(stage=stage)
        .select_related("committee", "club", "qualification")
        .prefetch_related(
            active_players(),
            Prefetch("flags", queryset=TeamFlag.objects.filter(resolved_at=None), to_attr="open"),
        )
        .order_by("number")
    )


def quotas(championship: Championship) -> dict[int, int]:
    """Committee number → places."""
    return dict(
        CommitteeQuota.objects.filter(championship=championship).values_list(
            "committee__number", "places"
        )
    )


def recorded_qualifications(championship: Championship) -> QuerySet[Qualification]:
    return Qualification.objects.filter(championship=championship).select_related(
        "committee", "team_club", "team_committee", "source_stage__tournament"
    )


# ---------------------------------------------------------------------------------------------
# Results of stages, as the compliance check and the qualification read them


def registered_entries(stage_ids: Iterable[int]) -> dict[int, list[RegisteredEntry]]:
    """Stage id → its entries as entered (two queries). A forfeit or withdrawn entry keeps
    the players it had, so that its results are recognised and refused."""
    found: dict[int, list[RegisteredEntry]] = defaultdict(list)
    for entry in ChampionshipEntry.objects.filter(stage_id__in=list(stage_ids)).prefetch_related(
        Prefetch("players", queryset=EntryPlayer.objects.select_related("player"))
    ):
        rows = list(entry.players.all())
        if entry.status in ("eligible", "flagged"):
            rows = [p for p in rows if p.active]
        numbers = frozenset(p.player.licence_number for p in rows)
        found[entry.stage_id].append(RegisteredEntry(entry.number, numbers, entry.status))
    return found


def recorded_penalties(stage_ids: Iterable[int]) -> dict[int, list[RecordedPenalty]]:
    found: dict[int, list[RecordedPenalty]] = defaultdict(list)
    for stage_id, number, points, forfeit in StagePenalty.objects.filter(
        stage_id__in=list(stage_ids)
    ).values_list("stage_id", "player__licence_number", "points", "forfeit"):
        found[stage_id].append(RecordedPenalty(number, points, forfeit))
    return found


def results_of_document(document: ResultsDocument) -> StageResults:
    return StageResults(
        sessions=tuple(
            SessionPlayed(
                s.number,
                s.tables,
                s.deals,
                len(s.entries) if s.entries else None,
                s.points_divisor,
                tuple(
                    CutPlayed(c.after_position, len(c.entries), c.points_divisor) for c in s.cuts
                ),
            )
            for s in document.sessions
        ),
        entries=tuple(
            EntryPlayed(e.number, e.place, tuple(p.licence_number for p in e.players), e.abandoned)
            for e in document.entries
        ),
        penalties=tuple(
            PenaltyPlayed(p.licence_number, str(p.kind), p.points) for p in document.penalties
        ),
    )


def results_of_revisions(revision_ids: Iterable[int]) -> dict[int, StageResults]:
    """Revision id → its results (four queries for any number of revisions)."""
    ids = list(revision_ids)
    sessions: dict[int, list[SessionPlayed]] = defaultdict(list)
    # Eliminations (entries, divisor, cuts) live in the stored document only.
    staged = {
        (revision, s["number"]): s
        for revision, stored in ResultRevision.objects.filter(pk__in=ids).values_list(
            "pk", "document__sessions"
        )
        for s in stored or ()
        if s.get("entries") or s.get("cuts")
    }
    for s in ResultSession.objects.filter(revision_id__in=ids).order_by("number"):
        listed = staged.get((s.revision_id, s.number), {})
        sessions[s.revision_id].append(
            SessionPlayed(
                s.number,
                s.tables,
                s.deals,
                len(listed["entries"]) if listed.get("entries") else None,
                listed.get("points_divisor", 1),
                tuple(
                    CutPlayed(c["after_position"], len(c["entries"]), c["points_divisor"])
                    for c in listed.get("cuts", ())
                ),
            )
        )
    players: dict[int, list[int | None]] = defaultdict(list)
    for entry_id, number in (
        ResultPlayer.objects.filter(revision_id__in=ids)
        .order_by("pk")
        .values_list("entry_id", "licence_number")
    ):
        players[entry_id].append(number)
    entries: dict[int, list[EntryPlayed]] = defaultdict(list)
    for e in ResultEntry.objects.filter(revision_id__in=ids).order_by("place", "number"):
        entries[e.revision_id].append(
            EntryPlayed(e.number, e.place, tuple(players[e.pk]), e.abandoned)
        )
    penalties: dict[int, list[PenaltyPlayed]] = defaultdict(list)
    for p in ResultPenalty.objects.filter(revision_id__in=ids):
        penalties[p.revision_id].append(PenaltyPlayed(p.licence_number, p.kind, p.points))
    return {
        i: StageResults(tuple(sessions[i]), tuple(entries[i]), tuple(penalties[i])) for i in ids
    }


def homologated_results(stages_: Iterable[ChampionshipStage]) -> dict[int, StageResults]:
    """Stage id → the results of its homologated revision, for the homologated stages."""
    revision_of = {
        s.pk: s.tournament.homologated_revision_id
        for s in stages_
        if s.tournament.status == TournamentStatus.HOMOLOGATED
        and s.tournament.homologated_revision_id
    }
    results = results_of_revisions(revision_of.values())
    return {stage_id: results[revision] for stage_id, revision in revision_of.items()}


def player_entries(player_id: int, season_ids: Iterable[int]) -> QuerySet[ChampionshipEntry]:
    """A player's entries in the championships of some seasons (active or not)."""
    return (
        ChampionshipEntry.objects.filter(
            players__player_id=player_id,
            stage__championship__season_id__in=list(season_ids),
        )
        .distinct()
        .select_related(
            "stage__championship__season",
            "stage__tournament",
            "stage__regional__committee",
            "committee",
            "club",
        )
        .prefetch_related(active_players())
        .order_by("stage__tournament__date", "pk")
    )


def entries_by_players(stage: ChampionshipStage) -> Mapping[frozenset[int], ChampionshipEntry]:
    """The stage's active entries keyed by their players' licence numbers."""
    return {
        frozenset(p.player.licence_number for p in entry.active_players): entry
        for entry in stage_entries(stage)
        if entry.status in ("eligible", "flagged")
    }
