"""The forms of the championships desk. Each builds the document the service reads (the
regional rules ``check_regional_rules`` validates, the quotas, the entries, a late
arrival) and puts each refusal of the service back on the field it concerns."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competitions.championships.entries import EntryRequest
from competitions.championships.running import LateArrivalRequest
from competitions.championships.stages import StageRequest
from competitions.models import (
    NATIONAL_STAGE_KINDS,
    REGIONAL_STAGE_KINDS,
    ChampionshipStageKind,
)
from core.messages import problem_message
from core.problems import Problem

STAGES = 4
"""Stage rows of the rules form (a committee publishes one to four stages)."""
BRACKETS = 3
"""Rows of each stage's table (by number of entries present at the first session)."""
SESSIONS = 3
"""Sessions of each table row (a row of plain fields each)."""

REGIONAL_KINDS = [(k.value, k.label) for k in REGIONAL_STAGE_KINDS]


SESSION_FIELDS = ("deals", "entries", "divisor")
"""A session's plain fields in a table row: its deals, the entries kept for it (empty:
all), what their points are divided by (empty: 1)."""


def _sessions_initial(prefix: str, sessions: Sequence[dict]) -> dict:
    """A table row's sessions as the form's initial values, one row of fields each."""
    initial: dict = {}
    for k, session in enumerate(sessions[:SESSIONS]):
        divisor = session.get("points_divisor", 1.0) or 1.0
        initial |= {
            f"{prefix}_k{k}_deals": session["deals"],
            f"{prefix}_k{k}_entries": session.get("entries"),
            f"{prefix}_k{k}_divisor": None if divisor == 1.0 else divisor,
        }
    return initial


def _sessions(data: dict, prefix: str) -> list[dict]:
    """A table row's sessions from its fields (a session without deals is left out)."""
    sessions = []
    for k in range(SESSIONS):
        deals = data.get(f"{prefix}_k{k}_deals")
        if deals is None:
            continue
        session: dict = {"deals": deals}
        if data.get(f"{prefix}_k{k}_entries") is not None:
            session["entries"] = data[f"{prefix}_k{k}_entries"]
        if data.get(f"{prefix}_k{k}_divisor") is not None:
            session["points_divisor"] = float(data[f"{prefix}_k{k}_divisor"])
        sessions.append(session)
    return sessions


LOCATION = re.compile(
    r"^(?:regional_rules\.)?stages\[(\d+)\](?:\.(\w+))?(?:\[(\d+)\])?(?:\.(\w+))?"
    r"(?:\[(\d+)\])?(?:\.(\w+))?"
)


class RegionalRulesForm(forms.Form):
    """A committee's regional rules: up to four stages (name, kind, dates), each with a
    table of up to three rows (entries present at the first session → sessions and deals).
    A stage row without a name is left out. Position cuts are published through the API."""

    note = forms.CharField(label=gettext_lazy("note (published with the rules)"), required=False)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.stage_rows: list[int] = []
        self.bracket_rows: dict[tuple[int, int], int] = {}
        for i in range(STAGES):
            self.fields[f"s{i}_name"] = forms.CharField(
                label=gettext_lazy("name"), required=False, max_length=200
            )
            self.fields[f"s{i}_kind"] = forms.ChoiceField(
                label=gettext_lazy("kind"), choices=REGIONAL_KINDS, required=False
            )
            self.fields[f"s{i}_start"] = forms.DateField(
                label=gettext_lazy("from"), required=False, widget=forms.DateInput({"type": "date"})
            )
            self.fields[f"s{i}_end"] = forms.DateField(
                label=gettext_lazy("to"), required=False, widget=forms.DateInput({"type": "date"})
            )
            for j in range(BRACKETS):
                self.fields[f"s{i}_b{j}_min"] = forms.IntegerField(
                    label=gettext_lazy("entries from"), required=False, min_value=0
                )
                self.fields[f"s{i}_b{j}_max"] = forms.IntegerField(
                    label=gettext_lazy("to (empty: no limit)"), required=False, min_value=0
                )
                for k in range(SESSIONS):
                    prefix = f"s{i}_b{j}_k{k}"
                    self.fields[f"{prefix}_deals"] = forms.IntegerField(
                        label=_("session %(number)s: deals") % {"number": k + 1},
                        required=False,
                        min_value=1,
                    )
                    self.fields[f"{prefix}_entries"] = forms.IntegerField(
                        label=_("entries kept (empty: all)"),
                        required=False,
                        min_value=1,
                    )
                    self.fields[f"{prefix}_divisor"] = forms.DecimalField(
                        label=_("points divided by (empty: 1)"),
                        required=False,
                        min_value=1,
                        decimal_places=2,
                        localize=True,
                    )

    def stage_groups(self) -> list[dict]:
        """The bound fields by stage and table row, for the template."""
        return [
            {
                "number": i + 1,
                "fields": [self[f"s{i}_{name}"] for name in ("name", "kind", "start", "end")],
                "brackets": [
                    {
                        "fields": [self[f"s{i}_b{j}_{name}"] for name in ("min", "max")],
                        "sessions": [
                            [self[f"s{i}_b{j}_k{k}_{name}"] for name in SESSION_FIELDS]
                            for k in range(SESSIONS)
                        ],
                    }
                    for j in range(BRACKETS)
                ],
            }
            for i in range(STAGES)
        ]

    @staticmethod
    def initial_from(data: dict | None) -> dict:
        """The form's initial values from published rules (``RegionalRules.to_dict()``)."""
        if not data:
            return {}
        initial: dict = {}
        for i, stage in enumerate(data.get("stages", [])[:STAGES]):
            initial |= {
                f"s{i}_name": stage.get("name", ""),
                f"s{i}_kind": stage.get("kind", ""),
                f"s{i}_start": stage.get("start"),
                f"s{i}_end": stage.get("end"),
            }
            for j, bracket in enumerate(stage.get("brackets", [])[:BRACKETS]):
                initial |= {
                    f"s{i}_b{j}_min": bracket.get("min_entries"),
                    f"s{i}_b{j}_max": bracket.get("max_entries"),
                }
                initial |= _sessions_initial(f"s{i}_b{j}", bracket.get("sessions", []))
        return initial

    def document(self) -> dict:
        """The rules document the service checks (stages without a name left out); the
        rows kept are remembered so that each problem goes back to its field."""
        data = self.cleaned_data
        stages: list[dict] = []
        self.stage_rows = []
        self.bracket_rows = {}
        for i in range(STAGES):
            if not (data.get(f"s{i}_name") or "").strip():
                continue
            brackets: list[dict] = []
            for j in range(BRACKETS):
                minimum = data.get(f"s{i}_b{j}_min")
                sessions = _sessions(data, f"s{i}_b{j}")
                if minimum is None and not sessions:
                    continue
                self.bracket_rows[(len(stages), len(brackets))] = j
                brackets.append(
                    {
                        "min_entries": minimum,
                        "max_entries": data.get(f"s{i}_b{j}_max"),
                        "sessions": sessions or [],
                    }
                )
            self.stage_rows.append(i)
            stages.append(
                {
                    "name": data[f"s{i}_name"].strip(),
                    "kind": data.get(f"s{i}_kind") or None,
                    "start": _iso(data.get(f"s{i}_start")),
                    "end": _iso(data.get(f"s{i}_end")),
                    "brackets": brackets,
                }
            )
        return {"stages": stages}

    def field_of(self, location: str) -> str | None:
        """The form field a problem's location (``stages[1].brackets[0].min_entries``)
        points to, or None (the problem is about the rules as a whole)."""
        match = LOCATION.match(location)
        if match is None:
            return None
        stage, attribute, index, sub, session, session_field = match.groups()
        if int(stage) >= len(self.stage_rows):
            return None
        i = self.stage_rows[int(stage)]
        if attribute in ("name", "kind", "start", "end"):
            return f"s{i}_{attribute}"
        if attribute == "brackets" and index is not None:
            j = self.bracket_rows.get((int(stage), int(index)))
            if j is None:
                return f"s{i}_name"
            column = {"min_entries": "min", "max_entries": "max"}.get(sub or "")
            if column is not None:
                return f"s{i}_b{j}_{column}"
            k = min(int(session or 0), SESSIONS - 1)
            name = {"entries": "entries", "points_divisor": "divisor"}.get(session_field or "")
            return f"s{i}_b{j}_k{k}_{name or 'deals'}"
        return f"s{i}_name"

    def locate(self, problems: Sequence[Problem]) -> None:
        """Each problem of the service, in the reader's language, on its field."""
        for problem in problems:
            name = self.field_of(problem.field)
            text = problem_message(problem)
            if name is None:
                self.add_error(None, f"{problem.field}: {text}" if problem.field else text)
            else:
                self.add_error(name, text)


def _iso(day: dt.date | None) -> str | None:
    return day.isoformat() if day else None


class QuotasForm(forms.Form):
    """Places at the national final, one field per committee (empty: left as it is)."""

    def __init__(self, *args, committees=(), current: dict[int, int] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        current = current or {}
        for committee in committees:
            self.fields[f"q{committee.number}"] = forms.IntegerField(
                label=f"{committee.number} – {committee.name}",
                required=False,
                min_value=0,
                max_value=99,
                initial=current.get(committee.number),
            )

    def quotas(self) -> dict[int, int]:
        return {
            int(name[1:]): value
            for name, value in self.cleaned_data.items()
            if name.startswith("q") and value is not None
        }


ENTRY_LINE = re.compile(r"^([\d\s,;]+?)\s*(?:[|:]\s*(.*))?$")


class EntryForm(forms.Form):
    """Entries, one a line: the licence numbers of its players (separated by spaces,
    commas or semicolons), and for a team its name after ``|``."""

    entries = forms.CharField(
        label=gettext_lazy("entries (one a line: licence numbers, then | team name)"),
        widget=forms.Textarea(attrs={"rows": 5}),
    )

    def clean_entries(self) -> list[EntryRequest]:
        requests = []
        errors = []
        lines = [line for line in self.cleaned_data["entries"].splitlines() if line.strip()]
        for number, line in enumerate(lines, start=1):
            match = ENTRY_LINE.match(line.strip())
            numbers = re.split(r"[\s,;]+", match.group(1).strip()) if match else []
            if match is None or not all(n.isascii() and n.isdigit() for n in numbers):
                errors.append(
                    forms.ValidationError(
                        _("line %(line)s: licence numbers (digits) expected, then | team name."),
                        params={"line": number},
                    )
                )
                continue
            requests.append(
                EntryRequest(tuple(int(n) for n in numbers), (match.group(2) or "").strip())
            )
        if errors:
            raise forms.ValidationError(errors)
        if len(requests) > 200:
            raise forms.ValidationError(_("At most 200 entries at once."))
        return requests


ENTRY_LOCATION = re.compile(r"^entries\[(\d+)\]")


def entry_refusals(problems: Sequence[Problem]) -> list[tuple[str, str]]:
    """The service's refusals of entries, each with the line of the form it concerns."""
    rows = []
    for problem in problems:
        match = ENTRY_LOCATION.match(problem.field)
        where = _("line %(line)s") % {"line": int(match.group(1)) + 1} if match else problem.field
        rows.append((where, problem_message(problem)))
    return rows


class PenaltyForm(forms.Form):
    """A late arrival (article 26): 100 points per started 5 minutes; a forfeit past 15."""

    licence_number = forms.IntegerField(label=gettext_lazy("licence no. of the late player"))
    minutes = forms.IntegerField(label=gettext_lazy("minutes late"), min_value=0, max_value=24 * 60)
    reason = forms.CharField(label=gettext_lazy("reason"), max_length=300)
    forfeit = forms.BooleanField(label=gettext_lazy("declare forfeit"), required=False)
    substitute = forms.IntegerField(
        label=gettext_lazy("licence no. of the planned substitute"), required=False
    )

    FIELDS = {
        "licence_number": "licence_number",
        "lateness": "minutes",
        "reason": "reason",
        "forfeit": "forfeit",
        "substitute_licence_number": "substitute",
    }

    def request(self) -> LateArrivalRequest:
        data = self.cleaned_data
        return LateArrivalRequest(
            licence_number=data["licence_number"],
            lateness=dt.timedelta(minutes=data["minutes"]),
            reason=data["reason"],
            forfeit=data["forfeit"],
            substitute_licence_number=data["substitute"],
        )

    def locate(self, problems: Sequence[Problem]) -> None:
        for problem in problems:
            head = problem.field.split(".")[0].split("[")[0]
            name = self.FIELDS.get(head)
            if head == "substitute":
                name = "substitute"
            self.add_error(name, problem_message(problem))


class StageForm(forms.Form):
    """A stage to create: its tournament is declared by the service."""

    kind = forms.ChoiceField(label=gettext_lazy("stage"))
    committee = forms.TypedChoiceField(
        label=gettext_lazy("committee"), coerce=int, required=False, empty_value=None
    )
    date = forms.DateField(label=gettext_lazy("date"), widget=forms.DateInput({"type": "date"}))
    venue = forms.CharField(label=gettext_lazy("venue"), max_length=200)
    arbiter = forms.IntegerField(label=gettext_lazy("arbiter's licence no."), min_value=1)
    planned_sessions = forms.IntegerField(
        label=gettext_lazy("sessions (empty: the minimum)"),
        required=False,
        min_value=1,
        max_value=9,
    )
    rules_stage = forms.CharField(
        label=gettext_lazy("stage of the published rules (empty: found by its dates)"),
        required=False,
        max_length=200,
    )

    FIELDS = {
        "kind": "kind",
        "committee": "committee",
        "date": "date",
        "venue": "venue",
        "arbiter_licence_number": "arbiter",
        "planned_sessions": "planned_sessions",
        "rules_stage": "rules_stage",
    }

    def __init__(self, *args, committees=(), national: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        kinds = list(REGIONAL_STAGE_KINDS) + (list(NATIONAL_STAGE_KINDS) if national else [])
        self.fields["kind"].choices = [(k.value, k.label) for k in kinds]  # type: ignore[attr-defined]
        self.fields["committee"].choices = [("", "—")] + [  # type: ignore[attr-defined]
            (c.number, f"{c.number} – {c.name}") for c in committees
        ]

    def request(self) -> StageRequest:
        data = self.cleaned_data
        national = ChampionshipStageKind(data["kind"]) in NATIONAL_STAGE_KINDS
        return StageRequest(
            kind=data["kind"],
            date=data["date"],
            venue=data["venue"],
            arbiter_licence_number=data["arbiter"],
            committee=None if national else data["committee"],
            planned_sessions=data["planned_sessions"],
            rules_stage=data["rules_stage"],
        )

    def locate(self, problems: Sequence[Problem]) -> None:
        for problem in problems:
            name = self.FIELDS.get(problem.field.split(".")[0].split("[")[0])
            self.add_error(name, problem_message(problem))
