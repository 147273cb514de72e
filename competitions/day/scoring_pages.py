"""The day's score-entry pages: the table's phone page (through its QR code, no account)
and the arbiter's grid of every table at every position, with a form per deal to enter a
missing one or correct a kept one (with its reason). Thin: the services of
:mod:`competitions.day.scoring` check and write."""

from __future__ import annotations

from decimal import Decimal
from typing import Any, cast

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import pgettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from competitions.day import scoring
from competitions.day.access import may_run_day
from competitions.day.api.scoring import table_wait
from competitions.day.pages import day_tournament
from competitions.day.table_tokens import table_url
from competitions.models import PlayedSession
from competitions.rules.engine.tables import seat_word
from core import errors
from core.messages import error_message, localize, problem_message
from core.problems import RuleViolation

SEATS = ("N", "S", "E", "W", "5")
CONTRACTS = (
    ("", pgettext_lazy("day scoring", "everyone passed")),
    ("prise", pgettext_lazy("day scoring", "prise")),
    ("garde", pgettext_lazy("day scoring", "garde")),
    ("garde_sans", pgettext_lazy("day scoring", "garde sans")),
    ("garde_contre", pgettext_lazy("day scoring", "garde contre")),
)
SIDES = (
    ("", "—"),
    ("attack", pgettext_lazy("day scoring", "the attack")),
    ("defence", pgettext_lazy("day scoring", "the defence")),
)


# ----------------------------------------------------------------------------- the table


@require_safe
def table_page(request, token: str):
    """The phone page of one table at one position (its QR code's address)."""
    wait = table_wait(request, token)
    if wait is not None:
        message = localize(
            "too_many_requests_table",
            f"Too many requests for this table: try again in {wait} seconds.",
            {"wait": wait},
        )
        page = render(request, "429.html", {"message": message}, status=429)
        page["Retry-After"] = str(wait)
        return page
    try:
        sheet = scoring.table_sheet(token=token)
    except errors.ServiceError as refused:
        status = 403 if isinstance(refused, errors.PermissionDenied) else 404
        closed = {"message": error_message(refused)}
        return render(request, "day/table_closed.html", closed, status=status)
    context: dict[str, Any] = {
        "sheet": sheet,
        "token": token,
        "deal_numbers": range(1, sheet.deals_per_position + 1),
        "seat_totals": [(seat, sheet.totals.get(seat.seat, 0)) for seat in sheet.seats],
        "contracts": CONTRACTS,
        "five": sheet.size == 5,
        "three": sheet.size == 3,
    }
    return render(request, "day/table.html", context)


# ----------------------------------------------------------------------------- the arbiter


class DealForm(forms.Form):
    """A deal as the arbiter enters or corrects it (the facts; or annulled; or removed)."""

    contract = forms.ChoiceField(
        label=pgettext_lazy("day scoring", "Contract"), choices=CONTRACTS, required=False
    )
    taker = forms.ChoiceField(label=pgettext_lazy("day scoring", "Taker"), required=False)
    sitting_out = forms.ChoiceField(
        label=pgettext_lazy("day scoring", "Mort (sits out)"), required=False
    )
    oudlers = forms.IntegerField(
        label=pgettext_lazy("day scoring", "Oudlers"), min_value=0, max_value=3, required=False
    )
    attack_points = forms.DecimalField(
        label=pgettext_lazy("day scoring", "Attack's points"),
        min_value=0,
        max_value=91,
        decimal_places=1,
        required=False,
    )
    petit_au_bout = forms.ChoiceField(
        label=pgettext_lazy("day scoring", "Petit au bout"), choices=SIDES, required=False
    )
    poignee_seat = forms.ChoiceField(
        label=pgettext_lazy("day scoring", "Poignée shown by"), required=False
    )
    poignee_trumps = forms.IntegerField(
        label=pgettext_lazy("day scoring", "Trumps shown"),
        min_value=1,
        max_value=22,
        required=False,
    )
    chelem_announced = forms.BooleanField(
        label=pgettext_lazy("day scoring", "Chelem announced"), required=False
    )
    chelem_made_by = forms.ChoiceField(
        label=pgettext_lazy("day scoring", "Chelem made by"), choices=SIDES, required=False
    )
    annulled = forms.BooleanField(
        label=pgettext_lazy("day scoring", "Deal annulled by the arbiter"), required=False
    )
    remove = forms.BooleanField(
        label=pgettext_lazy("day scoring", "Remove this deal"), required=False
    )
    reason = forms.CharField(
        label=pgettext_lazy("day scoring", "Reason"), max_length=300, required=False
    )

    FIELDS = {
        "line.contract": "contract",
        "line.taker": "taker",
        "line.sitting_out": "sitting_out",
        "line.oudlers": "oudlers",
        "line.attack_points": "attack_points",
        "line.petit_au_bout": "petit_au_bout",
        "line.chelem_announced": "chelem_announced",
        "line.chelem_made_by": "chelem_made_by",
        "line.annulled": "annulled",
        "reason": "reason",
    }

    def __init__(self, *args: Any, seats: tuple[str, ...], five: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—"), *((s, seat_word(s)) for s in seats)]  # sends the code, shows the word
        for name in ("taker", "poignee_seat", "sitting_out"):
            cast(forms.ChoiceField, self.fields[name]).choices = choices
        if not five:
            del self.fields["sitting_out"]

    def line(self) -> dict[str, Any] | None:
        data = self.cleaned_data
        if data.get("remove"):
            return None
        line: dict[str, Any] = {}
        if data.get("sitting_out"):
            line["sitting_out"] = data["sitting_out"]
        if data.get("annulled"):
            line["annulled"] = True
            return line
        line["contract"] = data.get("contract") or None
        if line["contract"] is None:
            return line
        points = data.get("attack_points")
        line.update(
            {
                "taker": data.get("taker") or None,
                "oudlers": data.get("oudlers"),
                "attack_points": _points(points),
            }
        )
        if data.get("petit_au_bout"):
            line["petit_au_bout"] = data["petit_au_bout"]
        if data.get("poignee_seat") and data.get("poignee_trumps"):
            line["poignees"] = [{"seat": data["poignee_seat"], "trumps": data["poignee_trumps"]}]
        if data.get("chelem_announced"):
            line["chelem_announced"] = True
        if data.get("chelem_made_by"):
            line["chelem_made_by"] = data["chelem_made_by"]
        return line

    def refused(self, violation: RuleViolation) -> None:
        for problem in violation.problems:
            field = self.FIELDS.get(problem.field)
            if field is None and problem.field.startswith("line.poignees"):
                field = "poignee_trumps"
            if field not in self.fields:
                field = None
            self.add_error(field, problem_message(problem))


class TotalsForm(forms.Form):
    """A table's position totals as the arbiter enters or corrects them (or removes them)."""

    remove = forms.BooleanField(
        label=pgettext_lazy("day scoring", "Remove these totals"), required=False
    )
    reason = forms.CharField(
        label=pgettext_lazy("day scoring", "Reason"), max_length=300, required=False
    )

    def __init__(self, *args: Any, seats: tuple[str, ...], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        scores = {f"seat_{seat}": forms.IntegerField(label=seat, required=False) for seat in seats}
        self.fields = {**scores, **self.fields}  # each seat's score first, in the sheet's order

    def totals(self) -> dict[str, Any] | None:
        if self.cleaned_data.get("remove"):
            return None
        return {seat: self.cleaned_data.get(f"seat_{seat}") for seat in self.seats}

    def refused(self, violation: RuleViolation) -> None:
        for problem in violation.problems:
            field: str | None = problem.field
            if field is not None and field.startswith("totals."):
                field = f"seat_{field.removeprefix('totals.')}"
            if field not in self.fields:
                field = None
            self.add_error(field, problem_message(problem))


def _points(points: Decimal | None) -> int | float | None:
    if points is None:
        return None
    return int(points) if points == int(points) else float(points)


def initial_of(line: dict[str, Any]) -> dict[str, Any]:
    """A kept line as the form's initial values."""
    poignees = line.get("poignees") or [{}]
    return {
        "contract": line.get("contract") or "",
        "taker": line.get("taker") or "",
        "sitting_out": line.get("sitting_out") or "",
        "oudlers": line.get("oudlers"),
        "attack_points": line.get("attack_points"),
        "petit_au_bout": line.get("petit_au_bout") or "",
        "poignee_seat": poignees[0].get("seat", ""),
        "poignee_trumps": poignees[0].get("trumps"),
        "chelem_announced": bool(line.get("chelem_announced")),
        "chelem_made_by": line.get("chelem_made_by") or "",
        "annulled": bool(line.get("annulled")),
    }


@require_safe
@login_required
def scores_grid(request, pk: int):
    """Every table × position of every session: what is entered, what is missing."""
    tournament = day_tournament(request, pk)
    grid = scoring.scores_grid(by=request.user, tournament=tournament)
    corrections = scoring.day_corrections(by=request.user, tournament=tournament)[:50]
    may_run = may_run_day(request.user, tournament)
    sessions = []
    for found in grid:
        tables = sorted({cell.table for cells in found.positions for cell in cells})
        rows = []
        for table in tables:
            cells = []
            for position, at in enumerate(found.positions, start=1):
                cell = next((c for c in at if c.table == table), None)
                url = (
                    table_url(found.session, position, table)
                    if cell is not None and may_run
                    else None
                )
                cells.append((position, cell, url))
            rows.append((table, cells))
        sessions.append({"session": found.session, "rows": rows, "positions": found.positions})
    context = {
        "tournament": tournament,
        "sessions": sessions,
        "corrections": corrections,
        "may_run": may_run,
    }
    return render(request, "day/scores.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def scores_table(request, pk: int, session: int, position: int, table: int):
    """One table at one position: its deals, a form per deal to enter or correct it."""
    tournament = day_tournament(request, pk)
    played = get_object_or_404(PlayedSession, tournament=tournament, number=session)
    try:
        sheet = scoring.table_sheet(by=request.user, session=played, position=position, table=table)
    except (errors.ServiceError, RuleViolation):
        raise Http404 from None
    may_run = may_run_day(request.user, tournament)
    seats = tuple(s.seat for s in sheet.seats)
    five = sheet.size == 5
    kept = {d.deal: d for d in sheet.deals}
    posted = None
    totals_form = None
    if request.method == "POST" and request.POST.get("totals"):
        if not may_run or not sheet.totals_allowed:
            raise Http404
        totals_form = TotalsForm(request.POST, seats=seats, prefix="totals")
        if _totals_posted(request, totals_form, sheet, played, position, table):
            return redirect(request.path + "#bilans")
    elif request.method == "POST":
        if not may_run:
            raise Http404
        deal = _deal_number(request.POST.get("deal"), sheet.deals_per_position)
        form = DealForm(request.POST, seats=seats, five=five, prefix=f"d{deal}")
        posted = (deal, form)
        if form.is_valid():
            try:
                if deal in kept:
                    scoring.deal_correct(
                        by=request.user,
                        session=played,
                        position=position,
                        table=table,
                        deal=deal,
                        line=form.line(),
                        reason=form.cleaned_data["reason"],
                    )
                else:
                    line = form.line()
                    if line is None:
                        raise Http404
                    scoring.deal_enter(
                        by=request.user,
                        session=played,
                        position=position,
                        table=table,
                        deal=deal,
                        line=line,
                    )
                return redirect(request.path + f"#donne-{deal}")
            except RuleViolation as violation:
                form.refused(violation)
            except errors.ServiceError as refused:
                form.add_error(None, error_message(refused))
    deals = []
    for number in range(1, sheet.deals_per_position + 1):
        entered = kept.get(number)
        if posted is not None and posted[0] == number:
            form = posted[1]
        else:
            initial = initial_of(dict(entered.line)) if entered else {}
            form = DealForm(initial=initial, seats=seats, five=five, prefix=f"d{number}")
        deals.append({"number": number, "entered": entered, "form": form})
    if totals_form is None and sheet.totals_allowed:
        initial = {f"seat_{s}": v for s, v in (sheet.position_totals or {}).items()}
        totals_form = TotalsForm(initial=initial, seats=seats, prefix="totals")
    context = {
        "tournament": tournament,
        "sheet": sheet,
        "deals": deals,
        "totals_form": totals_form,
        "may_run": may_run,
        "table_link": table_url(played, position, table) if may_run else None,
    }
    failed = posted is not None or (totals_form is not None and totals_form.is_bound)
    return render(request, "day/scores_table.html", context, status=400 if failed else 200)


def _totals_posted(
    request, form: TotalsForm, sheet: scoring.TableSheet, played, position: int, table: int
) -> bool:
    """Enter the table's missing position totals, or correct (or remove) them with a
    reason; whether it was done (else the form holds why not)."""
    if not form.is_valid():
        return False
    where = {"session": played, "position": position, "table": table}
    totals = form.totals()
    try:
        if sheet.position_totals is None and totals is not None:
            scoring.totals_enter(by=request.user, totals=totals, **where)
        else:
            scoring.totals_correct(
                by=request.user, totals=totals, reason=form.cleaned_data["reason"], **where
            )
        return True
    except RuleViolation as violation:
        form.refused(violation)
    except errors.ServiceError as refused:
        form.add_error(None, error_message(refused))
    return False


def _deal_number(value: object, count: int) -> int:
    try:
        number = int(str(value))
    except ValueError:
        raise Http404 from None
    if not 1 <= number <= count:
        raise Http404
    return number
