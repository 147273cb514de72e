"""Reads of tournaments and their results, without N+1."""

from __future__ import annotations

from django.db.models import QuerySet

from competitions.models import Tournament


def tournaments() -> QuerySet[Tournament]:
    return Tournament.objects.select_related(
        "season",
        "organizer_zone",
        "organizer_committee",
        "organizer_club",
        "arbiter",
        "homologated_revision",
    )


def revision_ranking(revision) -> list[dict]:
    """A revision's ranking with each player's allocation (two queries)."""
    from rankings.models import Allocation

    points = {
        a.player_id: a
        for a in Allocation.objects.filter(revision=revision).only("player_id", "pcn", "pp")
    }
    rows = []
    for entry in revision.entries.prefetch_related("players").order_by("place", "number"):
        rows.append(
            {
                "number": entry.number,
                "place": entry.place,
                "total": entry.total,
                "abandoned": entry.abandoned,
                "players": [
                    {
                        "licence_number": p.licence_number,
                        "name": p.name,
                        "licensed": p.licensed,
                        "pcn": getattr(points.get(p.player_id), "pcn", 0),
                        "pp": getattr(points.get(p.player_id), "pp", 0),
                    }
                    for p in entry.players.all()
                ],
            }
        )
    return rows
