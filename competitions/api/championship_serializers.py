"""Input and output shapes of the championship endpoints (kept apart)."""

from __future__ import annotations

from django.utils.text import capfirst
from rest_framework import serializers

from competitions.api.tournament_serializers import DeclaredSessionIn, TournamentOut
from competitions.championships.stages import StageRequest
from competitions.models import (
    Championship,
    ChampionshipEntry,
    ChampionshipKindChoice,
    ChampionshipStage,
    ChampionshipStageKind,
    ChampionshipTitle,
    Qualification,
    RegionalChampionship,
    RegionalRulesVersion,
    StagePenalty,
    StageSeating,
)
from competitions.tournaments.declaration import SessionDeclared
from federation.public_names import public_identity, public_name

# ---------------------------------------------------------------------------------------------
# Outputs


class CommitteeRef(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()


class ClubRef(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()


class ChampionshipOut(serializers.ModelSerializer):
    season = serializers.CharField(source="season.name")
    kind_label = serializers.CharField(source="get_kind_display")
    # typed for the schema (a JSON column): the licence numbers, or null
    outgoing_champion = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        read_only=True,
        help_text="Set by the CCN: the licence numbers of the outgoing national champion. "
        "null: derived from the previous season's national final; an empty list: no "
        "outgoing champion (article 30 of fascicule 1).",
    )

    class Meta:
        model = Championship
        fields = [
            "id",
            "season",
            "kind",
            "kind_label",
            "outgoing_champion",
            "outgoing_champion_note",
        ]


class TitleOut(serializers.ModelSerializer):
    """A title held by one player: public fields only (names, licence number, committee)."""

    season = serializers.CharField(source="championship.season.name")
    championship = serializers.CharField(source="championship.kind")
    title_label = serializers.CharField(source="get_title_display")
    # Public: named through federation.public_names (a player who asked for anonymity:
    # the anonymous name, no licence number).
    licence_number = serializers.SerializerMethodField()
    first_name = serializers.SerializerMethodField()
    last_name = serializers.SerializerMethodField()
    key = serializers.SerializerMethodField()
    committee = serializers.IntegerField(source="committee.number", allow_null=True, default=None)
    stage = serializers.IntegerField(source="stage_id")
    date = serializers.DateField(source="stage.tournament.date")

    class Meta:
        model = ChampionshipTitle
        fields = [
            "season",
            "championship",
            "title",
            "title_label",
            "place",
            "key",
            "licence_number",
            "first_name",
            "last_name",
            "committee",
            "stage",
            "date",
        ]

    def get_licence_number(self, title) -> int | None:
        return public_identity(title.player).licence_number

    def get_first_name(self, title) -> str:
        return "" if title.player.name_hidden else title.player.first_name

    def get_last_name(self, title) -> str:
        return public_name(title.player) if title.player.name_hidden else title.player.last_name

    def get_key(self, title) -> str:
        """The team's licence numbers, less those of players who asked for anonymity
        (``hidden_numbers`` in the context: one query for the list)."""
        hidden = self.context.get("hidden_numbers", frozenset())
        return "-".join(n for n in title.key.split("-") if n and int(n) not in hidden)


class RulesVersionOut(serializers.Serializer):
    season = serializers.CharField(source="season.name")
    kind = serializers.CharField()
    version = serializers.IntegerField()
    # A declared field, not the serializer's ``data``: DRF's metaclass moves fields off
    # the class, which the stubs cannot see.
    data = serializers.JSONField()  # type: ignore[assignment]
    note = serializers.CharField()
    created_at = serializers.DateTimeField()


class RegionalRulesVersionOut(serializers.ModelSerializer):
    published_by = serializers.CharField(source="created_by.username", default=None)
    published_at = serializers.DateTimeField(
        source="created_at",
        read_only=True,
        label=capfirst(RegionalRulesVersion._meta.get_field("created_at").verbose_name),
    )
    approved_by = serializers.CharField(
        source="approved_by.username", allow_null=True, default=None
    )

    class Meta:
        model = RegionalRulesVersion
        fields = [
            "id",
            "version",
            "data",
            "note",
            "published_by",
            "published_at",
            "approved_by",
            "approved_at",
        ]


class RegionalOut(serializers.ModelSerializer):
    championship = serializers.IntegerField(source="championship_id")
    committee = CommitteeRef()
    rules_versions = RegionalRulesVersionOut(many=True, read_only=True)

    class Meta:
        model = RegionalChampionship
        fields = ["id", "championship", "committee", "rules_versions"]


class RegionalBriefOut(serializers.ModelSerializer):
    committee = CommitteeRef()

    class Meta:
        model = RegionalChampionship
        fields = ["id", "committee"]


class StageOut(serializers.ModelSerializer):
    championship = serializers.IntegerField(source="championship_id")
    kind_label = serializers.CharField(source="get_kind_display")
    committee = serializers.IntegerField(
        source="regional.committee.number", default=None, allow_null=True
    )
    tournament = TournamentOut()
    rules_version = serializers.IntegerField(
        source="rules_version.version", default=None, allow_null=True
    )

    class Meta:
        model = ChampionshipStage
        fields = [
            "id",
            "championship",
            "kind",
            "kind_label",
            "committee",
            "tournament",
            "rules_version",
            "rules_stage",
            "arbiter_derogation",
        ]


class QuotaOut(serializers.Serializer):
    committee = serializers.IntegerField(source="committee.number")
    places = serializers.IntegerField()


class ChampionshipDetailOut(ChampionshipOut):
    regionals = RegionalBriefOut(many=True, read_only=True)
    stages = StageOut(many=True, read_only=True)
    quotas = QuotaOut(many=True, read_only=True)

    class Meta(ChampionshipOut.Meta):
        fields = [*ChampionshipOut.Meta.fields, "regionals", "stages", "quotas"]


class EntryPlayerOut(serializers.Serializer):
    """A player of an entry: by name for staff (the ``private`` context); for the public,
    through federation.public_names (a player who asked for anonymity: no name, no number)."""

    licence_number = serializers.SerializerMethodField()
    name = serializers.SerializerMethodField()

    def _hidden(self, row) -> bool:
        return row.player.name_hidden and not self.context.get("private")

    def get_licence_number(self, row) -> int | None:
        return None if self._hidden(row) else row.player.licence_number

    def get_name(self, row) -> str:
        if self._hidden(row):
            return public_name(row.player)
        return f"{row.player.first_name} {row.player.last_name.upper()}"


class FlagOut(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    series = serializers.JSONField()
    raised_at = serializers.DateTimeField()


PRIVATE_FACTS = frozenset({"birth_date"})
"""The facts of an entry that are a player's private data."""


class EntryOut(serializers.ModelSerializer):
    stage = serializers.IntegerField(source="stage_id")
    players = EntryPlayerOut(many=True, source="active_players")
    # null: a national stage's entry has no committee, an entry across clubs no club
    committee = serializers.IntegerField(source="committee.number", default=None, allow_null=True)
    club = serializers.IntegerField(source="club.number", default=None, allow_null=True)
    flags = FlagOut(many=True, source="open", default=list)
    facts = serializers.SerializerMethodField()

    class Meta:
        model = ChampionshipEntry
        fields = [
            "id",
            "stage",
            "number",
            "players",
            "committee",
            "club",
            "team_name",
            "status",
            "right",
            "series",
            "flags",
            "facts",
        ]

    def get_facts(self, entry) -> list | None:
        """The facts checked at entry, for staff and those who enter: a player's birth
        date only for callers who may see that player's private data (``visible``, the
        licence numbers :func:`federation.selectors.private_data_visible` gives)."""
        if not self.context.get("private"):
            return None
        visible = self.context.get("visible", frozenset())
        return [
            fact
            if fact.get("licence_number") in visible
            else {key: value for key, value in fact.items() if key not in PRIVATE_FACTS}
            for fact in entry.facts
        ]


class ProblemOut(serializers.Serializer):
    field = serializers.CharField(allow_null=True)
    code = serializers.CharField()
    message = serializers.CharField()


class QualificationOut(serializers.ModelSerializer):
    committee = serializers.IntegerField(source="committee.number", default=None)
    source_stage = serializers.IntegerField(source="source_stage_id", default=None)
    team = serializers.SerializerMethodField()

    class Meta:
        model = Qualification
        fields = [
            "id",
            "target",
            "key",
            "licence_numbers",
            "right",
            "status",
            "committee",
            "place",
            "source_stage",
            "team",
            "message",
            "recorded_at",
        ]

    def get_team(self, q) -> dict | None:
        if q.team_club_id is None:
            return None
        return {
            "club": q.team_club.number,
            "committee": q.team_committee.number if q.team_committee else None,
            "series": q.team_series,
            "taken_on": q.team_taken_on,
        }


class SeatingOut(serializers.ModelSerializer):
    stage = serializers.IntegerField(source="stage_id")

    class Meta:
        model = StageSeating
        fields = ["stage", "seed", "tables", "champion", "assignments", "drawn_at"]


class PenaltyOut(serializers.ModelSerializer):
    """A penalty; for the public (``hidden`` in the context: the numbers of players who
    asked for anonymity, docs/privacy.md), their licence numbers are left out."""

    licence_number = serializers.SerializerMethodField()
    entry = serializers.IntegerField(source="entry.number")
    lateness_seconds = serializers.SerializerMethodField()
    substitute_licence_number = serializers.SerializerMethodField()

    class Meta:
        model = StagePenalty
        fields = [
            "id",
            "licence_number",
            "entry",
            "kind",
            "lateness_seconds",
            "points",
            "forfeit",
            "substitute_licence_number",
            "reason",
            "recorded_at",
        ]

    def get_lateness_seconds(self, penalty) -> int:
        return int(penalty.lateness.total_seconds())

    def _shown(self, player) -> int | None:
        if player is None or player.licence_number in self.context.get("hidden", ()):
            return None
        return player.licence_number

    def get_licence_number(self, penalty) -> int | None:
        return self._shown(penalty.player)

    def get_substitute_licence_number(self, penalty) -> int | None:
        return self._shown(penalty.substitute)


# ---------------------------------------------------------------------------------------------
# Inputs


class ChampionshipsIn(serializers.Serializer):
    season = serializers.CharField(help_text="2026-2027")
    kinds = serializers.ListField(
        child=serializers.ChoiceField(choices=ChampionshipKindChoice.choices),
        required=False,
        help_text="Default: the four championships.",
    )


class RulesIn(serializers.Serializer):
    data = serializers.DictField(help_text="ChampionshipRules settings; missing keys: current.")  # type: ignore[assignment]  # see RulesVersionOut
    note = serializers.CharField(max_length=300, required=False, default="", allow_blank=True)


class RegionalIn(serializers.Serializer):
    committee = serializers.IntegerField(help_text="Committee number.")


class RegionalRulesIn(serializers.Serializer):
    rules = serializers.DictField(
        help_text="RegionalRules: {stages: [{name, kind, start, end, brackets: [...]}]}."
    )
    note = serializers.CharField(max_length=300, required=False, default="", allow_blank=True)


class StageIn(serializers.Serializer):
    kind = serializers.ChoiceField(choices=ChampionshipStageKind.choices)
    date = serializers.DateField()
    venue = serializers.CharField(max_length=200)
    arbiter_licence_number = serializers.IntegerField()
    name = serializers.CharField(max_length=200, required=False, default="", allow_blank=True)
    committee = serializers.IntegerField(
        required=False, allow_null=True, default=None, help_text="Regional stages."
    )
    planned_sessions = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=1, max_value=20
    )
    rules_stage = serializers.CharField(
        max_length=200, required=False, default="", allow_blank=True,
        help_text="The stage's name in the committee's published rules.",
    )  # fmt: skip
    reference = serializers.CharField(max_length=64, required=False, default="", allow_blank=True)
    arbiter_derogation = serializers.BooleanField(default=False)
    sessions = serializers.ListField(
        child=DeclaredSessionIn(), required=False, default=list, max_length=20,
        help_text="Optional: each session's day and venue, in the order played (session 1 on "
        "`date` at `venue`): a qualifier « sur 2 après-midi » (chapter 3, art. 19).",
    )  # fmt: skip

    def to_request(self) -> StageRequest:
        data = dict(self.validated_data)
        data["sessions"] = tuple(SessionDeclared(**s) for s in data.get("sessions", ()))
        return StageRequest(**data)


class EntryIn(serializers.Serializer):
    licence_numbers = serializers.ListField(
        child=serializers.IntegerField(min_value=1), min_length=1, max_length=4
    )
    team_name = serializers.CharField(max_length=100, required=False, default="", allow_blank=True)


class EntriesIn(serializers.Serializer):
    entries = EntryIn(many=True)


class QuotaIn(serializers.Serializer):
    committee = serializers.IntegerField()
    places = serializers.IntegerField(min_value=0, max_value=1000)


class QuotasIn(serializers.Serializer):
    quotas = QuotaIn(many=True)


class OutgoingChampionIn(serializers.Serializer):
    licence_numbers = serializers.ListField(
        child=serializers.IntegerField(min_value=1), allow_null=True, max_length=4
    )
    note = serializers.CharField(max_length=300, required=False, default="", allow_blank=True)


class SeatingIn(serializers.Serializer):
    seed = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=0)


class LateArrivalIn(serializers.Serializer):
    licence_number = serializers.IntegerField(min_value=1)
    lateness_seconds = serializers.IntegerField(min_value=0, max_value=24 * 3600)
    reason = serializers.CharField(max_length=300)
    forfeit = serializers.BooleanField(default=False)
    substitute_licence_number = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=1
    )


# ---------------------------------------------------------------------------------------------
# Shapes of the computed answers (documentation of the API)


class PlayerRef(serializers.Serializer):
    licence_number = serializers.IntegerField()
    name = serializers.CharField()


class TeamSnapshotOut(serializers.Serializer):
    club = serializers.IntegerField()
    committee = serializers.IntegerField()
    series = serializers.ListField(child=serializers.IntegerField())
    taken_on = serializers.DateField()


class QualifiedOut(serializers.Serializer):
    key = serializers.CharField(help_text="Sorted licence numbers joined by '-'.")
    licence_numbers = serializers.ListField(child=serializers.IntegerField())
    players = PlayerRef(many=True)
    right = serializers.CharField()
    committee = serializers.IntegerField(allow_null=True)
    place = serializers.IntegerField(allow_null=True)
    stage = serializers.IntegerField(allow_null=True, help_text="The stage that gave the right.")
    team = TeamSnapshotOut(allow_null=True, help_text="Interclubs: the team on its day.")
    message = serializers.CharField(required=False)


class OpenPlacesOut(serializers.Serializer):
    right = serializers.CharField()
    committee = serializers.IntegerField(allow_null=True)
    count = serializers.IntegerField()
    reason = serializers.CharField()
    tied = serializers.ListField(child=serializers.CharField())


class NationalFinalStatusOut(serializers.Serializer):
    qualified = QualifiedOut(many=True)
    lost = QualifiedOut(many=True)
    open = OpenPlacesOut(many=True)
    open_count = serializers.IntegerField(allow_null=True)


class RegionalFinalStatusOut(serializers.Serializer):
    qualified = QualifiedOut(many=True)
    refused = ProblemOut(many=True)


class QuotaRow(serializers.Serializer):
    committee = serializers.IntegerField()
    places = serializers.IntegerField()


class QualificationStatusOut(serializers.Serializer):
    championship = ChampionshipOut()
    rules_version = serializers.IntegerField()
    quotas = QuotaRow(many=True)
    national_final = NationalFinalStatusOut()
    regional_final = RegionalFinalStatusOut(
        help_text="Last season's regional champions, qualified for this season's final."
    )
    problems = ProblemOut(many=True)
    warnings = ProblemOut(many=True)


class FinalFieldOut(serializers.Serializer):
    created = serializers.ListField(child=serializers.IntegerField(), help_text="Entry numbers.")
    withdrawn = serializers.ListField(child=serializers.IntegerField())
    refused = ProblemOut(many=True)


class RecheckedEntry(serializers.Serializer):
    stage = serializers.IntegerField()
    entry = serializers.IntegerField()


class RecheckOut(serializers.Serializer):
    checked = serializers.IntegerField()
    flagged = RecheckedEntry(many=True)
    resolved = RecheckedEntry(many=True)


class RecheckIn(serializers.Serializer):
    season = serializers.CharField(required=False, help_text="Default: the current season.")


class MyEntryOut(serializers.Serializer):
    championship = serializers.IntegerField()
    kind = serializers.CharField()
    stage = serializers.IntegerField()
    stage_kind = serializers.CharField()
    date = serializers.DateField()
    entry = serializers.IntegerField()
    key = serializers.CharField()
    status = serializers.CharField()
    right = serializers.CharField()
    team_name = serializers.CharField()


class MyQualificationOut(serializers.Serializer):
    championship = serializers.IntegerField()
    kind = serializers.CharField()
    target = serializers.CharField()
    status = serializers.CharField()
    right = serializers.CharField()
    key = serializers.CharField()
    committee = serializers.IntegerField(allow_null=True)
    place = serializers.IntegerField(allow_null=True)
    message = serializers.CharField()


class MeOut(serializers.Serializer):
    licence_number = serializers.IntegerField()
    season = serializers.CharField()
    entries = MyEntryOut(many=True)
    qualifications = MyQualificationOut(many=True)


class OutgoingChampionOut(serializers.Serializer):
    licence_numbers = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    set_by_ccn = serializers.BooleanField()
    from_stage = serializers.IntegerField(allow_null=True)
    note = serializers.CharField()
    problems = ProblemOut(many=True)


class RulesCheckOut(serializers.Serializer):
    problems = ProblemOut(many=True)


class StageCheckOut(serializers.Serializer):
    revision = serializers.IntegerField(allow_null=True)
    problems = ProblemOut(many=True)
