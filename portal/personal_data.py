"""Everything the federation holds about a player (GDPR, articles 15 and 20): the
document the API, the download and the readable page all serve (docs/privacy.md).

It reads every app: the registry (identity, licences, roles, arbiter grades, sanctions,
API tokens' metadata, the privacy choice), the tournaments (result lines), the rankings
(PCN/PP allocations, season totals, ranking lines, manual placements) and the
championships (entries, qualifications, titles).

Who may read it: the player themselves (their account is linked to them), and federation
staff for any player (a request made by post or at the desk, docs/privacy.md). Anyone
else gets the same answer as for a licence number that does not exist: a 404 that says
nothing of the player. A fixed number of queries whatever the history.

Served by ``GET /api/federation/me/data/`` and ``GET /api/federation/players/<licence>/data/``
(portal/api/personal_data.py) and by ``/compte/mes-donnees/`` (portal/pages.py).
"""

from __future__ import annotations

from typing import Any

from django.db.models import F, Q
from django.utils import timezone
from knox.models import AuthToken

from competitions.models import (
    Allocation,
    ChampionshipTitle,
    EntryPlayer,
    Qualification,
    ResultPlayer,
)
from core.errors import NotFound
from federation.access import Actor, scope_of
from federation.models import Player, User
from rankings.models import ManualPlacement, PlayerSeasonTotal, RankingEntry


def _refused() -> NotFound:
    return NotFound("No such player, or you may not read their data.")


def may_read_personal_data(by: Actor, player: Player) -> bool:
    """The player themselves, or federation staff."""
    scope = scope_of(by)
    return scope.national or (scope.player_id is not None and scope.player_id == player.pk)


def player_for(*, licence_number: int, by: Actor) -> Player:
    """The player whose data ``by`` asks for; :class:`NotFound` when there is none or
    ``by`` may not read it (the same answer: nothing is revealed)."""
    player = Player.objects.filter(licence_number=licence_number).first()
    if player is None or not may_read_personal_data(by, player):
        raise _refused()
    return player


def own_player(by: Actor) -> Player:
    """The signed-in person's own player; :class:`NotFound` for an account without one."""
    player_id = scope_of(by).player_id
    player = Player.objects.filter(pk=player_id).first() if player_id is not None else None
    if player is None:
        raise _refused()
    return player


def _iso(value: Any) -> Any:
    """The document as JSON holds it: dates and moments as ISO 8601 text, all the way down."""
    if isinstance(value, dict):
        return {key: _iso(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_iso(item) for item in value]
    return value.isoformat() if hasattr(value, "isoformat") else value


def personal_data(*, player: Player, by: Actor) -> dict[str, Any]:
    """The document of everything held about ``player`` (checked: see
    :func:`may_read_personal_data`), as the API and the JSON download give it."""
    return _iso(personal_data_values(player=player, by=by))


def personal_data_values(*, player: Player, by: Actor) -> dict[str, Any]:
    """The same document with its values as they are (dates, moments, yes/no), for the
    readable page and the CSV download to write for a person."""
    if not may_read_personal_data(by, player):
        raise _refused()
    number = player.licence_number
    accounts = list(User.objects.filter(player=player).prefetch_related("roles__zone",
                    "roles__committee", "roles__club"))  # fmt: skip
    tokens = AuthToken.objects.filter(user__in=accounts).order_by("created")
    results = (
        # the homologated results (earlier revisions were replaced by the organiser)
        ResultPlayer.objects.filter(
            player=player, revision_id=F("revision__tournament__homologated_revision_id")
        )
        .select_related("entry", "revision__tournament")
        .order_by("revision__tournament__date")
    )
    recorder = player.name_hidden_changed_by_id
    return {
        "generated_at": timezone.now(),
        "identity": {
            "licence_number": number,
            "last_name": player.last_name,
            "first_name": player.first_name,
            "birth_date": player.birth_date,
            "email": player.email,
            "phone": player.phone,
        },
        "privacy": {
            "name_hidden": player.name_hidden,
            "recorded_at": player.name_hidden_changed_at,
            "recorded_by": (
                None
                if recorder is None
                else "self"
                if any(a.pk == recorder for a in accounts)
                else "staff"
            ),
        },
        "accounts": [
            {
                "username": a.username,
                "email": a.email,
                "joined": a.date_joined,
                "last_login": a.last_login,
                "roles": [
                    {"role": r.role, "scope": str(r.zone or r.committee or r.club or "")}
                    for r in a.roles.all()
                ],
            }
            for a in accounts
        ],
        "api_tokens": [
            {"token_key": t.token_key, "created": t.created, "expiry": t.expiry} for t in tokens
        ],
        "licences": [
            {
                "season": lic.season.name,
                "club": lic.club.number,
                "club_name": lic.club.name,
                "committee": lic.club.committee.number,
                "issued_on": lic.issued_on,
            }
            for lic in player.licences.select_related("season", "club__committee").order_by(
                "season__start_date"
            )
        ],
        "arbiter_accreditations": [
            {"season": a.season.name, "grade": a.grade}
            for a in player.arbiter_accreditations.select_related("season").order_by(
                "season__start_date"
            )
        ],
        "sanctions": [
            {
                "kind": s.kind,
                "starts": s.starts,
                "ends": s.ends,
                "reason": s.reason,
                "recorded_at": s.created_at,
            }
            for s in player.sanctions.order_by("starts")
        ],
        "tournament_results": [
            {
                "tournament": r.revision.tournament_id,
                "name": r.revision.tournament.name,
                "date": r.revision.tournament.date,
                "name_as_submitted": r.name,
                "entry": r.entry.number,
                "place": r.entry.place,
                "total": r.entry.total,
                "abandoned": r.entry.abandoned,
            }
            for r in results
        ],
        "allocations": [
            {
                "tournament": a.tournament_id,
                "name": a.tournament.name,
                "date": a.tournament.date,
                "season": a.season.name,
                "place": a.place,
                "pcn": a.pcn,
                "pp": a.pp,
                "current": a.current,
            }
            for a in Allocation.objects.filter(player=player)
            .select_related("tournament", "season")
            .order_by("tournament__date", "tournament_id")
        ],
        "season_totals": [
            {"season": t.season.name, "pcn": t.pcn, "pp": t.pp, "tournaments": t.tournaments}
            for t in PlayerSeasonTotal.objects.filter(player=player)
            .select_related("season")
            .order_by("season__start_date")
        ],
        "ranking_lines": [
            {
                "season": e.snapshot.season.name,
                "kind": e.snapshot.kind,
                "snapshot": e.snapshot_id,
                "computed_at": e.snapshot.computed_at,
                "place": e.place,
                "total_pcn": e.total_pcn,
                "total_pp": e.total_pp,
                "step": e.step,
                "series": e.series,
            }
            for e in RankingEntry.objects.filter(player=player)
            .select_related("snapshot__season")
            .order_by("snapshot__computed_at")
        ],
        "manual_placements": [
            {"season": m.season.name, "step": m.step, "reason": m.reason}
            for m in ManualPlacement.objects.filter(player=player).select_related("season")
        ],
        "championship_entries": [
            {
                "championship": e.entry.stage.championship.kind,
                "season": e.entry.stage.championship.season.name,
                "stage": e.entry.stage_id,
                "entry": e.entry.number,
                "status": e.entry.status,
                "active": e.active,
            }
            for e in EntryPlayer.objects.filter(player=player)
            .select_related("entry__stage__championship__season")
            .order_by("entry__stage_id")
        ],
        "qualifications": [
            {
                "championship": q.championship.kind,
                "season": q.championship.season.name,
                "target": q.target,
                "right": q.right,
                "status": q.status,
                "place": q.place,
            }
            for q in Qualification.objects.filter(_key_holds(number))
            .select_related("championship__season")
            .order_by("pk")
        ],
        "titles": [
            {
                "championship": t.championship.kind,
                "season": t.championship.season.name,
                "title": t.title,
                "place": t.place,
            }
            for t in ChampionshipTitle.objects.filter(player=player)
            .select_related("championship__season")
            .order_by("pk")
        ],
    }


def _key_holds(number: int) -> Q:
    """A qualification's key (sorted licence numbers joined by "-") holds ``number``."""
    n = str(number)
    return (
        Q(key=n) | Q(key__startswith=f"{n}-") | Q(key__endswith=f"-{n}") | Q(key__contains=f"-{n}-")
    )
