"""The entry pages: the organiser's entries of a tournament (enter anyone, withdraw, fee
paid, online entries and cap, convocations, the list as CSV or printable PDF), a
licensee's « S'inscrire » from the calendar, and the player's « Mes inscriptions » and
« Mes arbitrages ». Thin: every write is a service of ``competitions.day.entries``, every
refusal shown on its field in French (a 400), anything out of the reader's scope a 404."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from competitions.day import entries, my_entries
from competitions.day.access import may_run_day
from competitions.day.entry_forms import (
    EntriesSettingsForm,
    OrganiserEntryForm,
    PlayerEntryForm,
)
from competitions.day.pages import day_tournament
from competitions.models import EntryState, Tournament, TournamentEntry
from core.errors import NotFound, PermissionDenied, ServiceError
from core.export_formats import export_response
from core.messages import error_message, problem_message
from core.problems import RuleViolation
from federation.models import Player

STATE_LABELS = {
    EntryState.ENTERED: EntryState.ENTERED.label,
    EntryState.WAITING: EntryState.WAITING.label,
    EntryState.WITHDRAWN: EntryState.WITHDRAWN.label,
}


def _entry_id(request) -> int:
    text = request.POST.get("entry", "")
    if not text.isdecimal() or len(text) > 12:
        raise Http404
    return int(text)


def _refusal(request, error: ServiceError) -> None:
    """A refusal that is no form's: NotFound is a 404, others a message on the page."""
    if isinstance(error, NotFound):
        raise Http404
    messages.error(request, error_message(error))


# --- the organiser's entries page ----------------------------------------------------


@require_http_methods(["GET", "POST"])
@login_required
def entries_page(request, pk: int):
    """/tournois/<n>/inscriptions/: the entries, their counts, and for those who run the
    day: enter, withdraw, fee paid, the settings, the convocations, the exports."""
    tournament = day_tournament(request, pk)
    may_run = may_run_day(request.user, tournament)
    form = OrganiserEntryForm(tournament=tournament)
    settings_form = EntriesSettingsForm(
        initial={"online_entries": tournament.online_entries, "entry_cap": tournament.entry_cap}
    )
    status = 200
    if request.method == "POST":
        if not may_run:
            raise DjangoPermissionDenied
        action = request.POST.get("action", "")
        try:
            if action == "enter":
                form = OrganiserEntryForm(request.POST, tournament=tournament)
                if form.is_valid():
                    try:
                        entry = entries.entry_enter(
                            tournament=tournament, request=form.entry_request(), by=request.user
                        )
                    except RuleViolation as refused:
                        form.add_problems(refused.problems)
                    else:
                        messages.success(request, _entered_message(entry))
                        return redirect("day-entries", tournament.pk)
                status = 400
            elif action == "settings":
                settings_form = EntriesSettingsForm(request.POST)
                if settings_form.is_valid():
                    try:
                        entries.entries_settings_set(
                            tournament=tournament, settings=settings_form.settings(),
                            by=request.user,
                        )  # fmt: skip
                    except RuleViolation as refused:
                        settings_form.add_problems(refused.problems)
                    else:
                        messages.success(request, gettext("The entry settings are saved."))
                        return redirect("day-entries", tournament.pk)
                status = 400
            elif action in ("withdraw", "paid", "unpaid"):
                entry = entries.entry_of(
                    tournament=tournament, entry_id=_entry_id(request), by=request.user
                )
                if action == "withdraw":
                    promoted = entries.entry_withdraw(entry=entry, by=request.user)
                    messages.success(request, _withdrawn_message(entry, promoted))
                else:
                    entries.entry_fee_paid_set(entry=entry, paid=action == "paid", by=request.user)
                return redirect("day-entries", tournament.pk)
            elif action == "convocations":
                count = entries.convocations_send(tournament=tournament, by=request.user)
                messages.success(
                    request,
                    gettext(
                        "The convocations of %(count)s entries are on their way, to the "
                        "players who chose them."
                    )
                    % {"count": count},
                )
                return redirect("day-entries", tournament.pk)
            elif action == "mirror":
                changed = entries.stage_entries_mirror(tournament=tournament, by=request.user)
                messages.success(
                    request,
                    gettext("%(count)s entries taken from the championship.") % {"count": changed},
                )
                return redirect("day-entries", tournament.pk)
            else:
                raise Http404
        except RuleViolation as refused:
            for problem in refused.problems:
                messages.error(request, problem_message(problem))
            status = 400
        except ServiceError as error:
            _refusal(request, error)
            status = 400 if not isinstance(error, PermissionDenied) else 403
    context = {
        "tournament": tournament,
        "may_run": may_run,
        "entries": list(entries.tournament_entries(tournament)),
        "counts": entries.entry_counts(tournament),
        "form": form,
        "settings_form": settings_form,
        "stage": entries.tournament_stage(tournament) is not None,
        "closed": entries.entries_closed_for(tournament),
    }
    return render(request, "day/entries.html", context, status=status)


def _entered_message(entry: TournamentEntry) -> str:
    if entry.state == EntryState.WAITING:
        return gettext("Entry %(number)s is on the waiting list.") % {"number": entry.number}
    return gettext("Entry %(number)s is entered.") % {"number": entry.number}


def _withdrawn_message(entry: TournamentEntry, promoted: TournamentEntry | None) -> str:
    text = gettext("Entry %(number)s is withdrawn.") % {"number": entry.number}
    if promoted is not None:
        text += " " + gettext(
            "Entry %(number)s, first on the waiting list, takes the place freed."
        ) % {"number": promoted.number}
    return text


@dataclass(frozen=True)
class EntriesTable:
    """The entries as an export (core/export_formats.py): the organiser's list, printable."""

    tournament: Tournament

    @property
    def title(self) -> str:
        return gettext("Entries – %(name)s") % {"name": self.tournament.name}

    @property
    def subtitle(self) -> str:
        when = self.tournament.date.strftime("%d/%m/%Y")
        return f"{when} · {self.tournament.venue}"

    @property
    def header(self) -> list[str]:
        return [
            gettext("No."),
            gettext("Licence"),
            gettext("Players"),
            gettext("State"),
            gettext("Fee paid"),
            gettext("Entered on"),
        ]

    def rows(self) -> Iterator[list[object]]:
        for entry in entries.tournament_entries(self.tournament):
            members = list(entry.members.all())
            yield [
                entry.number,
                ", ".join(str(m.player.licence_number) if m.player else "—" for m in members),
                (f"{entry.team_name} : " if entry.team_name else "")
                + ", ".join(entries.member_name(m) for m in members),
                str(STATE_LABELS[EntryState(entry.state)]),
                gettext("yes") if entry.fee_paid else gettext("no"),
                timezone.localtime(entry.entered_at).strftime("%d/%m/%Y %H:%M"),
            ]

    def file_name(self, extension: str) -> str:
        name = slugify(self.tournament.name) or "tournoi"
        return f"inscriptions-{name}-{self.tournament.date:%Y%m%d}.{extension}"


@require_safe
@login_required
def entries_export(request, pk: int, file_format: str):
    """The entries as CSV or as a printable PDF (the organiser's side and staff above)."""
    tournament = day_tournament(request, pk)
    return export_response(
        EntriesTable(tournament), file_format, sheet_title=gettext("Entries"), right_aligned=0
    )


# --- the player's own pages -----------------------------------------------------------


def _own_player(request) -> Player | None:
    player_id = request.user.player_id
    return Player.objects.filter(pk=player_id).first() if player_id else None


@require_http_methods(["GET", "POST"])
@login_required
def enter_page(request, pk: int):
    """/calendrier/tournoi/<n>/inscription/: a licensee enters themself (and, in a DUO or a
    team, the partners they name by licence number)."""
    tournament = get_object_or_404(
        Tournament.objects.select_related("season", "organizer_club"), pk=pk
    )
    player = _own_player(request)
    current = entries.player_live_entry(tournament, player.pk if player else None)
    form = (
        PlayerEntryForm(
            request.POST if request.method == "POST" else None,
            tournament=tournament,
            own_licence=player.licence_number,
        )
        if player is not None
        else None
    )
    status = 200
    if request.method == "POST":
        if form is None:
            raise DjangoPermissionDenied
        if form.is_valid():
            try:
                entry = entries.entry_enter(
                    tournament=tournament, request=form.entry_request(), by=request.user
                )
            except RuleViolation as refused:
                form.add_problems(refused.problems)
            except PermissionDenied as error:
                form.add_error(None, error_message(error))
            else:
                messages.success(request, _player_entered_message(tournament, entry))
                return redirect("my-entries")
        status = 400
    context = {
        "tournament": tournament,
        "player": player,
        "current": current,
        "form": form,
        "open": entries.online_entries_open(tournament),
        "stage": entries.tournament_stage(tournament) is not None,
        "entered": entries.entry_counts(tournament).entered,
    }
    return render(request, "day/entries_enter.html", context, status=status)


def _player_entered_message(tournament: Tournament, entry: TournamentEntry) -> str:
    if entry.state == EntryState.WAITING:
        return gettext("You are on the waiting list of “%(name)s”.") % {"name": tournament.name}
    return gettext("You are entered in “%(name)s”.") % {"name": tournament.name}


@require_safe
@login_required
def my_entries_page(request):
    """/compte/inscriptions/: « Mes inscriptions »."""
    rows = my_entries.my_entries(by=request.user)
    return render(
        request,
        "day/my_entries.html",
        {"rows": rows, "linked": request.user.player_id is not None},
    )


@require_POST
@login_required
def my_entry_withdraw(request):
    """/compte/inscriptions/retrait/: a player withdraws an entry of theirs."""
    entry = TournamentEntry.objects.select_related("tournament").filter(pk=_entry_id(request))
    found = entry.first()
    if found is None:
        raise Http404
    try:
        entries.entry_withdraw(entry=found, by=request.user)
    except RuleViolation as refused:
        for problem in refused.problems:
            messages.error(request, problem_message(problem))
    except ServiceError as error:
        _refusal(request, error)
    else:
        messages.success(
            request, gettext("You withdrew from “%(name)s”.") % {"name": found.tournament.name}
        )
    return redirect("my-entries")


@require_safe
@login_required
def my_arbitrations_page(request):
    """/compte/arbitrages/: « Mes arbitrages », each linking to the day's hub."""
    tournaments = list(my_entries.my_arbitrations(by=request.user))
    counts = entries.entered_counts([t.pk for t in tournaments])
    rows = [{"tournament": t, "entered": counts.get(t.pk, 0)} for t in tournaments]
    return render(
        request,
        "day/my_arbitrations.html",
        {"rows": rows, "linked": request.user.player_id is not None},
    )
