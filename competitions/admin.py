"""Staff tools for tournaments: declarations with their full history (who,
when, before/after), result revisions with their rows, all read-only once
submitted: corrections go through the correction service, never an edit. The
season's rulebook versions and the allocations are read-only; the championships'
rows written by their services too."""

from django.contrib import admin
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from competitions.championships.entries import entry_withdraw
from competitions.championships.interclubs import interclubs_teams_recheck
from competitions.championships.qualification_records import (
    national_final_register,
    qualification_record,
)
from competitions.championships.regional import regional_rules_approve
from competitions.homologation import tournament_homologate, tournament_refuse
from competitions.models import (
    Allocation,
    Championship,
    ChampionshipEntry,
    ChampionshipRulesVersion,
    ChampionshipStage,
    ChampionshipTitle,
    CommitteeQuota,
    EntryPlayer,
    Qualification,
    RegionalChampionship,
    RegionalRulesVersion,
    ResultEntry,
    ResultPenalty,
    ResultPlayer,
    ResultRevision,
    ResultSession,
    RulebookVersion,
    StagePenalty,
    StageSeating,
    SuspensionProposal,
    TeamFlag,
    Tournament,
    TournamentStatus,
)
from core.admin_actions import pretty_json, run_service, service_action
from core.digits import ascii_digits

LOCKED_STATUSES = {TournamentStatus.RESULTS_SUBMITTED, TournamentStatus.HOMOLOGATED}
"""Read-only in the admin: results sent (under review) or homologated."""


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class RevisionInline(ReadOnlyInline):
    model = ResultRevision
    fields = ["number", "source", "submitted_by", "submitted_at", "reason"]
    # Every field read-only. The stubs type ``fields`` as nested groups, which
    # ``readonly_fields`` does not accept, though these lists are flat.
    readonly_fields = fields  # type: ignore[assignment]
    show_change_link = True


@admin.register(Tournament)
class TournamentAdmin(SimpleHistoryAdmin):
    """Declarations stay editable until results are sent; from then on the tournament
    is read-only here (its season, date and format carry its results and points), its
    history cannot be reverted, and homologation and refusal are the services' actions."""

    list_display = ["name", "date", "status", "organizer"]
    list_filter = ["season", "status", "format", "stage", "organizer_kind", "organizer_committee"]
    list_select_related = [
        "season",
        "organizer_zone",
        "organizer_committee",
        "organizer_club",
    ]
    search_fields = [
        "name",
        "venue",
        "reference",
        "organizer_club__name",
        "=organizer_club__number",
    ]
    date_hierarchy = "date"
    readonly_fields = ["status", "homologated_revision", "refusal_reasons", "declared_by"]
    autocomplete_fields = ["arbiter", "organizer_club", "organizer_committee", "organizer_zone"]
    history_list_display = ["status"]
    inlines = [RevisionInline]
    actions = ["homologate", "refuse"]

    @admin.display(description=_("organiser"))
    def organizer(self, obj: Tournament):
        return obj.organizer_club or obj.organizer_committee or obj.organizer_zone or "FFT"

    def has_change_permission(self, request, obj=None) -> bool:
        if obj is not None and obj.status in LOCKED_STATUSES:
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        if obj is not None and obj.status != TournamentStatus.DECLARED:
            return False
        return super().has_delete_permission(request, obj)

    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)  # it would not ask each tournament
        return actions

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        if request.method == "POST":  # a revert would bypass the services
            raise DjangoPermissionDenied
        return super().history_form_view(request, object_id, version_id, extra_context)

    homologate = service_action(
        _("Homologate the latest revision"),
        lambda t, by: tournament_homologate(tournament=t, by=by),
        _("Tournaments homologated"),
    )

    @admin.action(description=_("Refuse homologation (with reasons)"))
    def refuse(self, request, queryset):
        if "reasons" in request.POST:  # sent by the page below
            reasons = request.POST["reasons"].splitlines()
            run_service(
                self,
                request,
                queryset,
                lambda t, by: tournament_refuse(tournament=t, reasons=reasons, by=by),
                _("Tournaments refused"),
            )
            return None
        return TemplateResponse(
            request,
            "admin/competitions/tournament/refuse.html",
            {
                **self.admin_site.each_context(request),
                "title": _("Refuse homologation"),
                "opts": self.model._meta,
                "tournaments": queryset,
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            },
        )


class SessionInline(ReadOnlyInline):
    model = ResultSession
    fields = ["number", "tables", "tables_of_three", "tables_of_five", "deals"]
    readonly_fields = fields  # type: ignore[assignment]  # flat, see above


class EntryInline(ReadOnlyInline):
    model = ResultEntry
    fields = ["number", "place", "total", "abandoned"]
    readonly_fields = fields  # type: ignore[assignment]  # flat, see above


class PenaltyInline(ReadOnlyInline):
    model = ResultPenalty
    fields = ["licence_number", "points", "kind", "reason"]
    readonly_fields = fields  # type: ignore[assignment]  # flat, see above


@admin.register(ResultRevision)
class ResultRevisionAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "submitted_by", "submitted_at"]
    list_filter = ["tournament__season", "source"]
    list_select_related = ["tournament", "submitted_by"]
    search_fields = ["tournament__name", "reason"]
    readonly_fields = [f.name for f in ResultRevision._meta.fields]
    inlines = [SessionInline, EntryInline, PenaltyInline]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(ResultPlayer)
class ResultPlayerAdmin(admin.ModelAdmin):
    list_display = ["licence_number", "name", "entry", "licensed", "total"]
    list_filter = ["licensed", "revision__tournament__season"]
    list_select_related = ["entry"]
    search_fields = ["=licence_number", "name", "revision__tournament__name"]
    readonly_fields = [f.name for f in ResultPlayer._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


# ---------------------------------------------------------------------------------------------
# Championships: read and audit here; every write that the rules check goes through the
# services (API), so the rows the rules produced are read-only in the admin.


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows written by the championship services only: shown, never edited here."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class ReadOnlyHistoryAdmin(SimpleHistoryAdmin, ReadOnlyAdmin):
    pass


@admin.register(ChampionshipRulesVersion)
class ChampionshipRulesVersionAdmin(ReadOnlyAdmin):
    list_display = ["season", "kind", "version", "note", "created_by", "created_at"]
    list_filter = ["season", "kind"]
    list_select_related = ["season", "created_by"]
    search_fields = ["note", "season__name"]
    readonly_fields = [f.name for f in ChampionshipRulesVersion._meta.fields]


class RegionalInline(ReadOnlyInline):
    model = RegionalChampionship
    fields = ["committee", "created_by", "created_at"]
    readonly_fields = fields  # type: ignore[assignment]  # flat, see above
    show_change_link = True


class QuotaInline(ReadOnlyInline):
    model = CommitteeQuota
    fields = ["committee", "places", "set_by", "set_at"]
    readonly_fields = fields  # type: ignore[assignment]  # flat, see above


class StageInline(ReadOnlyInline):
    model = ChampionshipStage
    fk_name = "championship"
    fields = ["kind", "regional", "tournament", "rules_stage", "arbiter_derogation"]
    readonly_fields = fields  # type: ignore[assignment]  # flat, see above
    show_change_link = True


@admin.register(Championship)
class ChampionshipAdmin(ReadOnlyHistoryAdmin):
    list_display = ["__str__", "season", "kind", "outgoing_champion", "created_at"]
    list_filter = ["season", "kind"]
    list_select_related = ["season"]
    search_fields = ["season__name", "kind"]
    readonly_fields = [f.name for f in Championship._meta.fields]
    inlines = [RegionalInline, QuotaInline, StageInline]
    actions = ["record_qualifications", "register_national_final", "recheck_teams"]

    record_qualifications = service_action(
        _("Record the qualifications (CCN)"),
        lambda c, by: qualification_record(championship=c, by=by),
        _("Qualifications recorded"),
    )

    register_national_final = service_action(
        _("Register the national final's field (CCN)"),
        lambda c, by: national_final_register(championship=c, by=by),
        _("National final fields registered"),
    )

    @admin.action(description=_("Re-check the interclubs teams of the season (CCN)"))
    def recheck_teams(self, request, queryset):
        seasons = {c.season for c in queryset.select_related("season")}
        run_service(
            self,
            request,
            seasons,
            lambda season, by: interclubs_teams_recheck(season=season, by=by),
            _("Seasons re-checked"),
        )


class RulesVersionInline(ReadOnlyInline):
    model = RegionalRulesVersion
    fields = ["version", "note", "created_by", "created_at", "approved_by", "approved_at"]
    readonly_fields = fields  # type: ignore[assignment]  # flat, see above
    show_change_link = True


@admin.register(RegionalChampionship)
class RegionalChampionshipAdmin(ReadOnlyHistoryAdmin):
    list_display = ["championship", "committee", "created_at"]
    list_filter = ["championship__season", "championship__kind", "committee__zone"]
    list_select_related = ["championship__season", "committee"]
    search_fields = ["committee__name", "=committee__number"]
    readonly_fields = [f.name for f in RegionalChampionship._meta.fields]
    inlines = [RulesVersionInline]


@admin.register(RegionalRulesVersion)
class RegionalRulesVersionAdmin(ReadOnlyHistoryAdmin):
    list_display = ["regional", "version", "created_by", "created_at", "approved_at"]
    list_filter = ["regional__championship__season", "regional__championship__kind"]
    list_select_related = [
        "regional__championship__season",
        "regional__committee",
        "created_by",
    ]
    search_fields = ["regional__committee__name", "=regional__committee__number", "note"]
    readonly_fields = [f.name for f in RegionalRulesVersion._meta.fields]
    actions = ["approve"]

    approve = service_action(
        _("Approve (zone staff, « aval »)"),
        lambda v, by: regional_rules_approve(version=v, by=by),
        _("Regional rules approved"),
    )


class EntryInlineOfStage(ReadOnlyInline):
    model = ChampionshipEntry
    fields = ["number", "team_name", "committee", "club", "status", "right"]
    readonly_fields = fields  # type: ignore[assignment]  # flat, see above
    show_change_link = True


@admin.register(ChampionshipStage)
class ChampionshipStageAdmin(ReadOnlyHistoryAdmin):
    list_display = ["tournament", "championship", "kind", "regional", "rules_stage"]
    list_filter = ["championship__season", "championship__kind", "kind"]
    list_select_related = [
        "tournament",
        "championship__season",
        "regional__committee",
        "regional__championship__season",
    ]
    search_fields = ["tournament__name", "rules_stage", "=regional__committee__number"]
    readonly_fields = [f.name for f in ChampionshipStage._meta.fields]
    inlines = [EntryInlineOfStage]


class EntryPlayerInline(ReadOnlyInline):
    model = EntryPlayer
    fields = ["order", "player", "active"]
    readonly_fields = fields  # type: ignore[assignment]  # flat, see above


class FlagInline(ReadOnlyInline):
    model = TeamFlag
    fields = ["code", "message", "series", "raised_at", "resolved_at"]
    readonly_fields = fields  # type: ignore[assignment]  # flat, see above


@admin.register(ChampionshipEntry)
class ChampionshipEntryAdmin(ReadOnlyHistoryAdmin):
    list_display = ["__str__", "stage", "number", "team_name", "club", "status", "right"]
    list_filter = [
        "status",
        "right",
        "stage__kind",
        "stage__championship__kind",
        "stage__championship__season",
    ]
    list_select_related = [
        "stage__tournament",
        "stage__championship__season",
        "club",
        "committee",
    ]
    search_fields = [
        "team_name",
        "=players__player__licence_number",
        "players__player__last_name",
        "stage__tournament__name",
    ]
    readonly_fields = [f.name for f in ChampionshipEntry._meta.fields]
    inlines = [EntryPlayerInline, FlagInline]
    actions = ["withdraw"]

    withdraw = service_action(
        _("Withdraw (before the stage is played)"),
        lambda e, by: entry_withdraw(entry=e, by=by),
        _("Entries withdrawn"),
    )


@admin.register(CommitteeQuota)
class CommitteeQuotaAdmin(ReadOnlyHistoryAdmin):
    list_display = ["championship", "committee", "places", "set_by", "set_at"]
    list_filter = ["championship__season", "championship__kind"]
    list_select_related = ["championship__season", "committee", "set_by"]
    search_fields = ["committee__name", "=committee__number"]
    readonly_fields = [f.name for f in CommitteeQuota._meta.fields]


@admin.register(Qualification)
class QualificationAdmin(ReadOnlyHistoryAdmin):
    list_display = ["championship", "target", "key", "right", "status", "committee", "place"]
    list_filter = ["championship__season", "championship__kind", "target", "right", "status"]
    list_select_related = ["championship__season", "committee"]
    search_fields = ["key", "message"]
    readonly_fields = [f.name for f in Qualification._meta.fields]


@admin.register(ChampionshipTitle)
class ChampionshipTitleAdmin(ReadOnlyHistoryAdmin):
    """Titles are derived from the homologated places (competitions.championships.titles)."""

    list_display = ["championship", "title", "player", "committee", "place"]
    list_filter = ["championship__season", "championship__kind", "title"]
    list_select_related = ["championship__season", "player", "committee"]
    search_fields = ["key", "=player__licence_number", "player__last_name"]
    readonly_fields = [f.name for f in ChampionshipTitle._meta.fields]


@admin.register(TeamFlag)
class TeamFlagAdmin(ReadOnlyAdmin):
    list_display = ["entry", "code", "raised_at", "resolved_at"]
    list_filter = ["code", "entry__stage__championship__season"]
    list_select_related = ["entry__stage__tournament", "entry__stage__championship__season"]
    search_fields = ["message", "entry__team_name", "=entry__players__player__licence_number"]
    readonly_fields = [f.name for f in TeamFlag._meta.fields]


@admin.register(StageSeating)
class StageSeatingAdmin(ReadOnlyHistoryAdmin):
    list_display = ["stage", "tables", "champion", "seed", "drawn_by", "drawn_at"]
    list_filter = ["stage__championship__season", "stage__championship__kind"]
    list_select_related = ["stage__tournament", "stage__championship__season", "drawn_by"]
    search_fields = ["stage__tournament__name"]
    readonly_fields = [f.name for f in StageSeating._meta.fields]


@admin.register(StagePenalty)
class StagePenaltyAdmin(ReadOnlyHistoryAdmin):
    list_display = ["stage", "player", "lateness", "points", "forfeit", "substitute"]
    list_filter = ["forfeit", "stage__championship__season", "stage__championship__kind"]
    list_select_related = ["stage__tournament", "stage__championship__season", "player"]
    search_fields = ["=player__licence_number", "player__last_name", "reason"]
    readonly_fields = [f.name for f in StagePenalty._meta.fields]


# ---------------------------------------------------------------------------------------------
# The season's rulebook versions (written through competitions/rulebooks.py) and the
# allocations of homologated tournaments (written by the homologation): read-only.


@admin.register(RulebookVersion)
class RulebookVersionAdmin(ReadOnlyAdmin):
    list_display = ["season", "version", "note", "created_by", "created_at"]
    list_filter = ["season"]
    list_select_related = ["season", "created_by"]
    search_fields = ["note", "season__name"]
    fields = ["season", "version", "note", "created_by", "created_at", "rulebook"]
    # Every field read-only. The stubs type ``fields`` as nested groups, which
    # ``readonly_fields`` does not accept, though this list is flat.
    readonly_fields = fields  # type: ignore[assignment]

    @admin.display(description=_("rulebook"))
    def rulebook(self, obj: RulebookVersion) -> str:
        return pretty_json(obj.data)


class TournamentFilter(admin.SimpleListFilter):
    """The latest tournaments (of the season filtered on, if any); any id works in the URL."""

    title = _("tournament")
    parameter_name = "tournament"

    def lookups(self, request, model_admin):
        tournaments = Tournament.objects.filter(status="homologated").order_by("-date", "-pk")
        season = request.GET.get("season__id__exact")
        if season:
            tournaments = tournaments.filter(season_id=season)
        return [(t.pk, str(t)) for t in tournaments[:30]]

    def queryset(self, request, queryset):
        value = self.value()
        if value and ascii_digits(value):
            return queryset.filter(tournament_id=int(value))
        return queryset


@admin.register(Allocation)
class AllocationAdmin(ReadOnlyAdmin):
    list_display = ["player", "tournament", "pcn", "pp", "current"]
    list_filter = ["season", TournamentFilter, "current"]
    list_select_related = ["player", "tournament", "season"]
    search_fields = ["=player__licence_number", "player__last_name", "tournament__name"]
    show_full_result_count = False


@admin.register(SuspensionProposal)
class SuspensionProposalAdmin(ReadOnlyAdmin):
    """Written by the homologation door, decided on the desk or the API (the services of
    ``competitions.tournaments.suspension_proposals``): read here, never edited."""

    list_display = ["player", "tournament", "entry_number", "status", "decided_by", "decided_at"]
    list_filter = ["status"]
    list_select_related = ["player", "tournament", "decided_by"]
    search_fields = ["=player__licence_number", "player__last_name", "tournament__name"]
    readonly_fields = [f.name for f in SuspensionProposal._meta.fields]
