"""Duplicate player records: found (a selector), and merged (a service) by federation
staff (docs/duplicates.md). Here, above every app, because a merge moves the rows of
every app (licences, results, points, entries, titles...) and the likely pairs show
each record's tournaments.

- :func:`likely_duplicate_pairs`: every pair of likely duplicates in the registry, with
  the criterion met and both records' facts side by side. Set-based: the folded names
  held by two records or more are found by one ``GROUP BY search_name`` in the database;
  only those records (and their licences) are read, and compared by name group in
  :mod:`federation.rules.duplicates` — never the whole registry pairwise.
- :func:`players_merge`: one transaction. Both records are locked (in id order); the
  pure :func:`~federation.rules.duplicates.check_merge` refuses what the database allows
  once per player (two licences in one season…); then **every** foreign key to the merged
  record moves to the kept one (found through Django's model registry, so a relation
  added later moves too), except the rows listed in :data:`NOT_MOVED`. The merged record
  keeps a pointer (``merged_into``): its licence number's pages and API reads redirect
  to the kept record. A :class:`~federation.models.PlayerMerge` row is the audit (who,
  when, the ids moved per kind), the player's history row records the pointer, and the
  ranking of every season either record touched is brought up to date by the existing
  refresh task (``rankings.refresh_season_totals``), sent on commit.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.apps import apps
from django.db import IntegrityError, transaction
from django.db.models import Count, ForeignKey, Model, OneToOneField

from competitions.models import Allocation, ChampionshipTitle, EntryPlayer, Tournament
from core.errors import Conflict, PermissionDenied
from core.tasks import send_on_commit
from federation.access import Actor, scope_of
from federation.models import ArbiterAccreditation, Licence, Player, PlayerMerge, Season, User
from federation.player_locks import players_lock
from federation.privacy import player_privacy_set
from federation.rules.duplicates import (
    MergeFacts,
    PlayerFacts,
    check_merge,
    likely_duplicates,
    pair_criteria,
)
from rankings.models import ManualPlacement, PlayerSeasonTotal, SeasonStanding

# Relations to Player that a merge leaves where they are (model label, field name):
NOT_MOVED = {
    # the audit itself, and the pointer (chains are flattened separately)
    ("federation.PlayerMerge", "kept"),
    ("federation.PlayerMerge", "merged"),
    ("federation.Player", "merged_into"),
    # official snapshots are immutable: their lines keep the record they ranked, which
    # resolves to the kept one through the pointer (rankings/season/standings.py reads the
    # previous official ranking through it; the player page shows both records' history)
    ("rankings.RankingEntry", "player"),
    # derived rows: rebuilt by the ranking refresh sent on commit (the merged record's
    # rows are deleted there: it has no licence nor allocation any more)
    ("rankings.PlayerSeasonTotal", "player"),
    ("rankings.SeasonStanding", "player"),
}


def _is_history(model) -> bool:
    """A simple_history table (its rows record what was; they never move)."""
    return model.__name__.startswith("Historical") and hasattr(model, "history_id")


def player_relations() -> list[tuple[type[Model], str]]:
    """Every (model, field) holding a foreign key to Player that a merge moves."""
    found = []
    for model in apps.get_models():
        if _is_history(model):
            continue
        for f in model._meta.get_fields():
            if not isinstance(f, ForeignKey | OneToOneField) or f.related_model is not Player:
                continue
            if (model._meta.label, f.name) in NOT_MOVED:
                continue
            found.append((model, f.name))
    return sorted(found, key=lambda mf: (mf[0]._meta.label, mf[1]))


# --- finding them ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RecordFacts:
    """One record as staff compare it (staff may see the birth date)."""

    id: int
    licence_number: int
    last_name: str
    first_name: str
    birth_date: object
    licences: tuple[
        tuple[str, int, str], ...
    ]  # (season name, club number, club name), newest first
    tournaments: int  # current allocations


@dataclass(frozen=True)
class DuplicateRow:
    first: RecordFacts
    second: RecordFacts
    criteria: tuple[str, ...]


def likely_duplicate_pairs(*, by: Actor) -> list[DuplicateRow]:
    """Every likely duplicate pair of the registry (federation staff only), by name.
    Four queries whatever the registry's size."""
    if not scope_of(by).national:
        raise PermissionDenied("Only federation staff may see likely duplicates.")
    shared = (
        Player.objects.filter(merged_into=None)
        .values("search_name")
        .annotate(records=Count("pk"))
        .filter(records__gt=1)
        .values("search_name")
    )
    rows = list(
        Player.objects.filter(merged_into=None, search_name__in=shared)
        .order_by()
        .values("pk", "licence_number", "last_name", "first_name", "birth_date", "search_name")
    )
    ids = [r["pk"] for r in rows]
    licences: dict[int, list[tuple]] = defaultdict(list)
    committees: dict[int, dict[int, int]] = defaultdict(dict)
    for player_id, season_id, committee_id, season, number, name in (
        Licence.objects.filter(player_id__in=ids)
        .order_by("-season__start_date")
        .values_list(
            "player_id", "season_id", "club__committee_id", "season__name",
            "club__number", "club__name",
        )
    ):  # fmt: skip
        licences[player_id].append((season, number, name))
        committees[player_id][season_id] = committee_id
    tournaments = dict(
        Allocation.objects.filter(player_id__in=ids, current=True)
        .values("player_id")
        .annotate(n=Count("pk"))
        .values_list("player_id", "n")
    )
    pairs = likely_duplicates(
        PlayerFacts(r["pk"], r["search_name"], r["birth_date"], committees.get(r["pk"], {}))
        for r in rows
    )
    facts = {
        r["pk"]: RecordFacts(
            r["pk"],
            r["licence_number"],
            r["last_name"],
            r["first_name"],
            r["birth_date"],
            tuple(licences.get(r["pk"], ())),
            tournaments.get(r["pk"], 0),
        )
        for r in rows
    }
    out = [DuplicateRow(facts[p.first_id], facts[p.second_id], p.criteria) for p in pairs]
    return sorted(
        out, key=lambda d: (d.first.last_name.lower(), d.first.first_name.lower(), d.first.id)
    )


def _criteria(kept: Player, merged: Player) -> tuple[str, ...]:
    """The criteria the two records meet (recorded in the audit; staff may also merge
    records that meet none, say after a change of name)."""
    committees: dict[int, dict[int, int]] = defaultdict(dict)
    for player_id, season_id, committee_id in Licence.objects.filter(
        player_id__in=[kept.pk, merged.pk]
    ).values_list("player_id", "season_id", "club__committee_id"):
        committees[player_id][season_id] = committee_id
    return pair_criteria(
        PlayerFacts(kept.pk, kept.search_name, kept.birth_date, committees[kept.pk]),
        PlayerFacts(merged.pk, merged.search_name, merged.birth_date, committees[merged.pk]),
    )


# --- merging them ---------------------------------------------------------------------------


def _merge_facts(player: Player) -> MergeFacts:
    def seasons(model) -> frozenset[str]:
        return frozenset(model.objects.filter(player=player).values_list("season__name", flat=True))

    return MergeFacts(
        id=player.pk,
        licence_number=player.licence_number,
        merged_into_id=player.merged_into_id,
        licence_seasons=seasons(Licence),
        arbiter_seasons=seasons(ArbiterAccreditation),
        placement_seasons=seasons(ManualPlacement),
        revisions=frozenset(
            Allocation.objects.filter(player=player).values_list("revision_id", flat=True)
        ),
        stages=frozenset(
            EntryPlayer.objects.filter(player=player, active=True).values_list(
                "stage_id", flat=True
            )
        ),
        title_stages=frozenset(
            ChampionshipTitle.objects.filter(player=player).values_list("stage_id", flat=True)
        ),
        has_account=User.objects.filter(player=player).exists(),
    )


def _affected_seasons(player_ids: list[int]) -> list[int]:
    """The seasons whose ranking inputs either record is part of."""
    seasons: set[int] = set()
    for model in (Licence, Allocation, PlayerSeasonTotal, SeasonStanding):
        seasons.update(
            model.objects.filter(player_id__in=player_ids).values_list("season_id", flat=True)
        )
    return sorted(seasons)


@transaction.atomic
def players_merge(*, kept: Player, merged: Player, by: Actor) -> PlayerMerge:
    """Merge the record ``merged`` into ``kept`` (federation staff only): everything of
    ``merged`` moves to ``kept``, ``merged`` points to ``kept``; refused, with every
    reason and nothing written, when one player would hold twice what one may hold once
    (two licences in one season, …)."""
    if not scope_of(by).national:
        raise PermissionDenied("Only federation staff may merge player records.")
    # A homologation locks its tournament, then the players it names: the tournaments
    # either record arbitrates (their arbiter moves below) are locked first, in id order,
    # then both records, in one statement, in id order, the lock a homologation takes
    # too (federation/player_locks.py): two merges of one record, or a merge and a
    # homologation naming it, wait for each other and never deadlock.
    list(
        Tournament.objects.select_for_update(of=("self",))
        .filter(arbiter__in=[kept.pk, merged.pk])
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    locked = players_lock([kept.pk, merged.pk], exclusive=True)
    kept, merged = locked[kept.pk], locked[merged.pk]
    check_merge(_merge_facts(kept), _merge_facts(merged))
    seasons = _affected_seasons([kept.pk, merged.pk])
    criteria = _criteria(kept, merged)  # before anything moves
    moved: dict[str, list[int]] = {}
    try:
        with transaction.atomic():  # a constraint no rule foresaw: a refusal, not a 500
            for model, field in player_relations():
                rows = model._default_manager.filter(**{field: merged})
                ids = sorted(rows.values_list("pk", flat=True))
                if ids:
                    model._default_manager.filter(pk__in=ids).update(**{field: kept})
                    moved[f"{model._meta.label}.{field}"] = ids
    except IntegrityError as clash:
        raise Conflict(
            "These records cannot be merged: one player would hold twice what one may hold once.",
            code="merge_conflict",
        ) from clash
    # never a chain: the records merged into ``merged`` now point to ``kept``
    chained = sorted(Player.objects.filter(merged_into=merged).values_list("pk", flat=True))
    if chained:
        Player.objects.filter(pk__in=chained).update(merged_into=kept)
        moved["federation.Player.merged_into"] = chained
    merged.merged_into = kept
    merged._history_user = by  # type: ignore[attr-defined]
    merged.save(update_fields=["merged_into"])
    if merged.name_hidden:  # an objection to appearing by name follows the person
        player_privacy_set(player=kept, hidden=True, by=by)
    audit = PlayerMerge.objects.create(
        kept=kept,
        merged=merged,
        kept_licence_number=kept.licence_number,
        merged_licence_number=merged.licence_number,
        merged_by=by if isinstance(by, User) else None,
        criteria=",".join(criteria),
        moved=moved,
        counts={kind: len(ids) for kind, ids in moved.items()},
    )
    _ranking_follows(seasons, [kept.pk, merged.pk])
    return audit


def _ranking_follows(season_ids: list[int], player_ids: list[int]) -> None:
    """Every season either record touched, and every later one (the carry-over: the
    previous official ranking is read through the pointer): the standings of both
    records are rebuilt by the refresh task once this transaction commits, which raises
    the season's inputs version (the read cache's keys move with it) and refreshes the
    live ranking. Nothing of the ranking is written here: the ranking's writers take
    the season's writer lock (rankings/season/locks.py), a merge takes none."""
    if not season_ids:
        return
    later = Season.objects.filter(
        start_date__gt=Season.objects.filter(pk__in=season_ids)
        .order_by("start_date")
        .values("start_date")[:1]
    ).values_list("pk", flat=True)
    for season_id in sorted(set(season_ids) | set(later)):
        send_on_commit("rankings.refresh_season_totals", season_id, player_ids)
