"""Input and output shapes of the tournament endpoints (kept apart)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from competitions.models import (
    EventKindChoice,
    OrganizerKind,
    Stage,
    Tournament,
    TournamentFormat,
)
from competitions.rules.engine.big_prize import BigPrizeFormula
from competitions.tournaments.access import covers_organizer
from competitions.tournaments.declaration import (
    MAX_DECLARED_SESSIONS,
    Declaration,
    SessionDeclared,
)
from federation.access import scope_of
from federation.public_names import public_licence_number


class DeclaredSessionIn(serializers.Serializer):
    date = serializers.DateField(help_text="The day the session is played.")
    venue = serializers.CharField(
        max_length=200, required=False, default="", allow_blank=True,
        help_text="Where it is played; blank: the tournament's venue.",
    )  # fmt: skip


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
    planned_sessions = serializers.IntegerField(
        min_value=1, max_value=20, required=False, allow_null=True, default=None,
        help_text="How many sessions; by default as many as `sessions` lists, else 1.",
    )  # fmt: skip
    event_kind = serializers.ChoiceField(
        choices=EventKindChoice.choices, default=EventKindChoice.FREE_TOURNAMENT,
        help_text="Chapter 5: free_tournament, team_match (« match par équipes », in DUO or by "
        "4) or festival (« festival de tarot »). The arbiter may not play in a team match or a "
        "festival they direct.",
    )  # fmt: skip
    sessions = serializers.ListField(
        child=DeclaredSessionIn(), required=False, default=list,
        max_length=MAX_DECLARED_SESSIONS,
        help_text="Optional: each session's day and venue, in the order played (session 1 on "
        "`date` at `venue`). Without it the tournament is one day at one venue. Only the "
        "events the season's rulebook allows span several days (a championship's stage); "
        "every session is at the same venue.",
    )  # fmt: skip
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
    big_prize = serializers.ChoiceField(
        choices=[f.value for f in BigPrizeFormula], required=False, default="", allow_blank=True,
        help_text="« Tournoi à grosse dotation »: 24_deals (5 × 4 deals, then the 12, 16 or "
        "20 best scores play a 6th position of 4 deals) or 25_deals (5 × 5 deals, then the 20 "
        "best play 5 positions of 1 deal).",
    )  # fmt: skip
    big_prize_finalists = serializers.IntegerField(
        required=False, allow_null=True, default=None,
        help_text="How many best scores play on (24_deals: 12, 16 or 20; 25_deals: 20).",
    )  # fmt: skip

    start_time = serializers.TimeField(
        required=False, allow_null=True, default=None, help_text="When play starts, e.g. 14:00."
    )
    address = serializers.CharField(
        max_length=300, required=False, default="", allow_blank=True,
        help_text="Where the venue is, for players coming (street, town).",
    )  # fmt: skip
    contact = serializers.CharField(
        max_length=200, required=False, default="", allow_blank=True,
        help_text="Whom players ask (a name, a telephone or an address): public.",
    )  # fmt: skip
    entry_fee = serializers.DecimalField(
        max_digits=6, decimal_places=2, min_value=0, required=False, allow_null=True,
        default=None, help_text="In euros; recorded, never processed.",
    )  # fmt: skip
    entry_cap = serializers.IntegerField(
        min_value=1, max_value=2000, required=False, allow_null=True, default=None,
        help_text="Entries beyond it go to the waiting list.",
    )  # fmt: skip
    online_entries = serializers.BooleanField(
        default=False, help_text="Licensees may enter themselves from the calendar."
    )
    tables_of_five = serializers.BooleanField(
        default=False, help_text="Tables of 5 with a mort rather than tables of 3."
    )
    position_totals = serializers.BooleanField(
        default=False, help_text="Tables may enter their position totals instead of each deal."
    )
    live_page = serializers.BooleanField(default=False, help_text="A public live page.")

    def to_declaration(self) -> Declaration:
        data = dict(self.validated_data)
        data["placements"] = tuple(data.get("placements", ()))
        data["sessions"] = tuple(SessionDeclared(**s) for s in data.get("sessions", ()))
        if data.get("planned_sessions") is None:
            data["planned_sessions"] = len(data["sessions"]) or 1
        return Declaration(**data)


class DeclaredSessionOut(serializers.Serializer):
    number = serializers.IntegerField()
    date = serializers.DateField()
    venue = serializers.CharField()


class BigPrizeOut(serializers.Serializer):
    """A « tournoi à grosse dotation »: its formula and how many best scores play on."""

    formula = serializers.ChoiceField(choices=[f.value for f in BigPrizeFormula])
    finalists = serializers.IntegerField()


class TournamentOut(serializers.ModelSerializer):
    season = serializers.CharField(source="season.name")
    # typed for the schema (a JSON column); null: not a big-prize tournament
    big_prize = BigPrizeOut(read_only=True, allow_null=True)
    organizer = serializers.SerializerMethodField()
    # null for an arbiter who objected to appearing by name, outside the organiser's scope
    arbiter_licence_number = serializers.IntegerField(
        source="arbiter.licence_number", allow_null=True
    )
    homologated_revision = serializers.IntegerField(
        source="homologated_revision.number", allow_null=True, default=None
    )
    # null outside the organiser's scope (to_representation)
    reference = serializers.CharField(read_only=True, allow_null=True)
    refusal_reasons = serializers.ListField(
        child=serializers.CharField(), read_only=True, allow_null=True
    )
    # each session's day and venue, as declared; empty: one day (date) at one venue (venue)
    sessions = serializers.SerializerMethodField()

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
            "event_kind",
            "sessions",
            "organizer",
            "arbiter_licence_number",
            "arbiter_plays",
            "planned_sessions",
            "big_prize",
            "placements",
            "start_time",
            "address",
            "contact",
            "entry_fee",
            "entry_cap",
            "online_entries",
            "tables_of_five",
            "position_totals",
            "live_page",
            "reference",
            "status",
            "refusal_reasons",
            "homologated_revision",
        ]

    # The organiser's own facts: its software's reference and the reasons of a refusal
    # (which may name players) are shown to the organiser's managers and the staff above
    # them only; anyone else reads null.
    PRIVATE_FIELDS = ("reference", "refusal_reasons")

    def to_representation(self, tournament: Tournament) -> dict:
        data = super().to_representation(tournament)
        request = self.context.get("request")
        scope = scope_of(getattr(request, "user", None))
        organiser_side = covers_organizer(
            scope,
            tournament.organizer_kind,
            tournament.organizer_zone,
            tournament.organizer_committee,
            tournament.organizer_club,
        )
        if not organiser_side:
            for field in self.PRIVATE_FIELDS:
                data[field] = None
        data["arbiter_licence_number"] = public_licence_number(
            tournament.arbiter,
            shown_to_reader=organiser_side or scope.player_id == tournament.arbiter_id,
        )
        return data

    @extend_schema_field(DeclaredSessionOut(many=True))
    def get_sessions(self, tournament: Tournament) -> list[dict]:
        """Each session's day and venue as declared; none for a tournament of one
        session (its date and venue), read without a query."""
        if tournament.planned_sessions <= 1:
            return []
        return list(DeclaredSessionOut(tournament.declared_sessions.all(), many=True).data)

    def get_organizer(self, tournament: Tournament) -> dict:
        target = (
            tournament.organizer_club or tournament.organizer_committee or tournament.organizer_zone
        )
        return {
            "kind": tournament.organizer_kind,
            "number": getattr(target, "number", None),
            "name": getattr(target, "name", "Fédération Française de Tarot"),
        }
