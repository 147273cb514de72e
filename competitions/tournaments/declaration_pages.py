"""The page to declare a tournament: the same checks as the API (one service,
:func:`competitions.tournaments.declaration.tournament_declare`), every refusal shown on
its field in French, and the homologation conditions of chapter 5 shown before sending."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from competitions.models import EventKindChoice, OrganizerKind, TournamentFormat
from competitions.rulebooks import rulebook_in_force
from competitions.rules.engine.seating import PlacementMethod
from competitions.rules.rulebook import EventKind, Organizer, Rulebook
from competitions.tournaments import club_space, declaration
from core.errors import ServiceError
from core.messages import error_message, problem_message
from core.problems import Problem, RuleViolation
from core.vocabulary import Format
from federation.access import Scope, scope_of
from federation.models import Committee, Season, Zone
from federation.selectors import current_season, season_for_date

FEDERATION = "federation"

# The service's field paths → the form's fields (anything else: the whole form).
FIELDS = {
    "name": "name",
    "date": "date",
    "venue": "venue",
    "format": "format",
    "organizer_kind": "organiser",
    "organizer_number": "organiser",
    "arbiter_licence_number": "arbiter_licence_number",
    "arbiter_plays": "arbiter_plays",
    "planned_sessions": "planned_sessions",
    "start_time": "start_time",
    "address": "address",
    "contact": "contact",
    "entry_fee": "entry_fee",
    "entry_cap": "entry_cap",
    "online_entries": "online_entries",
    "tables_of_five": "tables_of_five",
    "position_totals": "position_totals",
    "live_page": "live_page",
    "placements": None,  # the whole sequence: the form's own error
    "stage": None,  # the page declares ordinary tournaments: the form's own error
    "event_kind": "event_kind",
    "sessions": "planned_sessions",
    "sessions[0].date": "date",
    "sessions[0].venue": "venue",
}

SESSION_ROWS = 3
"""Later sessions the form offers a day and a venue for (sessions 2 to 4); the API takes
up to twenty."""

PLACEMENT_ROWS = 12
"""Positions whose placement the form offers (the arbiter's announcement; the service
takes more, from the API)."""
PLACEMENT_CHOICES = [
    (PlacementMethod.FFT_MOVEMENT.value, _("FFT movement")),
    (PlacementMethod.RANDOM.value, _("Random placement")),
    (PlacementMethod.BEST_AGAINST_BEST.value, _("Best scores with the best")),
]


def organisers_of(scope: Scope) -> list[tuple[str, list[tuple[str, str]]]]:
    """The organisers ``scope`` may declare for, grouped: its clubs, and for staff their
    committees, zones (and the FFT for federation staff). Values read ``kind:number``."""
    clubs = [
        (f"{OrganizerKind.CLUB}:{club.number}", f"{club.number} – {club.name}")
        for club in club_space.clubs_covered_by(scope)
    ]
    groups = [(str(_("Clubs")), clubs)] if clubs else []
    if not scope.is_staff:
        return groups
    committees = Committee.objects.order_by("number")
    zones = Zone.objects.order_by("number")
    if not scope.national:
        committees = committees.filter(pk__in=scope.committee_ids) | committees.filter(
            zone_id__in=scope.zone_ids
        )
        zones = zones.filter(pk__in=scope.zone_ids)
    if committee_choices := [
        (f"{OrganizerKind.COMMITTEE}:{c.number}", f"{c.number:02d} – {c.name}") for c in committees
    ]:
        groups.append((str(_("Committees")), committee_choices))
    if zone_choices := [(f"{OrganizerKind.ZONE}:{z.number}", z.name) for z in zones]:
        groups.append((str(_("Zones")), zone_choices))
    if scope.national:
        groups.append((str(_("Federation")), [(FEDERATION, str(_("French Tarot Federation")))]))
    return groups


class DeclarationForm(forms.Form):
    name = forms.CharField(label=_("Tournament name"), max_length=200)
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    venue = forms.CharField(
        label=_("Venue"),
        max_length=200,
        help_text=_("One place: every table plays there, at the same time."),
    )
    format = forms.ChoiceField(label=_("Format"), choices=TournamentFormat.choices)
    event_kind = forms.ChoiceField(
        label=_("Kind of event"),
        choices=EventKindChoice.choices,
        initial=EventKindChoice.FREE_TOURNAMENT,
        required=False,  # a free tournament when not said
        help_text=_(
            "A team match is played in DUO or by teams of 4. In a team match or a festival, "
            "the arbiter may not play."
        ),
    )
    organiser = forms.ChoiceField(label=_("Organiser"))
    arbiter_licence_number = forms.IntegerField(
        label=_("Arbiter's licence number"),
        min_value=1,
        help_text=_("An official FFT arbiter for the tournament's season."),
    )
    arbiter_plays = forms.BooleanField(label=_("The arbiter also plays"), required=False)
    planned_sessions = forms.IntegerField(
        label=_("Number of sessions"), min_value=1, max_value=20, initial=1
    )
    start_time = forms.TimeField(
        label=_("Start time"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}),
    )
    address = forms.CharField(
        label=_("Address"),
        max_length=300,
        required=False,
        help_text=_("Street and town, for the players coming."),
    )
    contact = forms.CharField(
        label=_("Contact"),
        max_length=200,
        required=False,
        help_text=_("Whom players ask: a name, a telephone or an address (public)."),
    )
    entry_fee = forms.DecimalField(
        label=_("Entry fee (€)"),
        required=False,
        min_value=0,
        max_digits=6,
        decimal_places=2,
        help_text=_("Recorded only: its payment is made to the organiser."),
    )
    entry_cap = forms.IntegerField(
        label=_("Entry cap"),
        required=False,
        min_value=1,
        max_value=2000,
        help_text=_("Beyond it, entries go to a waiting list."),
    )
    online_entries = forms.BooleanField(
        label=_("Licensees may enter online, from the calendar"), required=False
    )
    tables_of_five = forms.BooleanField(
        label=_("Tables of 5 with a mort rather than tables of 3"), required=False
    )
    position_totals = forms.BooleanField(
        label=_("Tables may enter their position totals instead of each deal"), required=False
    )
    live_page = forms.BooleanField(label=_("A public live page on the day"), required=False)

    def __init__(self, *args, organisers, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["organiser"].choices = organisers  # type: ignore[attr-defined]
        for position in range(1, PLACEMENT_ROWS + 1):
            self.fields[f"placement_{position}"] = forms.ChoiceField(
                label=_("Position %(number)s: placement") % {"number": position},
                choices=[("", "—"), *PLACEMENT_CHOICES],
                required=False,
                help_text=_("Optional: the placements the arbiter announces, position by position.")
                if position == 1
                else "",
            )
        for number in range(2, SESSION_ROWS + 2):
            self.fields[f"session_{number}_date"] = forms.DateField(
                label=_("Session %(number)s: date") % {"number": number},
                required=False,
                widget=forms.DateInput(attrs={"type": "date"}),
                help_text=_(
                    "Optional: only when the sessions are not all played on the tournament's "
                    "date (a championship's qualifier over two afternoons)."
                )
                if number == 2
                else "",
            )
            self.fields[f"session_{number}_venue"] = forms.CharField(
                label=_("Session %(number)s: venue") % {"number": number},
                required=False,
                max_length=200,
                help_text=_("Blank: the tournament's venue.") if number == 2 else "",
            )

    def placements(self) -> tuple[str, ...]:
        """The placements chosen, position by position, up to the last one chosen."""
        chosen = [self.cleaned_data.get(f"placement_{p}", "") for p in range(1, PLACEMENT_ROWS + 1)]
        while chosen and not chosen[-1]:
            chosen.pop()
        return tuple(chosen)

    def sessions(self) -> tuple[declaration.SessionDeclared, ...]:
        """Every session's day and venue when a later session is given one, else none."""
        data = self.cleaned_data
        later = [
            declaration.SessionDeclared(
                date=data[f"session_{n}_date"], venue=data.get(f"session_{n}_venue") or ""
            )
            for n in range(2, SESSION_ROWS + 2)
            if data.get(f"session_{n}_date")
        ]
        if not later:
            return ()
        return (declaration.SessionDeclared(date=data["date"], venue=data["venue"]), *later)

    def clean(self):
        data = super().clean()
        for number in range(2, SESSION_ROWS + 2):
            if data.get(f"session_{number}_venue") and not data.get(f"session_{number}_date"):
                self.add_error(
                    f"session_{number}_date", _("Give this session's date, or no venue.")
                )
        for position, value in enumerate(self.placements(), start=1):
            if not value:
                self.add_error(
                    f"placement_{position}",
                    _("Choose this position's placement: a later position has one."),
                )
        return data

    def declaration(self) -> declaration.Declaration:
        data = self.cleaned_data
        kind, _sep, number = data["organiser"].partition(":")
        return declaration.Declaration(
            name=data["name"],
            date=data["date"],
            venue=data["venue"],
            format=data["format"],
            organizer_kind=kind,
            organizer_number=int(number) if number else None,
            arbiter_licence_number=data["arbiter_licence_number"],
            arbiter_plays=data["arbiter_plays"],
            planned_sessions=data["planned_sessions"],
            placements=self.placements(),
            event_kind=data.get("event_kind") or EventKindChoice.FREE_TOURNAMENT,
            sessions=self.sessions(),
            start_time=data.get("start_time"),
            address=data.get("address", ""),
            contact=data.get("contact", ""),
            entry_fee=data.get("entry_fee"),
            entry_cap=data.get("entry_cap"),
            online_entries=data.get("online_entries", False),
            tables_of_five=data.get("tables_of_five", False),
            position_totals=data.get("position_totals", False),
            live_page=data.get("live_page", False),
        )

    def add_problems(self, problems: tuple[Problem, ...]) -> None:
        """The service's refusals, each on its field, in the active language."""
        for problem in problems:
            name, _sep, index = problem.field.partition("[")
            if name == "placements" and index[:-1].isdecimal():  # placements[2]: position 3
                position = int(index[:-1]) + 1
                field = f"placement_{position}" if position <= PLACEMENT_ROWS else None
            elif name == "sessions" and problem.field not in FIELDS:  # sessions[1].date
                number = int(index.partition("]")[0]) + 1
                part = problem.field.rpartition(".")[2]
                field = f"session_{number}_{part}" if part in ("date", "venue") else None
            else:
                field = FIELDS.get(problem.field, FIELDS.get(name))
            self.add_error(field, problem_message(problem))


@dataclass(frozen=True)
class FormatCondition:
    format: str
    label: str
    minimum_entries: int
    chosen: bool


ORGANIZER_LABELS = {
    Organizer.FFT: _("the FFT"),
    Organizer.ZONE: _("one of its zones"),
    Organizer.REGIONAL_COMMITTEE: _("a regional committee"),
    Organizer.AFFILIATED_CLUB: _("a club affiliated to the FFT for the season"),
    Organizer.UNAFFILIATED_CLUB: _("a club not affiliated to the FFT"),
    Organizer.OTHER: _("another organiser"),
}


EVENT_KIND_LABELS = {
    EventKind.FREE_TOURNAMENT: _("free tournaments"),
    EventKind.OFFICIAL_CHAMPIONSHIP: _("official championships"),
    EventKind.TEAM_MATCH: _("team matches"),
    EventKind.FESTIVAL: _("tarot festivals"),
}


@dataclass(frozen=True)
class Conditions:
    """Chapter 5 as the season's rulebook in force says it, for the page."""

    season: Season
    organisers: list[str]
    arbiter_may_play: bool
    arbiter_may_not_play_in: list[str]
    several_days_in: list[str]
    team_match_formats: list[str]
    forbidden_table_size: int
    formats: list[FormatCondition]
    first_place_points_per_table: int
    cap: int
    floor: int


def homologation_conditions(day: dt.date | None, chosen_format: str | None) -> Conditions | None:
    """The conditions under the rulebook of the season of ``day`` (else the current one)."""
    season = (season_for_date(day) if day else None) or current_season(timezone.localdate())
    if season is None:
        return None
    _version, rulebook = rulebook_in_force(season=season)
    return _conditions(season, rulebook, chosen_format)


def _conditions(season: Season, rulebook: Rulebook, chosen_format: str | None) -> Conditions:
    rules = rulebook.homologation
    ordinary = rulebook.stages.ordinary
    return Conditions(
        season=season,
        organisers=[str(ORGANIZER_LABELS[o]) for o in Organizer if o in rules.organizers],
        arbiter_may_play=EventKind.FREE_TOURNAMENT not in rules.arbiter_may_not_play_in,
        arbiter_may_not_play_in=[
            str(EVENT_KIND_LABELS[k]) for k in EventKind if k in rules.arbiter_may_not_play_in
        ],
        several_days_in=[
            str(EVENT_KIND_LABELS[k]) for k in EventKind if k in rules.several_days_in
        ],
        team_match_formats=[
            str(label)
            for value, label in TournamentFormat.choices
            if Format(value) in rules.team_match_formats
        ],
        forbidden_table_size=rules.forbidden_table_size,
        formats=[
            FormatCondition(
                format=value,
                label=str(label),
                minimum_entries=rulebook.formats.of(Format(value)).minimum_entries,
                chosen=value == chosen_format,
            )
            for value, label in TournamentFormat.choices
        ],
        first_place_points_per_table=rulebook.first_place_points_per_table,
        cap=ordinary.cap,
        floor=rulebook.floor,
    )


@login_required
def declare_tournament(request):
    """Declare a tournament for one of the person's organisers; then its page."""
    scope = scope_of(request.user)
    if not scope.manages_anything:
        raise PermissionDenied
    organisers = organisers_of(scope)
    if request.method == "POST":
        form = DeclarationForm(request.POST, organisers=organisers)
        if form.is_valid():
            try:
                tournament, _created = declaration.tournament_declare(
                    declaration=form.declaration(), by=request.user
                )
            except RuleViolation as refusal:
                form.add_problems(refusal.problems)
            except ServiceError as refusal:  # the organiser is not the person's to declare for
                form.add_error("organiser", error_message(refusal))
            else:
                return redirect("club-tournament", tournament.pk)
    else:
        form = DeclarationForm(organisers=organisers, initial={"format": request.GET.get("format")})
    day = form.cleaned_data.get("date") if form.is_bound and hasattr(form, "cleaned_data") else None
    context = {
        "form": form,
        "conditions": homologation_conditions(day, form["format"].value()),
    }
    return render(
        request,
        "competitions/declare_tournament.html",
        context,
        status=400 if form.is_bound and form.errors else 200,
    )
