"""The entry forms: a player entering themself (their partners by licence number), the
organiser entering anyone (licensees by number, others by name), the organiser's entry
settings. Each builds the service's request; the service's refusals come back on the
field they name (``licence_numbers[1]`` → the field that gave that number)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from competitions.day.entries import MEMBERS, EntriesSettings, EntryRequest
from core.messages import problem_message
from core.problems import Problem

# A problem located on the whole request goes on this field, or on the form (None).
WHOLE = {"licence_numbers": None, "names": None, "tournament": None, "entry": None}


class _EntryForm(forms.Form):
    """What both entry forms share: the team's name, the waiting list, the refusals."""

    def __init__(self, *args, tournament, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.size = MEMBERS[tournament.format]
        self._numbers: list[str] = []  # the field that gave each licence number, in order
        self._names: list[str] = []
        self._add_member_fields()
        if self.size > 1:
            self.fields["team_name"] = forms.CharField(
                label=_("Team name"), max_length=100, required=False
            )
        if tournament.entry_cap is not None:
            self.fields["waiting_list"] = forms.BooleanField(
                label=_("If the tournament is full, put me on the waiting list"),
                required=False,
                help_text=_("The first place freed goes to the first of the list."),
            )

    def _add_member_fields(self) -> None:
        raise NotImplementedError

    def entry_request(self) -> EntryRequest:
        raise NotImplementedError

    def add_problems(self, problems: tuple[Problem, ...]) -> None:
        """The service's refusals, each on its field, in the active language."""
        for problem in problems:
            self.add_error(self._field_of(problem.field), problem_message(problem))

    def _field_of(self, path: str) -> str | None:
        name, _sep, index = path.partition("[")
        position = int(index[:-1]) if index[:-1].isdecimal() else None
        if name == "licence_numbers" and position is not None and position < len(self._numbers):
            return self._numbers[position] or None
        if name == "names" and position is not None and position < len(self._names):
            return self._names[position] or None
        if path in self.fields:
            return path
        return WHOLE.get(path)


class PlayerEntryForm(_EntryForm):
    """« S'inscrire »: the signed-in licensee, with the partners they name."""

    def __init__(self, *args, tournament, own_licence: int, **kwargs) -> None:
        self.own_licence = own_licence
        super().__init__(*args, tournament=tournament, **kwargs)

    def _add_member_fields(self) -> None:
        for k in range(1, self.size):
            self.fields[f"partner_{k}"] = forms.IntegerField(
                label=_("Partner %(number)s: licence number") % {"number": k},
                min_value=1,
                max_value=2_000_000_000,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )

    def entry_request(self) -> EntryRequest:
        data = self.cleaned_data
        numbers = [self.own_licence]
        self._numbers = [""]  # the player's own number: the form's own error
        for k in range(1, self.size):
            numbers.append(data[f"partner_{k}"])
            self._numbers.append(f"partner_{k}")
        return EntryRequest(
            licence_numbers=tuple(numbers),
            team_name=data.get("team_name", ""),
            waiting_list=data.get("waiting_list", False),
        )


class OrganiserEntryForm(_EntryForm):
    """The organiser enters a player, a DUO or a team: each player by licence number, or by
    name when they hold no licence."""

    def _add_member_fields(self) -> None:
        for k in range(1, self.size + 1):
            label = (
                _("Licence number")
                if self.size == 1
                else _("Player %(number)s: licence number") % {"number": k}
            )
            self.fields[f"licence_{k}"] = forms.IntegerField(
                label=label,
                min_value=1,
                max_value=2_000_000_000,
                required=False,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )
            self.fields[f"name_{k}"] = forms.CharField(
                label=_("or, without a licence, the name"),
                max_length=200,
                required=False,
            )

    def clean(self):
        data = super().clean()
        for k in range(1, self.size + 1):
            licence, name = data.get(f"licence_{k}"), (data.get(f"name_{k}") or "").strip()
            if licence and name:
                self.add_error(f"name_{k}", _("A licence number or a name, not both."))
            elif not licence and not name and f"licence_{k}" not in self.errors:
                self.add_error(f"licence_{k}", _("A licence number, or the name below."))
        return data

    def entry_request(self) -> EntryRequest:
        data = self.cleaned_data
        numbers, names = [], []
        self._numbers, self._names = [], []
        for k in range(1, self.size + 1):
            if data.get(f"licence_{k}"):
                numbers.append(data[f"licence_{k}"])
                self._numbers.append(f"licence_{k}")
            else:
                names.append(data[f"name_{k}"].strip())
                self._names.append(f"name_{k}")
        return EntryRequest(
            licence_numbers=tuple(numbers),
            names=tuple(names),
            team_name=data.get("team_name", ""),
            waiting_list=data.get("waiting_list", False),
        )


class EntriesSettingsForm(forms.Form):
    online_entries = forms.BooleanField(
        label=_("Licensees may enter online, from the calendar"), required=False
    )
    entry_cap = forms.IntegerField(
        label=_("Entry cap"),
        required=False,
        min_value=1,
        max_value=2000,
        help_text=_("Beyond it, entries go to a waiting list."),
    )

    def settings(self) -> EntriesSettings:
        return EntriesSettings(
            online_entries=self.cleaned_data["online_entries"],
            entry_cap=self.cleaned_data["entry_cap"],
        )

    def add_problems(self, problems: tuple[Problem, ...]) -> None:
        for problem in problems:
            field = problem.field if problem.field in self.fields else None
            self.add_error(field, problem_message(problem))
