"""Titles (champion and vice-champion of France, regional champions) recorded per season.

:func:`stage_titles_record` derives a stage's titles from its homologated revision with the
pure :func:`competitions.rules.championships.titles.stage_titles` and makes the stored rows
match: it is called by a stage's homologation and correction
(:mod:`competitions.championships.stage_results`, whichever page, endpoint or command
homologates it), inside their transaction, so titles follow the recorded places. Running it
twice changes nothing (idempotent): rows are only added, removed or updated where the places
changed, each change in the history with who homologated. :func:`titles` reads them (public:
the API and the player's page).
"""

from __future__ import annotations

from django.db.models import QuerySet

from competitions.championships.zone_approval import championship_stage_of
from competitions.models import (
    ChampionshipTitle,
    ResultEntry,
    Tournament,
)
from competitions.rules.championships.titles import Placed, stage_titles
from core.vocabulary import championship_stage


def stage_titles_record(*, tournament: Tournament, by) -> None:
    """Make the titles of ``tournament``'s stage match its homologated revision (nothing
    for a tournament that is not a championship stage). The caller holds the tournament's
    row lock and has checked ``by``'s right (homologation)."""
    stage = championship_stage_of(tournament.pk)
    if stage is None:
        return
    revision = tournament.homologated_revision
    entries = (
        []
        if revision is None
        # titles go to the first two places at most
        else ResultEntry.objects.filter(revision=revision, place__lte=2).prefetch_related("players")
    )
    ranking = []
    for entry in entries:
        # (licence number, player id) of each registered player of the entry
        known = [
            (p.licence_number, p.player_id)
            for p in entry.players.all()
            if p.player_id is not None and p.licence_number is not None
        ]
        ranking.append(
            Placed(
                key="-".join(str(number) for number, _ in sorted(known)),
                players=tuple(sorted(player for _, player in known)),
                place=entry.place,
            )
        )
    awarded = stage_titles(championship_stage(stage.kind), ranking)
    wanted = {(a.title.value, player): a for a in awarded for player in a.players}
    committee_id = stage.regional.committee_id if stage.regional is not None else None
    for row in ChampionshipTitle.objects.filter(stage=stage):
        award = wanted.pop((row.title, row.player_id), None)
        row._history_user = by
        if award is None:
            row.delete()
        elif (row.place, row.key) != (award.place, award.key):
            row.place, row.key = award.place, award.key
            row.save(update_fields=["place", "key"])
    for (title, player), award in wanted.items():
        row = ChampionshipTitle(
            championship=stage.championship,
            stage=stage,
            title=title,
            player_id=player,
            key=award.key,
            committee_id=committee_id if title == "regional_champion" else None,
            place=award.place,
        )
        row._history_user = by
        row.save()


def titles() -> QuerySet[ChampionshipTitle]:
    """Every recorded title with what a public list shows, newest season first."""
    return ChampionshipTitle.objects.select_related(
        "championship__season", "stage__tournament", "committee", "player"
    ).order_by("-championship__season__start_date", "championship__kind", "title", "key", "pk")
