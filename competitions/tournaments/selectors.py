"""Reads of tournaments and their results, without N+1."""

from __future__ import annotations

from django.db.models import Count, OuterRef, Prefetch, QuerySet, Subquery
from django.db.models.functions import Coalesce

from competitions.models import ResultPlayer, Tournament, TournamentStatus
from federation.public_names import PublicIdentity, public_submitted_line


def tournaments() -> QuerySet[Tournament]:
    return Tournament.objects.select_related(
        "season",
        "organizer_zone",
        "organizer_committee",
        "organizer_club__committee",
        "arbiter",
        "homologated_revision",
    )


def tournaments_with_sessions() -> QuerySet[Tournament]:
    """:func:`tournaments` with their declared sessions (one more query for a list)."""
    return tournaments().prefetch_related("declared_sessions")


def revision_ranking(revision, *, public: bool = False) -> list[dict]:
    """A revision's ranking with each player's allocation (three queries). ``public``:
    each line as the public may read it (``federation.public_names``: a player who
    objected to appearing by name is anonymous, without licence number)."""
    from competitions.models import Allocation

    points = {
        a.player_id: a
        for a in Allocation.objects.filter(revision=revision).only("player_id", "pcn", "pp")
    }
    rows = []
    entries = revision.entries.prefetch_related(
        Prefetch("players", ResultPlayer.objects.select_related("player").order_by("pk"))
    )
    for entry in entries.order_by("place", "number"):
        players = []
        for p in entry.players.all():
            shown = (
                public_submitted_line(
                    player=p.player, licence_number=p.licence_number, name_as_submitted=p.name
                )
                if public
                else PublicIdentity(p.shown_name, p.licence_number)
            )
            players.append(
                {
                    "licence_number": shown.licence_number,
                    "name": shown.name,
                    "licensed": p.licensed,
                    "pcn": getattr(points.get(p.player_id), "pcn", 0),
                    "pp": getattr(points.get(p.player_id), "pp", 0),
                }
            )
        rows.append(
            {
                "number": entry.number,
                "place": entry.place,
                "total": entry.total,
                "abandoned": entry.abandoned,
                "players": players,
            }
        )
    return rows


def latest_homologated(limit: int) -> list[Tournament]:
    """The ``limit`` tournaments homologated last by date, each with its organiser and
    ``player_count`` (the players of its homologated results): one query."""
    players = (
        ResultPlayer.objects.filter(revision=OuterRef("homologated_revision"))
        .order_by()
        .values("revision")
        .annotate(count=Count("pk"))
        .values("count")
    )
    return list(
        Tournament.objects.filter(status=TournamentStatus.HOMOLOGATED)
        .select_related("organizer_zone", "organizer_committee", "organizer_club")
        .annotate(player_count=Coalesce(Subquery(players), 0))
        .order_by("-date", "-pk")[:limit]
    )


def latest_revision_number(tournament: Tournament) -> int | None:
    """The number of the tournament's latest results revision (None before any): the one
    a homologation would take, the ETag of the tournament's reads."""
    return tournament.revisions.order_by("-number").values_list("number", flat=True).first()
