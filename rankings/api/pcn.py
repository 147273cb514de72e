"""Public PCN endpoints: a season's rulebook, a scale, and the allocation of a
ranked result. They compute with the season's rulebook and store nothing;
federation staff may publish a new rulebook version."""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from competitions.models import TournamentFormat
from competitions.rulebooks import rulebook_in_force, rulebook_update
from competitions.rules.pcn.allocation import RankedEntry, allocate
from competitions.rules.pcn.national_finals import allocate_national_final
from competitions.rules.pcn.scales import scale
from competitions.rules.rulebook import NationalFinal
from core.vocabulary import Format, StageKind
from federation.access import scope_of
from federation.selectors import merge_target
from rankings.api.ranking import MOVED, moved_to, season_or_404


class ScaleQuery(serializers.Serializer):
    season = serializers.CharField(required=False, help_text="2026-2027; default the current one.")
    format = serializers.ChoiceField(choices=TournamentFormat.choices)
    stage = serializers.ChoiceField(
        choices=[s.value for s in StageKind if s is not StageKind.NATIONAL_FINAL],
        default=StageKind.ORDINARY.value,
    )
    tables = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=1000),
        min_length=1,
        max_length=20,
        help_text="Tables of each session, in order: `tables=20&tables=16` (sum counts).",
    )
    entries = serializers.IntegerField(
        required=False,
        min_value=1,
        help_text="Entries at the first session (default: full tables).",
    )


class ScaleOut(serializers.Serializer):
    season = serializers.CharField()
    rulebook_version = serializers.IntegerField()
    format = serializers.CharField()
    stage = serializers.CharField()
    tables = serializers.IntegerField()
    entries = serializers.IntegerField()
    beneficiaries = serializers.IntegerField()
    coefficient = serializers.FloatField()
    index = serializers.FloatField()
    cap = serializers.IntegerField()
    floor = serializers.IntegerField()
    values = serializers.ListField(child=serializers.IntegerField())


class ScaleView(APIView):
    """The PCN scale of a tournament: the points of each place with a right to
    points, for a format, the tables of each session and a stage, under the
    season's rulebook (chapter 5)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=[ScaleQuery], responses=ScaleOut)
    def get(self, request):
        query = ScaleQuery(
            data={**request.query_params.dict(), "tables": request.query_params.getlist("tables")}
        )
        query.is_valid(raise_exception=True)
        data = query.validated_data
        season = season_or_404(data.get("season"))
        version, rulebook = rulebook_in_force(season=season)
        grid = scale(Format(data["format"]), data["tables"], StageKind(data["stage"]), rulebook,
                     entries=data.get("entries"))  # fmt: skip
        return Response(
            {
                "season": season.name,
                "rulebook_version": version.version,
                "format": grid.format.value,
                "stage": grid.stage.value,
                "tables": grid.tables,
                "entries": grid.entries,
                "beneficiaries": grid.beneficiaries,
                "coefficient": float(grid.coefficient),
                "index": float(grid.index),
                "cap": grid.cap,
                "floor": grid.floor_value,
                "values": list(grid.values),
            }
        )


class RankedIn(serializers.Serializer):
    entry_id = serializers.CharField(max_length=64)
    place = serializers.IntegerField(
        help_text="1224 convention: tied entries share the best place."
    )


class AllocationIn(serializers.Serializer):
    season = serializers.CharField(required=False)
    format = serializers.ChoiceField(choices=TournamentFormat.choices)
    stage = serializers.ChoiceField(choices=[s.value for s in StageKind], default="ordinary")
    national_final = serializers.ChoiceField(
        choices=[n.value for n in NationalFinal], required=False,
        help_text="For a national final: which fixed table (seniors is an individual final).",
    )  # fmt: skip
    tables = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=1000), required=False, max_length=20
    )
    entries = serializers.IntegerField(required=False, min_value=1)
    ties_after_tie_break = serializers.BooleanField(default=False)
    # many=True passes max_length on to the ListSerializer; the stubs do not know it.
    ranking = RankedIn(many=True, max_length=5000)  # type: ignore[call-arg]

    def validate(self, attrs):
        if attrs["stage"] == StageKind.NATIONAL_FINAL:
            if "national_final" not in attrs:
                raise serializers.ValidationError(
                    {"national_final": _("Required for a national final.")}
                )
            final = NationalFinal(attrs["national_final"])
            if attrs["format"] != final.format:
                raise serializers.ValidationError(
                    {
                        "format": _("This national final is played in the %(format)s format.")
                        % {"format": TournamentFormat(final.format).label}
                    }
                )
        elif not attrs.get("tables"):
            raise serializers.ValidationError(
                {"tables": _("Required: the tables of each session.")}
            )
        return attrs


class AwardOut(serializers.Serializer):
    entry_id = serializers.CharField()
    place = serializers.IntegerField()
    pcn_per_player = serializers.IntegerField()
    pp_per_player = serializers.IntegerField()
    has_right = serializers.BooleanField()
    tied_entries = serializers.IntegerField()


class AllocationOut(serializers.Serializer):
    rulebook_version = serializers.IntegerField()
    players_per_entry = serializers.IntegerField()
    places_with_points = serializers.IntegerField()
    awards = AwardOut(many=True)


class AllocationView(APIView):
    """Allocate PCN and PP to a ranked result (places with ties, 1224
    convention): ties share the points of the places they occupy, rounded up;
    national finals use their fixed tables. Each player of a DUO or team gets
    the entry's figures."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(request=AllocationIn, responses=AllocationOut)
    def post(self, request):
        serializer = AllocationIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        version, rulebook = rulebook_in_force(season=season_or_404(data.get("season")))
        ranking = [RankedEntry(entry_id=r["entry_id"], place=r["place"]) for r in data["ranking"]]
        if data["stage"] == StageKind.NATIONAL_FINAL:
            result = allocate_national_final(
                ranking, NationalFinal(data["national_final"]), rulebook,
                ties_after_tie_break=data["ties_after_tie_break"],
            )  # fmt: skip
        else:
            result = allocate(
                ranking, Format(data["format"]), data["tables"], StageKind(data["stage"]), rulebook,
                entries=data.get("entries"), ties_after_tie_break=data["ties_after_tie_break"],
            )  # fmt: skip
        return Response(
            AllocationOut(
                {
                    "rulebook_version": version.version,
                    "players_per_entry": result.players_per_entry,
                    "places_with_points": result.places_with_points,
                    "awards": result.awards,
                }
            ).data
        )


class RulebookView(APIView):
    """A season's rulebook in force (coefficients, caps, floors, indices, minimum
    participation, national-final tables). Federation staff publish a new
    version with PUT; it is validated whole and every problem is located."""

    def get_permissions(self):
        return (
            [permissions.AllowAny()]
            if self.request.method == "GET"
            else [permissions.IsAuthenticated()]
        )

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, season: str):
        version, _rulebook = rulebook_in_force(season=season_or_404(season))
        return Response({"season": season, "version": version.version, "note": version.note,
                         "rulebook": version.data})  # fmt: skip

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    def put(self, request, season: str):
        body = request.data if isinstance(request.data, dict) else {}
        version = rulebook_update(
            season=season_or_404(season),
            data=body.get("rulebook"),
            by=request.user,
            note=str(body.get("note", ""))[:300],
        )
        return Response({"season": season, "version": version.version, "note": version.note,
                         "rulebook": version.data})  # fmt: skip


class PlayerTournamentOut(serializers.Serializer):
    tournament = serializers.IntegerField(source="tournament_id")
    name = serializers.CharField(source="tournament.name")
    date = serializers.DateField(source="tournament.date")
    season = serializers.CharField(source="season.name")
    stage = serializers.CharField(source="tournament.stage")
    place = serializers.IntegerField()
    pcn = serializers.IntegerField()
    pp = serializers.IntegerField()


class PlayerTournamentsView(APIView):
    """A player's homologated tournaments with their place, PCN and PP, newest
    first (current allocations only: a corrected tournament shows its
    corrected points). Filter by `?season=2026-2027`."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: PlayerTournamentOut(many=True), 301: MOVED})
    def get(self, request, licence_number: int):
        from competitions.models import Allocation

        kept = merge_target(licence_number)
        if kept is not None:  # a merged record (portal/merging.py): 301 to the kept one
            return moved_to(request, "player-tournaments", kept)

        allocations = (
            Allocation.objects.filter(player__licence_number=licence_number, current=True)
            # a player who asked for anonymity is unknown to the public (docs/privacy.md)
            .filter(self._shown(request, licence_number))
            .select_related("tournament", "season")
            .order_by("-tournament__date", "-tournament_id")
        )
        if "season" in request.query_params:
            allocations = allocations.filter(season__name=request.query_params["season"])
        return Response(PlayerTournamentOut(allocations, many=True).data)

    @staticmethod
    def _shown(request, licence_number: int) -> Q:
        """Everyone's allocations but a hidden player's, which only they and federation
        staff read here (docs/privacy.md)."""
        scope = scope_of(request.user)
        if scope.national:
            return Q()
        return Q(player__name_hidden=False) | Q(player_id=scope.player_id)
