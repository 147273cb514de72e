"""« Et si… » (/classement/simulation/): anyone chooses a kind of tournament, its tables
and a place (and a licence number), and reads the PCN/PP it would award under the
season's rulebook and where it would put the player in the live ranking. A GET form:
nothing is stored, every bad input is an error on its field."""

from __future__ import annotations

from django import forms
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_safe

from competitions.models import TournamentFormat
from core.messages import problem_message
from core.problems import RuleViolation
from core.vocabulary import Format
from rankings.reads import selectors
from rankings.reads.simulation import simulate
from rankings.rules.simulation import MAX_TABLES, Event

EVENT_LABELS = {
    Event.ORDINARY: gettext_lazy("Ordinary homologated tournament"),
    Event.REGIONAL_STAGE: gettext_lazy("Regional championship stage"),
    Event.REGIONAL_SEMI_FINAL: gettext_lazy("Regional semi-final"),
    Event.REGIONAL_FINAL: gettext_lazy("Regional final"),
    Event.NATIONAL_QUALIFIER: gettext_lazy("National qualifier"),
    Event.NATIONAL_FINAL_INDIVIDUAL: gettext_lazy("National final, individual"),
    Event.NATIONAL_FINAL_DUO: gettext_lazy("National final, DUO"),
    Event.NATIONAL_FINAL_TEAM4: gettext_lazy("National final, teams of 4 (interclubs)"),
    Event.NATIONAL_FINAL_SENIORS: gettext_lazy("National final, seniors"),
}

FIELD_OF = {
    "event": "type",
    "format": "formule",
    "tables": "tables",
    "place": "place",
    "entries": "inscrits",
    "licence_number": "licence",
}
"""The core's field → the form's (French URL parameters, as the other ranking pages)."""


class SimulationForm(forms.Form):
    type = forms.ChoiceField(label=gettext_lazy("Kind of tournament"), choices=EVENT_LABELS.items())
    formule = forms.ChoiceField(
        label=gettext_lazy("Format"),
        choices=TournamentFormat.choices,
        initial=Format.INDIVIDUAL.value,
        help_text=gettext_lazy("A national final has its own format."),
    )
    tables = forms.IntegerField(label=gettext_lazy("Tables"), min_value=1, max_value=MAX_TABLES)
    place = forms.IntegerField(label=gettext_lazy("Place"), min_value=1)
    inscrits = forms.IntegerField(
        label=gettext_lazy("Entries (optional)"),
        min_value=1,
        required=False,
        help_text=gettext_lazy(
            "Players, duos or teams at the first session; default: full tables."
        ),
    )
    licence = forms.IntegerField(
        label=gettext_lazy("Licence number (optional)"),
        min_value=1,
        required=False,
        help_text=gettext_lazy(
            "To see where the result would put this player in the live ranking."
        ),
    )


@require_safe
def simulation_page(request):
    """/classement/simulation/: « Et si… »."""
    season = selectors.season_named(request.GET.get("saison"))
    if season is None:
        raise Http404(gettext("Unknown season."))
    asked = "type" in request.GET
    form = SimulationForm(
        request.GET if asked else None, initial={"licence": request.GET.get("licence")}
    )
    result = None
    if asked and form.is_valid():
        data = form.cleaned_data
        try:
            result = simulate(
                season=season,
                event=Event(data["type"]),
                fmt=Format(data["formule"]),
                tables=data["tables"],
                place=data["place"],
                entries=data["inscrits"],
                licence_number=data["licence"],
                by=request.user,
            )
        except RuleViolation as refusal:
            for problem in refusal.problems:
                form.add_error(FIELD_OF.get(problem.field.split(".")[0]), problem_message(problem))
    return render(
        request,
        "rankings/simulation.html",
        {
            "title": gettext("What if… simulate a result"),
            "season": season,
            "form": form,
            "result": result,
            "event_label": EVENT_LABELS[result.award.event] if result else "",
            "format_label": TournamentFormat(result.award.format.value).label if result else "",
        },
    )
