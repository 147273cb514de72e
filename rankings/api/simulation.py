"""``GET /api/pcn/simulation/``: « Et si… », the PCN/PP a result would award under the
season's rulebook and, with a licence number, the player's place and step in the live
ranking after it. Public; a pure read (nothing stored). Every bad input is a 400 naming
its field (``tables_out_of_range``, ``place_beyond_entries``, ``below_minimum_participation``,
``no_player_with_licence``, ``not_in_live_ranking``, or the choice of ``event``)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from core.vocabulary import Format
from rankings.api.ranking import season_or_404
from rankings.reads.simulation import simulate, simulation_out
from rankings.rules.simulation import MAX_TABLES, Event


class SimulationQuery(serializers.Serializer):
    season = serializers.CharField(required=False, help_text="2026-2027; default the current one.")
    event = serializers.ChoiceField(
        choices=[e.value for e in Event],
        help_text="ordinary, a regional stage, semi-final or final, the national qualifier, "
        "or one of the four national finals (national_final_individual, …_duo, …_team4, "
        "…_seniors).",
    )
    format = serializers.ChoiceField(
        choices=[f.value for f in Format], default=Format.INDIVIDUAL.value,
        help_text="For a tournament priced by a scale; a national final has its own format.",
    )  # fmt: skip
    tables = serializers.IntegerField(min_value=1, max_value=MAX_TABLES)
    place = serializers.IntegerField(min_value=1)
    entries = serializers.IntegerField(
        required=False, min_value=1,
        help_text="Entries of the first session (default: full tables, 4 players a table).",
    )  # fmt: skip
    licence_number = serializers.IntegerField(
        required=False, min_value=1,
        help_text="Place this player in the live ranking with the result added.",
    )  # fmt: skip


class SimulationView(APIView):
    """What a result would award, under the season's rulebook (the same core as a
    homologated result), and where it would put a player in the live ranking (everyone
    else unchanged). Nothing is stored. Example: ``?event=regional_final&tables=20&place=2``
    gives 1238 PCN, 0 PP (the printed 688 at 20 tables × the index 1.8, truncated)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[SimulationQuery],
        responses=OpenApiTypes.OBJECT,
    )
    def get(self, request):
        query = SimulationQuery(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        data = query.validated_data
        season = season_or_404(data.get("season"))
        result = simulate(
            season=season,
            event=Event(data["event"]),
            fmt=Format(data["format"]),
            tables=data["tables"],
            place=data["place"],
            entries=data.get("entries"),
            licence_number=data.get("licence_number"),
            by=request.user,
        )
        return Response(simulation_out(result))
