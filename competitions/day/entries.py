"""Entries before the day (« inscriptions »): a licensee enters themself online, the
organiser enters anyone (non-licensees by name), an entry is withdrawn, its fee marked paid;
the cap and its waiting list; a championship stage's entries taken through the
championship's own service and mirrored here (docs/tournament-day.md, « Inscriptions »).

Every write is one transaction that locks the tournament's row first: two entries racing
for the last place are served one after the other, so the second finds the tournament
full. Who may do what:

- **a licensee** (an account linked to a player licensed for the tournament's season)
  enters themself while the organiser keeps online entries open, with the partners they
  name by licence number in a DUO or a team; withdraws an entry they are in before the
  day's first draw;
- **the organiser's managers and the tournament's arbiter** (``day.access.may_run_day``)
  enter anyone, licensees by number and others by name, withdraw any entry, mark the fee
  paid, send the convocations;
- anyone else, for an entry or a tournament they may not run: ``NotFound`` (the pages and
  the API answer 404, revealing nothing).

A place freed on a capped tournament goes to the first entry of the waiting list (who
entered first), whose players are told by e-mail if they chose it
(``federation.models.NotificationKind.ENTRY_PLACE_FREED``, ``entry_notices``).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Count, Max, Prefetch, Q, QuerySet
from django.utils import timezone

from competitions.championships import entries as stage_entries
from competitions.day.access import locked, may_run_day, may_see_day
from competitions.models import (
    ChampionshipEntry,
    ChampionshipStage,
    EntryMember,
    EntryState,
    EntryStatus,
    PlayedSession,
    Tournament,
    TournamentEntry,
    TournamentStatus,
)
from competitions.tournaments.tournament_rows import tournaments_update
from core.errors import Conflict, NotFound, PermissionDenied
from core.problems import Problem, RuleViolation
from core.tasks import send_on_commit
from core.vocabulary import Format
from federation.access import Actor, scope_of
from federation.models import Licence, Player, Sanction, SanctionKind

MEMBERS = {Format.INDIVIDUAL.value: 1, Format.DUO.value: 2, Format.TEAM4.value: 4}
"""How many players an entry holds, by the tournament's format."""
MAX_NAME = 200


@dataclass(frozen=True)
class EntryRequest:
    """Who an entry holds: licensees by number (a player entering themself is one of
    them), non-licensees by name (the organiser only), in the order given; and whether
    the entrant accepts the waiting list when the tournament is full."""

    licence_numbers: tuple[int, ...] = ()
    names: tuple[str, ...] = ()
    team_name: str = ""
    waiting_list: bool = False


# --- reads ---------------------------------------------------------------------------


def tournament_stage(tournament: Tournament) -> ChampionshipStage | None:
    """The championship stage the tournament plays, if any."""
    return ChampionshipStage.objects.filter(tournament=tournament).first()


def entries_closed_for(tournament: Tournament, today: dt.date | None = None) -> bool:
    """Entries close once the tournament's day has passed or its results were sent."""
    today = today or timezone.localdate()
    return tournament.status != TournamentStatus.DECLARED or tournament.date < today


def online_entries_open(tournament: Tournament, today: dt.date | None = None) -> bool:
    """May a licensee enter themself now (the calendar's « S'inscrire »)?"""
    return tournament.online_entries and not entries_closed_for(tournament, today)


def tournament_entries(tournament: Tournament) -> QuerySet[TournamentEntry]:
    """The tournament's entries by number, their players loaded (two queries)."""
    return (
        TournamentEntry.objects.filter(tournament=tournament)
        .select_related("championship_entry")
        .prefetch_related(
            Prefetch("members", queryset=EntryMember.objects.select_related("player"))
        )
        .order_by("number")
    )


@dataclass(frozen=True)
class EntryCounts:
    entered: int
    waiting: int
    withdrawn: int
    fee_paid: int

    @property
    def live(self) -> int:
        return self.entered + self.waiting


def entry_counts(tournament: Tournament) -> EntryCounts:
    """How many entries are entered, waiting, withdrawn, and paid (of the live ones)."""
    rows = TournamentEntry.objects.filter(tournament=tournament).aggregate(
        entered=Count("pk", filter=Q(state=EntryState.ENTERED)),
        waiting=Count("pk", filter=Q(state=EntryState.WAITING)),
        withdrawn=Count("pk", filter=Q(state=EntryState.WITHDRAWN)),
        fee_paid=Count("pk", filter=Q(fee_paid=True) & ~Q(state=EntryState.WITHDRAWN)),
    )
    return EntryCounts(**rows)


def entered_counts(tournament_ids: Sequence[int]) -> dict[int, int]:
    """The number of entries entered (not waiting, not withdrawn) of each tournament."""
    rows = (
        TournamentEntry.objects.filter(tournament_id__in=tournament_ids, state=EntryState.ENTERED)
        .values("tournament_id")
        .annotate(n=Count("pk"))
    )
    return {row["tournament_id"]: row["n"] for row in rows}


def member_name(member: EntryMember) -> str:
    """A member as the organiser and their partners read them: « NAME First name », or
    the name a non-licensee was entered by (never on a public page)."""
    if member.player is not None:
        return f"{member.player.last_name.upper()} {member.player.first_name}"
    return member.name


def player_live_entry(tournament: Tournament, player_id: int | None) -> TournamentEntry | None:
    """The player's entry of the tournament still entered or waiting, if any."""
    if player_id is None:
        return None
    return (
        TournamentEntry.objects.filter(
            tournament=tournament, members__player_id=player_id, members__active=True
        )
        .exclude(state=EntryState.WITHDRAWN)
        .first()
    )


def waiting_place(entry: TournamentEntry) -> int | None:
    """The entry's place on its tournament's waiting list (1: next to get a place)."""
    if entry.state != EntryState.WAITING:
        return None
    ahead = TournamentEntry.objects.filter(
        tournament_id=entry.tournament_id, state=EntryState.WAITING
    ).filter(Q(entered_at__lt=entry.entered_at) | Q(entered_at=entry.entered_at, pk__lt=entry.pk))
    return ahead.count() + 1


def entry_of(*, tournament: Tournament, entry_id: int, by: Actor | None) -> TournamentEntry:
    """An entry of the tournament that ``by`` may act on (the organiser's side, or a player
    of it); ``NotFound`` otherwise, whether it exists or not."""
    entry = (
        TournamentEntry.objects.filter(tournament=tournament, pk=entry_id)
        .select_related("tournament")
        .first()
    )
    if entry is None or not _may_act_on(by, entry):
        raise NotFound("No such entry.", code="day_entry_not_found")
    return entry


def _is_member(by: Actor | None, entry: TournamentEntry) -> bool:
    player_id = scope_of(by).player_id
    return player_id is not None and entry.members.filter(player_id=player_id).exists()


def _may_act_on(by: Actor | None, entry: TournamentEntry) -> bool:
    return may_run_day(by, entry.tournament) or _is_member(by, entry)


# --- writes --------------------------------------------------------------------------


@transaction.atomic
def entry_enter(
    *, tournament: Tournament, request: EntryRequest, by: Actor | None
) -> TournamentEntry:
    """Enter a player, a DUO or a team; entered, or on the waiting list when the cap is
    reached and the entrant accepted it. Every problem is reported at once, located on its
    field (``licence_numbers[1]``, ``names[0]``, ``waiting_list``), nothing written."""
    tournament = locked(tournament)
    organiser = may_run_day(by, tournament)
    scope = scope_of(by)
    if not organiser and scope.player_id is None:
        raise PermissionDenied(
            "Only a licensee enters themself online; the organiser enters anyone.",
            code="day_entry_need_licence",
        )
    stage = tournament_stage(tournament)
    if stage is not None:
        return _stage_enter(tournament, stage, request, by)
    problems = _entry_problems(tournament, request, organiser=organiser, player_id=scope.player_id)
    if problems:
        raise RuleViolation(problems)
    state = EntryState.ENTERED
    entered = TournamentEntry.objects.filter(
        tournament=tournament, state=EntryState.ENTERED
    ).count()
    if tournament.entry_cap is not None and entered >= tournament.entry_cap:
        if not request.waiting_list:
            raise RuleViolation.single(
                "waiting_list",
                "day_entry_full",
                f"The tournament is full ({tournament.entry_cap} entries): accept the waiting "
                "list to be offered the first place freed.",
                {"cap": tournament.entry_cap},
            )
        state = EntryState.WAITING
    players = {
        p.licence_number: p
        for p in Player.objects.filter(licence_number__in=request.licence_numbers)
    }
    return _store(tournament, request, players, state=state, by=by)


def _next_number(tournament: Tournament) -> int:
    last = TournamentEntry.objects.filter(tournament=tournament).aggregate(n=Max("number"))["n"]
    return (last or 0) + 1


def _store(
    tournament: Tournament,
    request: EntryRequest,
    players: dict[int, Player],
    *,
    state: str,
    by: Actor | None,
    number: int | None = None,
    championship_entry: ChampionshipEntry | None = None,
) -> TournamentEntry:
    entry = TournamentEntry.objects.create(
        tournament=tournament,
        number=number or _next_number(tournament),
        championship_entry=championship_entry,
        team_name=request.team_name.strip()[:100],
        state=state,
        entered_by=by if by is not None and by.is_authenticated else None,
    )
    members = [
        EntryMember(entry=entry, tournament=tournament, order=k + 1, player=players[n])
        for k, n in enumerate(request.licence_numbers)
    ]
    members += [
        EntryMember(entry=entry, tournament=tournament, order=len(members) + k + 1, name=name)
        for k, name in enumerate(n.strip() for n in request.names)
    ]
    try:
        with transaction.atomic():  # the database's own guard: one live entry per player
            EntryMember.objects.bulk_create(members)
    except IntegrityError:
        raise RuleViolation.single(
            "licence_numbers",
            "day_entry_player_taken",
            "A player of this entry is already entered in this tournament.",
            {"licence": ", ".join(str(n) for n in request.licence_numbers)},
        ) from None
    return entry


def _entry_problems(
    tournament: Tournament, request: EntryRequest, *, organiser: bool, player_id: int | None
) -> list[Problem]:
    problems: list[Problem] = []
    if entries_closed_for(tournament):
        problems.append(
            Problem(
                "tournament",
                "day_entries_closed",
                "Entries to this tournament are closed: its day has passed or its results "
                "were sent.",
                {"tournament": tournament.name},
            )
        )
        return problems
    if not organiser and not tournament.online_entries:
        problems.append(
            Problem(
                "tournament",
                "day_entries_not_online",
                "The organiser does not take entries online for this tournament: ask them.",
                {"tournament": tournament.name},
            )
        )
        return problems
    size = MEMBERS[tournament.format]
    given = len(request.licence_numbers) + len(request.names)
    if given != size:
        problems.append(
            Problem(
                "licence_numbers",
                "day_entry_size",
                f"An entry to this tournament holds {size} player(s), not {given}.",
                {"size": size, "given": given},
            )
        )
    if request.names and not organiser:
        problems.append(
            Problem(
                "names",
                "day_entry_names_by_organiser",
                "Only the organiser enters a player who holds no licence, by name.",
                {},
            )
        )
    for k, name in enumerate(request.names):
        if not name.strip() or len(name.strip()) > MAX_NAME:
            problems.append(
                Problem(
                    f"names[{k}]",
                    "day_entry_name_invalid",
                    f"A player's name: from 1 to {MAX_NAME} characters.",
                    {"maximum": MAX_NAME},
                )
            )
    numbers = request.licence_numbers
    players = {p.licence_number: p for p in Player.objects.filter(licence_number__in=numbers)}
    licensed = set(
        Licence.objects.filter(
            season_id=tournament.season_id, player__licence_number__in=numbers
        ).values_list("player__licence_number", flat=True)
    )
    suspended = set(
        Sanction.objects.filter(
            kind=SanctionKind.SUSPENSION,
            player__licence_number__in=numbers,
            starts__lte=tournament.date,
        )
        .filter(Q(ends__isnull=True) | Q(ends__gte=tournament.date))
        .values_list("player__licence_number", flat=True)
    )
    already = dict(
        EntryMember.objects.filter(
            tournament=tournament, active=True, player__licence_number__in=numbers
        ).values_list("player__licence_number", "entry__number")
    )
    if not organiser:
        own = next((n for n, p in players.items() if p.pk == player_id), None)
        if own is None or own not in numbers:
            problems.append(
                Problem(
                    "licence_numbers",
                    "day_entry_only_yourself",
                    "A player enters themself (with the partners they name).",
                    {},
                )
            )
    counts = Counter(numbers)
    for k, n in enumerate(numbers):
        field = f"licence_numbers[{k}]"
        if counts[n] > 1:
            problems.append(
                Problem(
                    field, "day_entry_duplicate", f"Licence {n} is named twice.", {"licence": n}
                )
            )
        elif n not in players or n not in licensed:
            problems.append(
                Problem(
                    field,
                    "day_entry_not_licensed",
                    f"Licence {n}: no player licensed for season {tournament.season.name}"
                    + ("; enter a player without a licence by name." if organiser else "."),
                    {"licence": n, "season": tournament.season.name},
                )
            )
        elif n in suspended:
            problems.append(
                Problem(
                    field,
                    "day_entry_suspended",
                    f"Licence {n} is suspended from play on the tournament's day.",
                    {"licence": n, "date": f"{tournament.date:%d/%m/%Y}"},
                )
            )
        elif n in already:
            problems.append(
                Problem(
                    field,
                    "day_entry_already_entered",
                    f"Licence {n} is already in entry {already[n]} of this tournament.",
                    {"licence": n, "entry": already[n]},
                )
            )
    return problems


def _stage_enter(
    tournament: Tournament, stage: ChampionshipStage, request: EntryRequest, by: Actor | None
) -> TournamentEntry:
    """A stage's entry: the championship's service decides (who may enter, eligibility on
    the stage's day, one entry per player), then the entry is mirrored here."""
    if request.names:
        raise RuleViolation.single(
            "names",
            "day_stage_entry_by_licence",
            "A championship stage's entries are licensees, entered by licence number.",
            {},
        )
    if entries_closed_for(tournament):
        raise RuleViolation.single(
            "tournament",
            "day_entries_closed",
            "Entries to this tournament are closed: its day has passed or its results were sent.",
            {"tournament": tournament.name},
        )
    try:
        made = stage_entries.entries_register(
            stage=stage,
            requests=[stage_entries.EntryRequest(request.licence_numbers, request.team_name)],
            by=by,
        )
    except RuleViolation as refused:  # entries[0].licence_numbers[1] → licence_numbers[1]
        raise RuleViolation(
            [
                Problem(p.field.removeprefix("entries[0]."), p.code, p.message, p.params)
                for p in refused.problems
            ]
        ) from None
    return _mirror(tournament, made[0].entry, by)


def _mirror(tournament: Tournament, entry: ChampionshipEntry, by: Actor | None) -> TournamentEntry:
    players = {
        ep.player.licence_number: ep.player
        for ep in entry.players.select_related("player").order_by("order")
    }
    request = EntryRequest(licence_numbers=tuple(players), team_name=entry.team_name)
    return _store(
        tournament,
        request,
        players,
        state=EntryState.ENTERED,
        by=by,
        number=entry.number,
        championship_entry=entry,
    )


@transaction.atomic
def stage_entries_mirror(*, tournament: Tournament, by: Actor | None) -> int:
    """Bring a stage's entries made at the championships desk or API into the day: each
    live championship entry not yet mirrored is added, each one withdrawn or forfeit since
    is withdrawn here. The organiser's side only. The number of entries changed."""
    tournament = locked(tournament)
    if not may_run_day(by, tournament):
        raise NotFound("No such tournament.", code="day_tournament_not_found")
    stage = tournament_stage(tournament)
    if stage is None:
        return 0
    changed = 0
    mirrored = {
        e.championship_entry_id: e
        for e in TournamentEntry.objects.filter(
            tournament=tournament, championship_entry__isnull=False
        )
    }
    for entry in ChampionshipEntry.objects.filter(stage=stage).order_by("number"):
        mine = mirrored.get(entry.pk)
        live = entry.status not in (EntryStatus.WITHDRAWN, EntryStatus.FORFEIT)
        if mine is None and live:
            _mirror(tournament, entry, by)
            changed += 1
        elif mine is not None and not live and mine.state != EntryState.WITHDRAWN:
            _take_out(mine)
            changed += 1
    return changed


def _take_out(entry: TournamentEntry) -> None:
    EntryMember.objects.filter(entry=entry, active=True).update(active=False)
    entry.state = EntryState.WITHDRAWN
    entry.present = False
    entry.withdrawn_at = timezone.now()
    entry.save(update_fields=["state", "present", "withdrawn_at"])


@transaction.atomic
def entry_withdraw(*, entry: TournamentEntry, by: Actor | None) -> TournamentEntry | None:
    """Withdraw an entry: the organiser's side any time before the results are sent, a
    player of the entry before the day's first draw. A place freed on a capped tournament
    goes to the first of the waiting list, returned (None: nobody promoted)."""
    tournament = locked(entry.tournament)
    entry = TournamentEntry.objects.select_for_update(of=("self",)).get(pk=entry.pk)
    entry.tournament = tournament
    organiser = may_run_day(by, tournament)
    if not organiser and not _is_member(by, entry):
        raise NotFound("No such entry.", code="day_entry_not_found")
    if entry.state == EntryState.WITHDRAWN:
        raise Conflict(
            f"Entry {entry.number} is already withdrawn.",
            code="day_entry_withdrawn_already",
            params={"entry": entry.number},
        )
    if tournament.status != TournamentStatus.DECLARED:
        raise RuleViolation.single(
            "entry",
            "day_entries_closed",
            "Entries to this tournament are closed: its day has passed or its results were sent.",
            {"tournament": tournament.name},
        )
    if not organiser and (
        tournament.date < timezone.localdate()
        or PlayedSession.objects.filter(tournament=tournament).exists()
    ):
        raise RuleViolation.single(
            "entry",
            "day_withdraw_too_late",
            "The tournament's day has passed or its first session is drawn: ask the arbiter "
            "to withdraw you.",
            {},
        )
    if entry.championship_entry_id is not None:
        stage_entries.entry_withdraw(entry=entry.championship_entry, by=by)  # type: ignore[arg-type]
    was_entered = entry.state == EntryState.ENTERED
    _take_out(entry)
    if not was_entered:
        return None
    return _promote_first_waiting(tournament)


def _promote_first_waiting(tournament: Tournament) -> TournamentEntry | None:
    """The first entry of the waiting list takes a freed place, if the cap allows it; its
    players who chose it are told by e-mail after the commit."""
    entered = TournamentEntry.objects.filter(
        tournament=tournament, state=EntryState.ENTERED
    ).count()
    if tournament.entry_cap is not None and entered >= tournament.entry_cap:
        return None
    first = (
        TournamentEntry.objects.select_for_update(of=("self",))
        .filter(tournament=tournament, state=EntryState.WAITING)
        .order_by("entered_at", "pk")
        .first()
    )
    if first is None:
        return None
    first.state = EntryState.ENTERED
    first.save(update_fields=["state"])
    send_on_commit("day.email_place_freed", first.pk)
    return first


@transaction.atomic
def entry_fee_paid_set(*, entry: TournamentEntry, paid: bool, by: Actor | None) -> TournamentEntry:
    """Record that an entry's fee was paid to the organiser, or not (nothing is processed)."""
    tournament = locked(entry.tournament)
    if not may_run_day(by, tournament):
        raise NotFound("No such entry.", code="day_entry_not_found")
    entry = TournamentEntry.objects.select_for_update(of=("self",)).get(pk=entry.pk)
    entry.fee_paid = paid
    entry.save(update_fields=["fee_paid"])
    return entry


@dataclass(frozen=True)
class EntriesSettings:
    """What the organiser changes about entries after the declaration."""

    online_entries: bool
    entry_cap: int | None


@transaction.atomic
def entries_settings_set(
    *, tournament: Tournament, settings: EntriesSettings, by: Actor | None
) -> Tournament:
    """Open or close online entries and change the cap; a cap raised gives the freed places
    to the waiting list in order. A cap below the entries already entered keeps them (they
    were accepted) and sends the next ones to the waiting list."""
    tournament = locked(tournament)
    if not may_run_day(by, tournament):
        if may_see_day(by, tournament):
            raise PermissionDenied("Only those who run the day change its entries.")
        raise NotFound("No such tournament.", code="day_tournament_not_found")
    cap = settings.entry_cap
    if cap is not None and not 1 <= cap <= 2000:
        raise RuleViolation.single(
            "entry_cap",
            "entry_cap_invalid",
            "The entry cap is a number of entries from 1 to 2000.",
            {"maximum": 2000},
        )
    tournament.online_entries = settings.online_entries
    tournament.entry_cap = cap
    tournaments_update([tournament], ["online_entries", "entry_cap"], by=by)
    while _promote_first_waiting(tournament) is not None:
        pass
    return tournament


@transaction.atomic
def convocations_send(*, tournament: Tournament, by: Actor | None) -> int:
    """Send the convocation e-mail to the players of the entered entries who chose it, after
    the commit; each is sent once (a second send tells only those entered since). The
    number of entries it concerns."""
    tournament = locked(tournament)
    if not may_run_day(by, tournament):
        raise NotFound("No such tournament.", code="day_tournament_not_found")
    if entries_closed_for(tournament):
        raise RuleViolation.single(
            "tournament",
            "day_entries_closed",
            "Entries to this tournament are closed: its day has passed or its results were sent.",
            {"tournament": tournament.name},
        )
    count = TournamentEntry.objects.filter(tournament=tournament, state=EntryState.ENTERED).count()
    send_on_commit("day.email_convocations", tournament.pk)
    return count
