"""Typing a small tournament's results in a form instead of sending a file.

The form gives the sessions (tables, tables of 3, deals) and one row per entry (its
players — a licence number, or "not licensed" and a name —, its total, its place).
:func:`typed_results_document` builds from them the JSON results document of
``docs/results-format.md``, checked whole like an uploaded file (a problem is shown next
to its row), then handed to the upload page's report and preview
(:func:`competitions.tournaments.results_pages.check_kept`): the same name
confirmations, the same preview, the same submission and revision. Places left empty
are computed from the totals by the engine
(:func:`competitions.rules.engine.standings.rank`, ties sharing a place).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext_lazy as _

from competitions import homologation
from competitions.models import Tournament
from competitions.rules.engine.standings import Entry, MemberResult, RankingMode, rank
from competitions.rules.results.document import FORMAT_VERSION, MAX_COUNT, MAX_NAME_LENGTH
from competitions.tournaments import access, club_space, selectors, submission
from competitions.tournaments.results_pages import check_kept, kept_typed_document
from core.messages import problem_message
from core.problems import Problem, RuleViolation
from core.vocabulary import Format
from federation.access import scope_of

TEAM_SIZE = {Format.INDIVIDUAL: 1, Format.DUO: 2, Format.TEAM4: 4}
ROWS = {Format.INDIVIDUAL: 16, Format.DUO: 10, Format.TEAM4: 8}
"""Empty rows offered by default: a small tournament (``?lignes=`` asks for more)."""
MAX_ROWS = 120


@dataclass(frozen=True)
class TypedPlayer:
    licence_number: int | None
    """``None``: not licensed (then named)."""
    name: str = ""


@dataclass(frozen=True)
class TypedEntry:
    players: tuple[TypedPlayer, ...]
    total: int
    place: int | None = None
    """``None``: computed from the totals."""
    abandoned: bool = False
    arbiter_accord: bool | None = None
    """For an entry that abandoned: left with (``True``) or without (``False``) the arbiter's
    accord; ``None``: not said (chapter 4: without it, a suspension is proposed)."""


@dataclass(frozen=True)
class TypedSession:
    tables: int
    tables_of_three: int
    deals: int
    tables_of_five: int = 0  # a player sits out each deal in turn (le mort, fasc. 459)


def places_from_totals(entries: Sequence[TypedEntry]) -> list[int]:
    """Each entry's place by its total, as the engine ranks a plain tournament: level
    totals share the best place ("1224"), entries that abandoned come last."""
    ranking = rank(
        [
            Entry(
                entry_id=str(i),
                # The engine sums the members' totals: the entry's total on its first member.
                members=tuple(
                    MemberResult(player=f"{i}.{k}", total=entry.total if k == 0 else 0)
                    for k in range(len(entry.players))
                ),
                abandoned=entry.abandoned,
            )
            for i, entry in enumerate(entries)
        ],
        RankingMode.PLAIN,
    )
    places = {int(placing.entry_id): placing.place for placing in ranking.placings}
    return [places[i] for i in range(len(entries))]


def typed_results_document(
    *, sessions: Sequence[TypedSession], entries: Sequence[TypedEntry]
) -> dict:
    """The JSON results document (``docs/results-format.md``) of typed results: entries
    numbered in the order typed; every place computed from the totals when none is given."""
    places: list[int | None] = [entry.place for entry in entries]
    if entries and all(place is None for place in places):
        places = list(places_from_totals(entries))
    return {
        "format_version": FORMAT_VERSION,
        "sessions": [
            {
                "number": number,
                "tables": session.tables,
                "tables_of_three": session.tables_of_three,
                "deals": session.deals,
                **({"tables_of_five": session.tables_of_five} if session.tables_of_five else {}),
            }
            for number, session in enumerate(sessions, start=1)
        ],
        "entries": [
            {
                "number": number,
                "place": place,
                "total": entry.total,
                "abandoned": entry.abandoned,
                # Only when said, as the canonical document writes it (its hash unchanged).
                **(
                    {} if entry.arbiter_accord is None else {"arbiter_accord": entry.arbiter_accord}
                ),
                "players": [
                    {"licence_number": player.licence_number, "name": player.name}
                    for player in entry.players
                ],
            }
            for number, (entry, place) in enumerate(zip(entries, places, strict=True), start=1)
        ],
        "penalties": [],
    }


class SessionForm(forms.Form):
    tables = forms.IntegerField(label=_("Tables"), min_value=1, max_value=MAX_COUNT)
    tables_of_three = forms.IntegerField(
        label=_("Tables of 3 players"), min_value=0, max_value=MAX_COUNT, initial=0
    )
    tables_of_five = forms.IntegerField(
        label=_("Tables of 5 players"),
        min_value=0,
        max_value=MAX_COUNT,
        initial=0,
        required=False,
        help_text=_("A player (le mort) sits out each deal in turn."),
    )
    deals = forms.IntegerField(label=_("Deals per table"), min_value=1, max_value=MAX_COUNT)

    problems: list[dict] = []
    """The problems of a refused submission that name this session (set by the view)."""

    def typed(self) -> TypedSession:
        data = dict(self.cleaned_data)
        data["tables_of_five"] = data.get("tables_of_five") or 0
        return TypedSession(**data)


ACCORD_CHOICES = [
    ("", _("not said")),
    ("oui", _("left with the arbiter's accord")),
    ("non", _("left without the arbiter's accord")),
]
ACCORD_VALUES = {"": None, "oui": True, "non": False}
"""The form's choice for ``arbiter_accord`` and the document's value (true, false, absent)."""
ACCORD_CHOICE = {value: choice for choice, value in ACCORD_VALUES.items()}


def accord_value(choice: str) -> bool | None:
    """The document's ``arbiter_accord`` for the form's choice (a ``ValueError`` for any other
    text: the field's "not a valid choice")."""
    if choice not in ACCORD_VALUES:
        raise ValueError(choice)
    return ACCORD_VALUES[choice]


PLAYER_FIELDS = ("licence", "not_licensed", "name")
"""Each player's fields in a row, ``<field>_<k>`` for the k-th player."""


class EntryForm(forms.Form):
    """One row: an entry's players, total, place (the player fields are added per format)."""

    team_size = 1
    total = forms.IntegerField(label=_("Total"), required=False)
    place = forms.IntegerField(label=_("Place"), min_value=1, max_value=MAX_COUNT, required=False)
    abandoned = forms.BooleanField(label=_("Abandoned"), required=False)
    arbiter_accord = forms.TypedChoiceField(
        label=_("Arbiter's accord"),
        choices=ACCORD_CHOICES,
        coerce=accord_value,
        empty_value=None,
        required=False,
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for k in range(1, self.team_size + 1):
            self.fields[f"licence_{k}"] = forms.IntegerField(
                label=_("Licence number"), min_value=1, required=False
            )
            self.fields[f"not_licensed_{k}"] = forms.BooleanField(
                label=_("not licensed"), required=False
            )
            self.fields[f"name_{k}"] = forms.CharField(
                label=_("Name"), max_length=MAX_NAME_LENGTH, required=False
            )

    problems: list[dict] = []
    """The problems of a refused submission that name this row (set by the view)."""

    def player_fields(self) -> list[tuple[forms.BoundField, forms.BoundField, forms.BoundField]]:
        """Each player's fields, for the template: licence number, "not licensed", name."""
        return [
            (self[f"licence_{k}"], self[f"not_licensed_{k}"], self[f"name_{k}"])
            for k in range(1, self.team_size + 1)
        ]

    def clean(self):
        data = super().clean()
        if not self.has_changed():
            return data
        for k in range(1, self.team_size + 1):
            licence, name = data.get(f"licence_{k}"), data.get(f"name_{k}", "")
            if data.get(f"not_licensed_{k}"):
                if licence is not None:
                    self.add_error(
                        f"licence_{k}", _("A player marked not licensed has no licence number.")
                    )
                elif not name:
                    self.add_error(f"name_{k}", _("Give the name of a player without licence."))
            elif licence is None and f"licence_{k}" not in self.errors:
                self.add_error(
                    f"licence_{k}",
                    _("Give the licence number, or tick “not licensed” and give the name."),
                )
        if data.get("arbiter_accord") is not None and not data.get("abandoned"):
            self.add_error(
                "arbiter_accord",
                _(
                    "Only an entry that abandoned leaves with or without the arbiter's accord: "
                    "tick “abandoned”, or leave the accord unsaid."
                ),
            )
        if data.get("total") is None and "total" not in self.errors:
            self.add_error("total", _("Give the entry's total."))
        return data

    def typed(self) -> TypedEntry:
        data = self.cleaned_data
        return TypedEntry(
            players=tuple(
                TypedPlayer(
                    licence_number=None if data[f"not_licensed_{k}"] else data[f"licence_{k}"],
                    name=data[f"name_{k}"],
                )
                for k in range(1, self.team_size + 1)
            ),
            total=data["total"],
            place=data["place"],
            abandoned=data["abandoned"],
            arbiter_accord=data["arbiter_accord"],
        )


def entry_form_class(fmt: Format) -> type[EntryForm]:
    return type(f"{fmt.value.title()}EntryForm", (EntryForm,), {"team_size": TEAM_SIZE[fmt]})


MORE_ROWS = 10
"""Rows « Plus de lignes » adds, what is typed kept."""


def _formsets(tournament: Tournament, data, rows: int, kept: Kept | None = None):
    """The two formsets: bound to ``data`` (a check), or given back as typed (``kept``:
    the rows typed, then ``rows`` empty ones), or empty."""
    fmt = Format(tournament.format)
    sessions = forms.formset_factory(
        SessionForm, extra=0, min_num=1, max_num=20, validate_min=True, validate_max=True
    )(
        data,
        prefix="sessions",
        initial=kept.sessions
        if kept
        else None
        if data
        else [{"tables_of_three": 0}] * tournament.planned_sessions,
    )
    entries = forms.formset_factory(
        entry_form_class(fmt), extra=rows, max_num=MAX_ROWS, validate_max=True
    )(data, prefix="entries", initial=kept.entries if kept else None)
    return sessions, entries


@dataclass(frozen=True)
class Kept:
    """What was typed, as the forms' initial values."""

    sessions: list[dict]
    entries: list[dict]


def kept_from_post(data, team_size: int) -> Kept:
    """The rows as the form posted them, typed or not (« Plus de lignes »)."""

    def rows(prefix: str, names: list[str]) -> list[dict]:
        count = data.get(f"{prefix}-TOTAL_FORMS", "")
        count = min(int(count), MAX_ROWS) if count.isdecimal() else 0
        return [
            {name: data.get(f"{prefix}-{i}-{name}", "") for name in names} for i in range(count)
        ]

    players = [f"{field}_{k}" for k in range(1, team_size + 1) for field in PLAYER_FIELDS]
    return Kept(
        rows("sessions", list(SessionForm.base_fields)),
        rows("entries", [*EntryForm.base_fields, *players]),
    )


def kept_from_document(document: dict) -> Kept:
    """The form as it was typed, from the document it built (back from the check)."""
    entries = []
    for entry in document.get("entries", []):
        row = {
            "total": entry.get("total"),
            "place": entry.get("place"),
            "abandoned": entry.get("abandoned", False),
            "arbiter_accord": ACCORD_CHOICE.get(entry.get("arbiter_accord"), ""),
        }
        for k, player in enumerate(entry.get("players", []), start=1):
            row[f"licence_{k}"] = player.get("licence_number")
            row[f"not_licensed_{k}"] = player.get("licence_number") is None
            row[f"name_{k}"] = player.get("name", "")
        entries.append(row)
    sessions = [
        {name: session.get(name, 0) for name in SessionForm.base_fields}
        for session in document.get("sessions", [])
    ]
    return Kept(sessions, entries)


_LOCATED = re.compile(r"^(sessions|entries)\[(\d+)\]")


@dataclass
class Located:
    """The problems of a refused submission, placed next to the rows they name."""

    general: list[Problem]
    sessions: dict[int, list[Problem]]
    entries: dict[int, list[Problem]]


def locate(problems: Sequence[Problem], entry_rows: Sequence[int]) -> Located:
    """``entries[i]`` of the document is form row ``entry_rows[i]`` (blank rows skipped)."""
    located = Located([], {}, {})
    for problem in problems:
        match = _LOCATED.match(problem.field)
        if match is None:
            located.general.append(problem)
        elif match.group(1) == "sessions":
            located.sessions.setdefault(int(match.group(2)), []).append(problem)
        elif int(match.group(2)) < len(entry_rows):
            located.entries.setdefault(entry_rows[int(match.group(2))], []).append(problem)
        else:
            located.general.append(problem)
    return located


def _rows(request, fmt: Format) -> int:
    asked = request.GET.get("lignes", "")
    return min(int(asked), MAX_ROWS) if asked.isdecimal() else ROWS[fmt]


@login_required
def type_results(request, pk: int):
    """The form; "compute the places" fills the places from the totals; "send" builds
    the results document and checks it, then shows the upload page's preview."""
    scope = scope_of(request.user)
    tournament = get_object_or_404(
        selectors.tournaments().filter(club_space.covered_by(scope)), pk=pk
    )
    if not access.may_manage(scope, tournament):
        raise PermissionDenied
    fmt = Format(tournament.format)
    data = request.POST.copy() if request.method == "POST" else None
    context: dict = {"tournament": tournament, "team_size": TEAM_SIZE[fmt]}
    if data is not None and "more_rows" in data:
        kept = kept_from_post(data, TEAM_SIZE[fmt])
        sessions, entries = _formsets(tournament, None, MORE_ROWS, kept)
        context.update(sessions=sessions, entries=entries)
        return render(request, "competitions/type_results.html", context)
    document = kept_typed_document(request, tournament) if "reprendre" in request.GET else None
    if document is not None:
        kept = kept_from_document(document)
        sessions, entries = _formsets(tournament, None, MORE_ROWS, kept)
    else:
        sessions, entries = _formsets(tournament, data, _rows(request, fmt))
    status = 200
    if data is not None:
        valid = sessions.is_valid() & entries.is_valid()
        filled = [(i, form) for i, form in enumerate(entries.forms) if form.has_changed()]
        typed = [form.typed() for _i, form in filled] if valid else []
        if valid and not filled:
            context["form_problems"] = [_("Type at least one entry.")]
            valid = False
        if valid and "compute_places" in data:
            for (i, _form), place in zip(filled, places_from_totals(typed), strict=True):
                data[f"entries-{i}-place"] = str(place)
            sessions, entries = _formsets(tournament, data, _rows(request, fmt))
        elif valid and any(e.place is None for e in typed) and any(e.place for e in typed):
            for _i, form in filled:
                if form.cleaned_data["place"] is None:
                    form.add_error(
                        "place", _("Give every place, or none to compute them from the totals.")
                    )
            valid = False
        elif valid:
            document = typed_results_document(
                sessions=[form.typed() for form in sessions.forms], entries=typed
            )
            try:
                # Checked whole (registry, rules, conditions) before the preview: a
                # problem is shown next to its row; a name the registry spells
                # otherwise goes to the report, where the secretary may confirm it.
                parsed = submission.parse_results(
                    content=document, source="json", tournament=tournament
                )
                homologation.results_preview(
                    tournament=tournament, document=parsed, by=request.user
                )
            except RuleViolation as refusal:
                if not any(p.code == "licence_name_mismatch" for p in refusal.problems):
                    context["problems"] = locate(refusal.problems, [i for i, _form in filled])
                    status = 400
                else:
                    return check_kept(request, tournament, _as_file(document), "json")
            else:
                return check_kept(request, tournament, _as_file(document), "json")
        if not valid:
            status = 400
    located = context.pop("problems", None)
    if located is not None:
        context.update(refused=True, problems=_texts(located.general))
        for i, form in enumerate(sessions.forms):
            form.problems = _texts(located.sessions.get(i, []))
        for i, form in enumerate(entries.forms):
            form.problems = _texts(located.entries.get(i, []))
    context.update(sessions=sessions, entries=entries)
    return render(request, "competitions/type_results.html", context, status=status)


def _as_file(document: dict) -> bytes:
    """The typed document as the JSON file an upload would carry."""
    return json.dumps(document, ensure_ascii=False).encode("utf-8")


def _texts(problems: list[Problem]) -> list[dict]:
    """Problems as text in the active language, with their code."""
    return [{"code": p.code, "text": problem_message(p)} for p in problems]
