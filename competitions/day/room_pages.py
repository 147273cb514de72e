"""The room's pages: check-in (a list with large « présent » toggles, a search, a late
arrival), the draw of a session, the room plan per position, the printouts, and each
player's own page of where to sit.

Thin: each POST calls one service of :mod:`competitions.day.room` and shows its refusal on
the field (a 400) or, for a refusal of the whole action, above the form (403/409). The
tournament's day is a 404 to anyone who may not see it; the staff who see it without running
it read the pages without their forms.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST, require_safe

from competitions.day import printouts, room
from competitions.day.access import may_run_day
from competitions.day.pages import day_tournament
from competitions.models import EntryMember, EntryState, PlayedSession, Tournament
from competitions.rules.engine.tables import seat_word
from competitions.tournaments import selectors
from core.errors import Conflict, ServiceError
from core.folding import fold
from core.http.confirmation import unconfirmed
from core.messages import error_message, problem_message
from core.problems import Problem, RuleViolation
from core.vocabulary import Format


def _refusal(error: Exception) -> list[str]:
    if isinstance(error, RuleViolation):
        return [problem_message(p) for p in error.problems]
    assert isinstance(error, ServiceError)
    return [error_message(error)]


def _status(error: Exception) -> int:
    if isinstance(error, RuleViolation):
        return 400
    return 409 if isinstance(error, Conflict) else 403


class _Located(forms.Form):
    """A form that shows a service's problems on their fields."""

    def field_of(self, problem: Problem) -> str | None:
        head = problem.field.split(".")[0]
        if head.startswith("members["):
            return f"member_{int(head[8:].split(']')[0]) + 1}"
        return head if head in self.fields else None

    def locate(self, problems) -> None:
        for problem in problems:
            self.add_error(self.field_of(problem), problem_message(problem))


# --- check-in ----------------------------------------------------------------------------


class LateArrivalForm(_Located):
    """A late arrival: each player by licence number (digits) or by name (a non-licensee)."""

    team_name = forms.CharField(label=gettext_lazy("Team name"), max_length=100, required=False)

    def __init__(self, *args, size: int, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for index in range(1, size + 1):
            self.fields[f"member_{index}"] = forms.CharField(
                label=(
                    _("Player %(n)s: licence number or name") % {"n": index}
                    if size > 1
                    else _("Licence number or name")
                ),
                max_length=200,
                help_text=_("A name for a non-licensee."),
            )
        if size == 1:
            del self.fields["team_name"]
        self.size = size

    def members(self) -> list[int | str]:
        values: list[int | str] = []
        for index in range(1, self.size + 1):
            text = self.cleaned_data[f"member_{index}"].strip()
            values.append(int(text) if text.isascii() and text.isdigit() else text)
        return values


def _entries_shown(tournament: Tournament, query: str) -> list[dict]:
    entries = (
        tournament.day_entries.exclude(state=EntryState.WITHDRAWN)
        .order_by("number")
        .prefetch_related("members__player")
    )
    folded = fold(query.strip())
    shown = []
    for entry in entries:
        members = [m for m in entry.members.all() if m.active]
        names = [room.person_name(m) for m in members]
        licences = [str(m.player.licence_number) for m in members if m.player is not None]
        haystack = fold(" ".join([*names, *licences, entry.team_name, str(entry.number)]))
        if folded and folded not in haystack:
            continue
        shown.append({"entry": entry, "names": names, "licences": licences})
    return shown


def _checkin_page(request, tournament: Tournament, *, status: int = 200, **context):
    query = request.GET.get("q", "") if request.method == "GET" else request.POST.get("q", "")
    size = Format(tournament.format).team_size
    counts = {
        "present": tournament.day_entries.filter(state=EntryState.ENTERED, present=True).count(),
        "absent": tournament.day_entries.filter(state=EntryState.ENTERED, present=False).count(),
        "waiting": tournament.day_entries.filter(state=EntryState.WAITING).count(),
    }
    context.setdefault("late_form", LateArrivalForm(size=size))
    context.update(
        {
            "tournament": tournament,
            "may_run": may_run_day(request.user, tournament),
            "rows": _entries_shown(tournament, query),
            "q": query,
            "counts": counts,
        }
    )
    return render(request, "day/room_checkin.html", context, status=status)


@require_safe
@login_required
def checkin(request, pk: int):
    return _checkin_page(request, day_tournament(request, pk))


def _back_to_checkin(pk: int, query: str, number: int | None = None) -> str:
    url = reverse("day-checkin", args=[pk])
    if query:
        from urllib.parse import urlencode

        url += "?" + urlencode({"q": query})
    return url + (f"#entry-{number}" if number else "")


@require_POST
@login_required
def checkin_toggle(request, pk: int, number: int):
    tournament = day_tournament(request, pk, run=True)
    present = request.POST.get("present") == "1"
    try:
        room.entry_presence_set(
            tournament=tournament, entry_number=number, present=present, by=request.user
        )
    except (RuleViolation, ServiceError) as refusal:
        return _checkin_page(
            request, tournament, status=_status(refusal), refusal=_refusal(refusal)
        )
    return redirect(_back_to_checkin(pk, request.POST.get("q", ""), number))


@require_POST
@login_required
def late_arrival(request, pk: int):
    tournament = day_tournament(request, pk, run=True)
    form = LateArrivalForm(request.POST, size=Format(tournament.format).team_size)
    if not form.is_valid():
        return _checkin_page(request, tournament, status=400, late_form=form)
    try:
        entry = room.late_arrival_add(
            tournament=tournament,
            members=form.members(),
            team_name=form.cleaned_data.get("team_name", ""),
            by=request.user,
        )
    except RuleViolation as refusal:
        form.locate(refusal.problems)
        return _checkin_page(request, tournament, status=400, late_form=form)
    except ServiceError as refusal:
        return _checkin_page(
            request, tournament, status=_status(refusal), refusal=_refusal(refusal)
        )
    messages.success(
        request, _("Entry no. %(number)s added and marked present.") % {"number": entry.number}
    )
    return redirect(_back_to_checkin(pk, "", entry.number))


@require_POST
@login_required
def no_shows(request, pk: int):
    tournament = day_tournament(request, pk, run=True)
    absent = tournament.day_entries.filter(state=EntryState.ENTERED, present=False).count()
    asked = unconfirmed(
        request,
        title=_("Withdraw the no-shows"),
        text=ngettext(
            "%(count)s entry not marked present will be withdrawn.",
            "%(count)s entries not marked present will be withdrawn.",
            absent,
        )
        % {"count": absent},
        button=_("Withdraw them"),
        back=reverse("day-checkin", args=[pk]),
    )
    if asked is not None:
        return asked
    try:
        numbers = room.no_shows_withdraw(tournament=tournament, by=request.user)
    except ServiceError as refusal:
        return _checkin_page(
            request, tournament, status=_status(refusal), refusal=_refusal(refusal)
        )
    withdrawn = ngettext("%(count)s entry withdrawn.", "%(count)s entries withdrawn.", len(numbers))
    messages.success(request, withdrawn % {"count": len(numbers)})
    return redirect("day-checkin", pk=pk)


# --- the draw ----------------------------------------------------------------------------

PLACEMENT_LABELS = {
    room.Placement.RANDOM: gettext_lazy("random draw"),
    room.Placement.BEST_AGAINST_BEST: gettext_lazy("best against best (standings so far)"),
    room.Placement.CHAMPIONSHIP: gettext_lazy("championship seating (article 25)"),
}


class DrawForm(_Located):
    positions = forms.IntegerField(label=gettext_lazy("Positions"), min_value=1, max_value=20)
    deals_per_position = forms.IntegerField(
        label=gettext_lazy("Deals per position"), min_value=1, max_value=room.MAX_DEALS_PER_POSITION
    )
    placement = forms.ChoiceField(label=gettext_lazy("Seating"))
    seed = forms.IntegerField(
        label=gettext_lazy("Seed of the draw"),
        required=False,
        min_value=0,
        max_value=2**62,
        help_text=gettext_lazy("Empty: drawn now and recorded."),
    )
    session = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)

    def __init__(self, *args, placements, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        choice = self.fields["placement"]
        assert isinstance(choice, forms.ChoiceField)
        choice.choices = [(p.value, PLACEMENT_LABELS[p]) for p in placements]


class PhaseForm(_Located):
    """The rest of a session after a cut between positions."""

    session = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    after_position = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    positions = forms.IntegerField(label=gettext_lazy("Positions"), min_value=1, max_value=20)
    placement = forms.ChoiceField(label=gettext_lazy("Seating"))
    seed = forms.IntegerField(
        label=gettext_lazy("Seed of the draw"),
        required=False,
        min_value=0,
        max_value=2**62,
        help_text=gettext_lazy("Empty: drawn now and recorded."),
    )

    def __init__(self, *args, tournament: Tournament, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        choice = self.fields["placement"]
        assert isinstance(choice, forms.ChoiceField)
        choice.choices = [
            (p.value, PLACEMENT_LABELS[p]) for p in room.placements_for(tournament, 2)
        ]


def _entry_names(tournament: Tournament) -> dict[int, str]:
    names: dict[int, list[str]] = {}
    for (entry, _member), name in sorted(room.member_names(tournament).items()):
        names.setdefault(entry, []).append(name)
    return {entry: " – ".join(found) for entry, found in names.items()}


def _cuts_context(request, tournament: Tournament, phase_form: PhaseForm | None = None) -> dict:
    """Who played on and who was eliminated at each cut drawn, and the cuts whose rest of
    session is to draw (with its form, once the position before it is complete)."""
    names = _entry_names(tournament)
    fields = [
        {
            "session": f.session,
            "after_position": f.after_position,
            "playing": [(n, names.get(n, "")) for n in f.playing],
            "eliminated": [(n, names.get(n, "")) for n in f.eliminated],
        }
        for f in room.phase_fields(tournament=tournament, by=request.user)
    ]
    pending = []
    for cut in room.pending_cuts(tournament=tournament, by=request.user):
        mine = (
            phase_form is not None
            and phase_form.data.get("session") == str(cut.session)
            and phase_form.data.get("after_position") == str(cut.after_position)
        )
        pending.append(
            {
                "cut": cut,
                "form": phase_form
                if mine
                else PhaseForm(
                    initial={
                        "session": cut.session,
                        "after_position": cut.after_position,
                        "positions": cut.positions or 1,
                    },
                    tournament=tournament,
                ),
            }
        )
    return {"cut_fields": fields, "pending_cuts": pending}


def _draw_page(request, tournament: Tournament, *, status: int = 200, **context):
    context.update(_cuts_context(request, tournament, context.pop("phase_form", None)))
    sessions = list(tournament.played_sessions.order_by("number"))
    scored = {s.pk for s in sessions if room.scores_exist(s)}
    next_number = (sessions[-1].number + 1) if sessions else 1
    players = room.players_present(tournament)
    formula = room.proposed_formula(tournament)
    allowed = room.positions_allowed(tournament, players)
    if "form" not in context:
        context["form"] = DrawForm(
            initial={
                "positions": min(formula.positions, allowed) if allowed else formula.positions,
                "deals_per_position": formula.deals_per_position,
            },
            placements=room.placements_for(tournament, next_number),
        )
    context.update(
        {
            "tournament": tournament,
            "may_run": may_run_day(request.user, tournament),
            "sessions": [
                {"session": s, "scored": s.pk in scored, "tables": len(s.plan["positions"][0])}
                for s in sessions
            ],
            "next_number": next_number,
            "players": players,
            "allowed": allowed,
            "fives": tournament.tables_of_five and tournament.format == Format.INDIVIDUAL,
            "fives_ignored": tournament.tables_of_five and tournament.format != Format.INDIVIDUAL,
            "odd": players % 4,
        }
    )
    return render(request, "day/room_draw.html", context, status=status)


@login_required
def draw(request, pk: int):
    if request.method not in ("GET", "HEAD", "POST"):
        return HttpResponse(status=405)
    if request.method != "POST":
        return _draw_page(request, day_tournament(request, pk))
    tournament = day_tournament(request, pk, run=True)
    number = request.POST.get("session") or None
    session_number = int(number) if number and number.isdigit() else None
    last = tournament.played_sessions.order_by("-number").values_list("number", flat=True)
    upcoming = session_number or (last.first() or 0) + 1
    form = DrawForm(request.POST, placements=room.placements_for(tournament, upcoming))
    if not form.is_valid():
        return _draw_page(request, tournament, status=400, form=form)
    data = form.cleaned_data
    try:
        session = room.session_draw(
            tournament=tournament,
            positions=data["positions"],
            deals_per_position=data["deals_per_position"],
            placement=data["placement"],
            seed=data["seed"],
            session_number=data["session"],
            by=request.user,
        )
    except RuleViolation as refusal:
        form.locate(refusal.problems)
        return _draw_page(request, tournament, status=400, form=form)
    except ServiceError as refusal:
        return _draw_page(
            request, tournament, status=_status(refusal), refusal=_refusal(refusal), form=form
        )
    messages.success(request, _("Session %(number)s drawn.") % {"number": session.number})
    return redirect("day-room-plan", pk=pk, number=session.number)


@require_POST
@login_required
def draw_phase(request, pk: int):
    """The rest of a session after a cut between positions (:func:`room.phase_draw`)."""
    tournament = day_tournament(request, pk, run=True)
    form = PhaseForm(request.POST, tournament=tournament)
    if not form.is_valid():
        return _draw_page(request, tournament, status=400, phase_form=form)
    data = form.cleaned_data
    try:
        session = room.phase_draw(
            tournament=tournament,
            session_number=data["session"],
            after_position=data["after_position"],
            positions=data["positions"],
            placement=data["placement"],
            seed=data["seed"],
            by=request.user,
        )
    except RuleViolation as refusal:
        form.locate(refusal.problems)
        return _draw_page(request, tournament, status=400, phase_form=form)
    except ServiceError as refusal:
        return _draw_page(
            request, tournament, status=_status(refusal), refusal=_refusal(refusal),
            phase_form=form,
        )  # fmt: skip
    messages.success(
        request,
        _("Session %(number)s drawn on after position %(position)s.")
        % {"number": session.number, "position": data["after_position"]},
    )
    return redirect(
        reverse("day-room-plan", args=[pk, session.number])
        + f"?position={data['after_position'] + 1}"
    )


# --- the room plan and the printouts -----------------------------------------------------


def _session(tournament: Tournament, number: int) -> PlayedSession:
    return get_object_or_404(PlayedSession, tournament=tournament, number=number)


def _position(request, session: PlayedSession) -> int:
    text = request.GET.get("position", "1")
    position = int(text) if text.isascii() and text.isdigit() else 1
    return min(max(position, 1), len(session.plan["positions"]))


@require_safe
@login_required
def room_plan(request, pk: int, number: int):
    tournament = day_tournament(request, pk)
    session = _session(tournament, number)
    position = _position(request, session)
    layout, seating = room.layout_and_seating(session)
    names = room.member_names(tournament)
    tables = []
    for table in layout.tables_at(position):
        seats = []
        for orientation, starting in table.seats.items():
            holder = seating.get(starting)
            seats.append(
                {
                    "seat": seat_word(orientation.value),
                    "number": starting,
                    "name": names.get((holder.entry, holder.member), "") if holder else "",
                    "entry": holder.entry if holder else None,
                }
            )
        tables.append({"table": table.table, "size": table.size, "seats": seats})
    context = {
        "tournament": tournament,
        "session": session,
        "position": position,
        "positions": range(1, len(layout.positions) + 1),
        "tables": tables,
        "may_run": may_run_day(request.user, tournament),
        **_cuts_context(request, tournament),
    }
    context["cut_fields"] = [f for f in context["cut_fields"] if f["session"] == number]
    return render(request, "day/room_plan.html", context)


def _pdf(content: bytes, name: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


@require_safe
@login_required
def table_cards(request, pk: int, number: int):
    tournament = day_tournament(request, pk)
    session = _session(tournament, number)
    if "position" not in request.GET:
        return _pdf(
            printouts.table_cards_pdf(session, site=printouts.cards_site(request)),
            f"cartes-seance-{number}.pdf",
        )
    position = _position(request, session)
    return _pdf(
        printouts.table_cards_pdf(session, position, site=printouts.cards_site(request)),
        f"cartes-seance-{number}-position-{position}.pdf",
    )


@require_safe
@login_required
def movement_sheets(request, pk: int, number: int):
    tournament = day_tournament(request, pk)
    session = _session(tournament, number)
    return _pdf(printouts.movement_sheets_pdf(session), f"fiches-seance-{number}.pdf")


@require_safe
@login_required
def score_sheets(request, pk: int, number: int):
    tournament = day_tournament(request, pk)
    session = _session(tournament, number)
    return _pdf(printouts.score_sheets_pdf(session), f"feuilles-seance-{number}.pdf")


# --- the player's own page ---------------------------------------------------------------


@require_safe
@login_required
def my_seats(request, pk: int):
    """Where the signed-in player sits at each position of each drawn session: a 404 to
    anyone without a live entry in the tournament."""
    tournament = get_object_or_404(selectors.tournaments(), pk=pk)
    player_id = getattr(request.user, "player_id", None)
    member = (
        EntryMember.objects.filter(tournament=tournament, player_id=player_id, active=True)
        .select_related("entry")
        .first()
        if player_id
        else None
    )
    if member is None:
        raise Http404
    seats = room.seats_of(tournament, member.entry.number, member.order)
    context = {
        "tournament": tournament,
        "entry": member.entry,
        "seats": [{"seat": s, "word": seat_word(s.seat.value)} for s in seats],
    }
    return render(request, "day/room_my_seats.html", context)
