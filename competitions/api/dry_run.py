"""Dry-run endpoints for clubs' software and staff: each answers what the real
write would decide, and stores nothing (:mod:`competitions.dry_run`).

- ``POST /api/championships/{id}/check-team/``: an interclubs team composition;
- ``POST /api/championships/stages/{id}/check-entry/``: the eligibility of an entry;
- ``POST /api/tournaments/{id}/homologation-check/``: a declared tournament's homologation;
- ``POST /api/tournaments/homologation-check/``: a tournament plan's homologation;
- ``POST /api/tournaments/{id}/results/preview/`` (:mod:`competitions.api.results`): what a
  results document would award.

A check that finds problems answers 200 with ``valid``/``eligible``/``homologable`` false
and the problems (each with its ``field``, ``code`` and French ``message``); malformed input
is a 400 naming the field.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema, inline_serializer
from rest_framework import permissions, serializers
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response
from rest_framework.views import APIView

from competitions.api.championship_serializers import ProblemOut
from competitions.championships import selectors
from competitions.championships.entries import may_enter_stage
from competitions.dry_run import (
    HomologationCheck,
    PlannedFigures,
    entry_check,
    plan_homologation_check,
    team_check,
    tournament_homologation_check,
)
from competitions.models import Tournament
from competitions.rules.homologation import TournamentFacts
from competitions.rules.rulebook import EventKind, Organizer
from competitions.tournaments import access
from core.http.api_errors import problems_data
from core.vocabulary import Format
from federation.access import scope_of
from federation.models import Season
from federation.selectors import current_season

ErrorsOut = inline_serializer("DryRunErrors", fields={"errors": ProblemOut(many=True)})
"""The one error shape of the API (:mod:`core.http.api_errors`)."""


def _licence_numbers(size_min: int, size_max: int) -> serializers.ListField:
    return serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        min_length=size_min,
        max_length=size_max,
        help_text="Licence numbers of the players, in the order of the entry.",
    )


def _distinct(numbers: list[int]) -> list[int]:
    if len(set(numbers)) != len(numbers):
        raise serializers.ValidationError(_("A player appears twice."), code="duplicate_player")
    return numbers


# ---------------------------------------------------------------------------------------------
# Interclubs team composition


class TeamIn(serializers.Serializer):
    licence_numbers = _licence_numbers(4, 4)

    def validate_licence_numbers(self, value):
        return _distinct(value)


class TeamPlayerOut(serializers.Serializer):
    licence_number = serializers.IntegerField()
    club = serializers.IntegerField(allow_null=True)
    series = serializers.IntegerField(allow_null=True)


class TeamCheckOut(serializers.Serializer):
    valid = serializers.BooleanField()
    season = serializers.CharField()
    players = TeamPlayerOut(many=True)
    product = serializers.IntegerField(allow_null=True)
    threshold = serializers.IntegerField()
    exception = serializers.BooleanField(
        help_text="Allowed only as one of the regulation's exceptions (1-1-4-4, 1-1-3-4)."
    )
    problems = ProblemOut(many=True)


_TEAM_EXAMPLES = [
    OpenApiExample(
        "An allowed team (2×2×3×4 = 48 > 16)",
        request_only=True,
        value={"licence_numbers": [1001, 1002, 1004, 1005]},
    ),
    OpenApiExample(
        "Allowed",
        response_only=True,
        value={
            "valid": True,
            "season": "2026-2027",
            "players": [
                {"licence_number": 1001, "club": 101, "series": 2},
                {"licence_number": 1002, "club": 101, "series": 2},
                {"licence_number": 1004, "club": 101, "series": 3},
                {"licence_number": 1005, "club": 101, "series": 4},
            ],
            "product": 48,
            "threshold": 16,
            "exception": False,
            "problems": [],
        },
    ),
    OpenApiExample(
        "Refused (1×2×2×4 = 16)",
        response_only=True,
        value={
            "valid": False,
            "season": "2026-2027",
            "players": [
                {"licence_number": 1001, "club": 101, "series": 1},
                {"licence_number": 1002, "club": 101, "series": 2},
                {"licence_number": 1004, "club": 101, "series": 2},
                {"licence_number": 1005, "club": 101, "series": 4},
            ],
            "product": 16,
            "threshold": 16,
            "exception": False,
            "problems": [
                {
                    "field": "licence_numbers",
                    "code": "composition_not_allowed",
                    "message": "Cette composition d’équipe n’est pas permise : le produit des "
                    "quatre séries doit dépasser le seuil du règlement, hors exceptions "
                    "prévues.",
                }
            ],
        },
    ),
    OpenApiExample(
        "Bad input (400)",
        response_only=True,
        status_codes=["400"],
        value={
            "errors": [
                {
                    "field": "licence_numbers",
                    "code": "min_length",
                    "message": "Assurez-vous que ce champ comporte au moins 4 éléments.",
                }
            ]
        },
    ),
]


class CheckTeam(APIView):
    """Would these four players make an allowed interclubs team this season? The series of
    each player (the current national ranking; 4th series for a player not licensed last
    season), their product, whether an exception is used, and every reason if not. Signed-in
    callers; series and clubs are public facts. Nothing stored."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=TeamIn,
        responses={200: TeamCheckOut, 400: ErrorsOut},
        examples=_TEAM_EXAMPLES,
    )
    def post(self, request, pk: int):
        championship = get_object_or_404(selectors.championships(), pk=pk)
        data = TeamIn(data=request.data)
        data.is_valid(raise_exception=True)
        check = team_check(
            championship=championship, licence_numbers=data.validated_data["licence_numbers"]
        )
        return Response(
            TeamCheckOut(
                {
                    "valid": check.valid,
                    "season": check.season,
                    "players": check.players,
                    "product": check.product,
                    "threshold": check.threshold,
                    "exception": check.exception,
                    "problems": problems_data(check.problems),
                }
            ).data
        )


# ---------------------------------------------------------------------------------------------
# Eligibility for a stage


class EntryCheckIn(serializers.Serializer):
    licence_numbers = _licence_numbers(1, 4)

    def validate_licence_numbers(self, value):
        return _distinct(value)


class EntryCheckOut(serializers.Serializer):
    eligible = serializers.BooleanField()
    stage = serializers.IntegerField()
    problems = ProblemOut(many=True)
    private_reasons_hidden = serializers.ListField(
        child=serializers.IntegerField(),
        help_text=(
            "Licence numbers outside the caller's scope whose refusals resting on a private "
            "fact (age, suspension, licence date) are given by kind only."
        ),
    )


_ENTRY_EXAMPLES = [
    OpenApiExample("A seniors entry", request_only=True, value={"licence_numbers": [1001]}),
    OpenApiExample(
        "Eligible",
        response_only=True,
        value={"eligible": True, "stage": 12, "problems": [], "private_reasons_hidden": []},
    ),
    OpenApiExample(
        "Not eligible, player outside the caller's scope",
        response_only=True,
        value={
            "eligible": False,
            "stage": 12,
            "problems": [
                {
                    "field": "licence_numbers[0]",
                    "code": "not_eligible_age",
                    "message": "Licence 2002\xa0: non admissible en raison de l’âge.",
                }
            ],
            "private_reasons_hidden": [2002],
        },
    ),
    OpenApiExample(
        "Bad input (400)",
        response_only=True,
        status_codes=["400"],
        value={
            "errors": [
                {
                    "field": "licence_numbers",
                    "code": "duplicate_player",
                    "message": "Un joueur apparaît deux fois.",
                }
            ]
        },
    ),
]


class CheckEntry(APIView):
    """May these players (one entry: 1, 2 or 4 licence numbers) enter this stage? Every
    reason the entry service would give on the stage's day. For a player outside the
    caller's scope, a refusal resting on a private fact names its kind only ("not eligible:
    age", without the birth date). Those who may enter players in the stage (as for the
    entries: the committee's clubs and staff at a regional stage); nothing stored."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=EntryCheckIn,
        responses={200: EntryCheckOut, 400: ErrorsOut},
        examples=_ENTRY_EXAMPLES,
    )
    def post(self, request, pk: int):
        stage = get_object_or_404(selectors.stages(), pk=pk)
        if not may_enter_stage(scope_of(request.user), stage):  # before the body
            raise PermissionDenied(_("You may not enter anyone in this stage."))
        data = EntryCheckIn(data=request.data)
        data.is_valid(raise_exception=True)
        check = entry_check(
            stage=stage,
            licence_numbers=data.validated_data["licence_numbers"],
            scope=scope_of(request.user),
        )
        return Response(
            EntryCheckOut(
                {
                    "eligible": check.eligible,
                    "stage": check.stage,
                    "problems": problems_data(check.problems),
                    "private_reasons_hidden": list(check.hidden),
                }
            ).data
        )


# ---------------------------------------------------------------------------------------------
# Homologation


class FactsOut(serializers.Serializer):
    organizer = serializers.CharField()
    format = serializers.CharField()
    event_kind = serializers.CharField()
    arbiter_is_official = serializers.BooleanField()
    arbiter_plays = serializers.BooleanField()
    entries = serializers.IntegerField()
    table_sizes = serializers.ListField(child=serializers.IntegerField())
    days = serializers.IntegerField(help_text="Days its declared sessions are played on.")
    single_venue = serializers.BooleanField(help_text="Every session at one place.")


class HomologationCheckOut(serializers.Serializer):
    homologable = serializers.BooleanField()
    based_on = serializers.ChoiceField(
        choices=["plan", "revision"],
        help_text="The figures posted (plan) or the tournament's latest results (revision).",
    )
    revision = serializers.IntegerField(allow_null=True)
    rulebook_version = serializers.IntegerField()
    facts = FactsOut()
    problems = ProblemOut(many=True)


def _homologation_out(check: HomologationCheck) -> dict:
    facts = check.facts
    return HomologationCheckOut(
        {
            "homologable": check.homologable,
            "based_on": check.source,
            "revision": check.revision,
            "rulebook_version": check.rulebook_version,
            "facts": {
                "organizer": facts.organizer.value,
                "format": facts.format.value,
                "event_kind": facts.event_kind.value,
                "arbiter_is_official": facts.arbiter_is_official,
                "arbiter_plays": facts.arbiter_plays,
                "entries": facts.entries,
                "table_sizes": list(facts.table_sizes),
                "days": facts.days,
                "single_venue": facts.single_venue,
            },
            "problems": problems_data(check.problems),
        }
    ).data


class FiguresIn(serializers.Serializer):
    entries = serializers.IntegerField(
        min_value=0, required=False, help_text="Entries of the first session."
    )
    tables = serializers.IntegerField(
        min_value=1, required=False, help_text="Tables of the first session."
    )
    tables_of_three = serializers.IntegerField(min_value=0, required=False, default=0)

    def validate(self, attrs):
        given = {k for k in ("entries", "tables") if k in attrs}
        if given and len(given) < 2:
            missing = ({"entries", "tables"} - given).pop()
            raise serializers.ValidationError(
                {missing: [_("Give both entries and tables, or neither.")]},
                code="figures_incomplete",
            )
        if "tables" in attrs and attrs["tables_of_three"] > attrs["tables"]:
            raise serializers.ValidationError(
                {"tables_of_three": [_("More tables of 3 than tables.")]},
                code="more_tables_of_three_than_tables",
            )
        return attrs


_HOMOLOGATION_RESPONSES = [
    OpenApiExample(
        "Homologable",
        response_only=True,
        value={
            "homologable": True,
            "based_on": "plan",
            "revision": None,
            "rulebook_version": 1,
            "facts": {
                "organizer": "affiliated_club",
                "format": "individual",
                "event_kind": "free_tournament",
                "arbiter_is_official": True,
                "arbiter_plays": False,
                "entries": 16,
                "table_sizes": [4, 4, 4, 4],
            },
            "problems": [],
        },
    ),
    OpenApiExample(
        "Not homologable",
        response_only=True,
        value={
            "homologable": False,
            "based_on": "plan",
            "revision": None,
            "rulebook_version": 1,
            "facts": {
                "organizer": "affiliated_club",
                "format": "individual",
                "event_kind": "free_tournament",
                "arbiter_is_official": True,
                "arbiter_plays": False,
                "entries": 8,
                "table_sizes": [4, 4],
            },
            "problems": [
                {
                    "field": "entries",
                    "code": "below_minimum_participation",
                    "message": "8 participants : en dessous du minimum de 11 pour la "
                    "formule individuel.",
                }
            ],
        },
    ),
]


class TournamentHomologationCheck(APIView):
    """Could this declared tournament be homologated (chapter 5: organiser, official
    arbiter, minimum participation, tables)? With the planned figures of its first session
    posted (entries, tables, tables_of_three), or with none, on its latest results. The
    organiser's managers and the staff above them; nothing stored."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=FiguresIn,
        responses={200: HomologationCheckOut, 400: ErrorsOut},
        examples=[
            OpenApiExample(
                "Planned figures", request_only=True, value={"entries": 16, "tables": 4}
            ),
            OpenApiExample(
                "Bad input (400)",
                response_only=True,
                status_codes=["400"],
                value={
                    "errors": [
                        {
                            "field": "tables_of_three",
                            "code": "more_tables_of_three_than_tables",
                            "message": "Il y a plus de tables de 3 que de tables.",
                        }
                    ]
                },
            ),
            *_HOMOLOGATION_RESPONSES,
        ],
    )
    def post(self, request, pk: int):
        tournament = get_object_or_404(
            Tournament.objects.select_related("season", "arbiter"), pk=pk
        )
        if not access.may_manage(scope_of(request.user), tournament):  # before the body
            raise PermissionDenied(
                _("Only the organiser's managers and the staff above them may check it.")
            )
        data = FiguresIn(data=request.data)
        data.is_valid(raise_exception=True)
        figures = data.validated_data
        check = tournament_homologation_check(
            tournament=tournament,
            figures=PlannedFigures(
                figures["entries"], figures["tables"], figures["tables_of_three"]
            )
            if "entries" in figures
            else None,
        )
        return Response(_homologation_out(check))


class PlanIn(serializers.Serializer):
    season = serializers.CharField(
        required=False, help_text="The season whose rulebook applies (default: the current one)."
    )
    organizer = serializers.ChoiceField(choices=[o.value for o in Organizer])
    format = serializers.ChoiceField(choices=[f.value for f in Format])
    event_kind = serializers.ChoiceField(
        choices=[e.value for e in EventKind], default=EventKind.FREE_TOURNAMENT.value
    )
    arbiter_is_official = serializers.BooleanField()
    arbiter_plays = serializers.BooleanField(default=False)
    entries = serializers.IntegerField(min_value=0)
    table_sizes = serializers.ListField(
        child=serializers.IntegerField(min_value=3, max_value=5),
        min_length=1,
        help_text="Players seated at each table (3, 4 or 5).",
    )
    days = serializers.IntegerField(
        min_value=1, max_value=20, default=1,
        help_text="Days its sessions are played on (more than one only for the events the "
        "season's rulebook lets span days: a championship's stage).",
    )  # fmt: skip
    venues = serializers.IntegerField(
        min_value=1, max_value=20, default=1,
        help_text="Places its sessions are played at (chapter 5: « sur le même lieu »).",
    )  # fmt: skip

    def validate_season(self, value):
        season = Season.objects.filter(name=value).first()
        if season is None:
            raise serializers.ValidationError(_("Unknown season."), code="invalid")
        return season


class PlanHomologationCheck(APIView):
    """Could a tournament organised this way be homologated (chapter 5), under a season's
    rulebook? Nothing declared, nothing stored; signed-in callers (a club's software with its
    API token)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="tournaments_plan_homologation_check",
        request=PlanIn,
        responses={200: HomologationCheckOut, 400: ErrorsOut},
        examples=[
            OpenApiExample(
                "A club's tournament of 16 players",
                request_only=True,
                value={
                    "organizer": "affiliated_club",
                    "format": "individual",
                    "arbiter_is_official": True,
                    "entries": 16,
                    "table_sizes": [4, 4, 4, 4],
                },
            ),
            OpenApiExample(
                "Bad input (400)",
                response_only=True,
                status_codes=["400"],
                value={
                    "errors": [
                        {
                            "field": "organizer",
                            "code": "invalid_choice",
                            "message": "« club » n'est pas un choix valide.",
                        }
                    ]
                },
            ),
            *_HOMOLOGATION_RESPONSES,
        ],
    )
    def post(self, request):
        data = PlanIn(data=request.data)
        data.is_valid(raise_exception=True)
        plan = data.validated_data
        season = plan.get("season") or current_season()
        if season is None:
            raise serializers.ValidationError({"season": [_("Unknown season.")]})
        check = plan_homologation_check(
            season=season,
            facts=TournamentFacts(
                organizer=Organizer(plan["organizer"]),
                format=Format(plan["format"]),
                event_kind=EventKind(plan["event_kind"]),
                arbiter_is_official=plan["arbiter_is_official"],
                arbiter_plays=plan["arbiter_plays"],
                single_venue=plan["venues"] == 1,
                simultaneous=True,
                entries=plan["entries"],
                table_sizes=tuple(plan["table_sizes"]),
                days=plan["days"],
            ),
        )
        return Response(_homologation_out(check))
