"""Input and output shapes of the tournament endpoints (kept apart)."""

from __future__ import annotations

from rest_framework import serializers

from competitions.models import OrganizerKind, Stage, Tournament, TournamentFormat
from competitions.tournaments.declaration import Declaration


class DeclarationIn(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    date = serializers.DateField()
    venue = serializers.CharField(
        max_length=200, help_text="One place: the tournament is played there."
    )
    format = serializers.ChoiceField(choices=TournamentFormat.choices)
    stage = serializers.ChoiceField(choices=Stage.choices, default=Stage.ORDINARY)
    organizer_kind = serializers.ChoiceField(choices=OrganizerKind.choices)
    organizer_number = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Club, committee or zone number (none for the FFT).",
    )
    arbiter_licence_number = serializers.IntegerField(
        help_text="An official FFT arbiter for the season."
    )
    arbiter_plays = serializers.BooleanField(default=False)
    planned_sessions = serializers.IntegerField(min_value=1, max_value=20, default=1)
    placements = serializers.ListField(
        child=serializers.CharField(max_length=32),
        required=False,
        default=list,
        max_length=200,
        help_text="The placement of each position, as the arbiter announces them (chapter 2): "
        "fft_movement, random or best_against_best. Best against best needs a ranking (not "
        "the first position); the FFT movement cannot be resumed after another placement; "
        "team tournaments use the FFT movement only.",
    )
    reference = serializers.CharField(
        max_length=64, required=False, default="", allow_blank=True,
        help_text="Your own identifier: declaring again with it returns the same tournament.",
    )  # fmt: skip

    def to_declaration(self) -> Declaration:
        data = dict(self.validated_data)
        data["placements"] = tuple(data.get("placements", ()))
        return Declaration(**data)


class TournamentOut(serializers.ModelSerializer):
    season = serializers.CharField(source="season.name")
    organizer = serializers.SerializerMethodField()
    arbiter_licence_number = serializers.IntegerField(source="arbiter.licence_number")
    homologated_revision = serializers.IntegerField(
        source="homologated_revision.number", allow_null=True, default=None
    )

    class Meta:
        model = Tournament
        fields = [
            "id",
            "season",
            "name",
            "date",
            "venue",
            "format",
            "stage",
            "organizer",
            "arbiter_licence_number",
            "arbiter_plays",
            "planned_sessions",
            "placements",
            "reference",
            "status",
            "refusal_reasons",
            "homologated_revision",
        ]

    def get_organizer(self, tournament: Tournament) -> dict:
        target = (
            tournament.organizer_club or tournament.organizer_committee or tournament.organizer_zone
        )
        return {
            "kind": tournament.organizer_kind,
            "number": getattr(target, "number", None),
            "name": getattr(target, "name", "Fédération Française de Tarot"),
        }
