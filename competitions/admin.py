"""Staff tools for tournaments: declarations with their full history (who,
when, before/after), result revisions with their rows, all read-only once
submitted: corrections go through the correction service, never an edit."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from competitions.models import (
    ResultEntry,
    ResultPenalty,
    ResultPlayer,
    ResultRevision,
    ResultSession,
    Tournament,
)


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
    readonly_fields = fields
    show_change_link = True


@admin.register(Tournament)
class TournamentAdmin(SimpleHistoryAdmin):
    list_display = ["name", "date", "season", "format", "stage", "status", "organizer", "arbiter"]
    list_filter = ["season", "status", "format", "stage", "organizer_kind", "organizer_committee"]
    list_select_related = [
        "season",
        "organizer_zone",
        "organizer_committee",
        "organizer_club",
        "arbiter",
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

    @admin.display(description=_("organiser"))
    def organizer(self, obj: Tournament):
        return obj.organizer_club or obj.organizer_committee or obj.organizer_zone or "FFT"


class SessionInline(ReadOnlyInline):
    model = ResultSession
    fields = ["number", "tables", "tables_of_three", "deals"]
    readonly_fields = fields


class EntryInline(ReadOnlyInline):
    model = ResultEntry
    fields = ["number", "place", "total", "abandoned"]
    readonly_fields = fields


class PenaltyInline(ReadOnlyInline):
    model = ResultPenalty
    fields = ["licence_number", "points", "kind", "reason"]
    readonly_fields = fields


@admin.register(ResultRevision)
class ResultRevisionAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "source", "submitted_by", "submitted_at", "reason"]
    list_filter = ["tournament__season", "source"]
    list_select_related = ["tournament", "submitted_by"]
    search_fields = ["tournament__name", "reason"]
    readonly_fields = [f.name for f in ResultRevision._meta.fields]
    inlines = [SessionInline, EntryInline, PenaltyInline]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
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
