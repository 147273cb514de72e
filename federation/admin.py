"""Staff tools for the registry: search by licence number and name, filters by
season / committee / club, and list pages without N+1 queries."""

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _
from knox.admin import AuthTokenAdmin as KnoxAuthTokenAdmin
from knox.models import AuthToken
from simple_history.admin import SimpleHistoryAdmin

from core.admin_actions import service_action
from federation.access import scope_of
from federation.models import (
    ArbiterAccreditation,
    Club,
    ClubAffiliation,
    Committee,
    Licence,
    LicenceImport,
    Player,
    PlayerMerge,
    RoleAssignment,
    Sanction,
    Season,
    User,
    Zone,
)
from federation.privacy import player_privacy_set
from federation.sanctions import sanction_record


class RoleInline(admin.TabularInline):
    model = RoleAssignment
    extra = 0
    autocomplete_fields = ["zone", "committee", "club"]


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    inlines = [RoleInline]
    autocomplete_fields = ["player"]
    list_display = ["username", "email", "player", "is_staff", "is_active"]
    list_select_related = ["player"]
    # Django's UserAdmin always sets fieldsets; the stubs type the attribute as optional.
    fieldsets = (*BaseUserAdmin.fieldsets, (_("federation"), {"fields": ["player"]}))  # type: ignore[misc]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "start_date", "end_date"]


@admin.register(Zone)
class ZoneAdmin(admin.ModelAdmin):
    list_display = ["number", "name"]
    search_fields = ["name", "number"]


@admin.register(Committee)
class CommitteeAdmin(admin.ModelAdmin):
    list_display = ["number", "name", "zone"]
    list_filter = ["zone"]
    list_select_related = ["zone"]
    search_fields = ["name", "number"]


class AffiliationInline(admin.TabularInline):
    model = ClubAffiliation
    extra = 0


@admin.register(Club)
class ClubAdmin(SimpleHistoryAdmin):
    list_display = ["number", "name", "city", "committee"]
    list_filter = ["committee__zone", "committee"]
    list_select_related = ["committee"]
    search_fields = ["number", "name", "city"]
    fields = ["number", "name", "city", "committee", "address", "playing_times"]
    inlines = [AffiliationInline]


class LicenceInline(admin.TabularInline):
    model = Licence
    extra = 0
    autocomplete_fields = ["club"]
    fields = ["season", "club", "issued_on"]


@admin.register(Player)
class PlayerAdmin(SimpleHistoryAdmin):
    """Players. Their privacy choice (docs/privacy.md) is read-only here and recorded by
    the actions, through :func:`federation.privacy.player_privacy_set` (who and when)."""

    list_display = ["licence_number", "last_name", "first_name", "birth_date", "name_hidden"]
    search_fields = ["=licence_number", "last_name", "first_name"]
    list_filter = ["licences__season", "name_hidden"]
    inlines = [LicenceInline]
    ordering = ["last_name", "first_name"]
    # merged_into: set only by the merge, which moves everything first (portal/merging.py)
    readonly_fields = [
        "name_hidden",
        "name_hidden_changed_at",
        "name_hidden_changed_by",
        "merged_into",
    ]
    actions = ["hide_name", "show_name"]

    hide_name = service_action(
        _("Hide the name on the public pages (the player's objection)"),
        lambda player, by: player_privacy_set(player=player, hidden=True, by=by),
        _("Players hidden"),
    )
    show_name = service_action(
        _("Show the name on the public pages again"),
        lambda player, by: player_privacy_set(player=player, hidden=False, by=by),
        _("Players shown"),
    )


@admin.register(Licence)
class LicenceAdmin(SimpleHistoryAdmin):
    list_display = ["licence_number", "player_name", "season", "club", "committee"]
    list_filter = ["season", "club__committee__zone", "club__committee"]
    list_select_related = ["player", "season", "club__committee"]
    search_fields = ["=player__licence_number", "player__last_name", "player__first_name"]
    autocomplete_fields = ["player", "club"]

    @admin.display(description=_("licence number"), ordering="player__licence_number")
    def licence_number(self, obj: Licence) -> int:
        return obj.player.licence_number

    @admin.display(description=_("name"), ordering="player__last_name")
    def player_name(self, obj: Licence) -> str:
        return f"{obj.player.last_name.upper()} {obj.player.first_name}"

    @admin.display(description=_("committee"), ordering="club__committee__number")
    def committee(self, obj: Licence):
        return obj.club.committee


@admin.register(ArbiterAccreditation)
class ArbiterAccreditationAdmin(SimpleHistoryAdmin):
    list_display = ["player", "grade", "season"]
    list_filter = ["season", "grade"]
    list_select_related = ["player", "season"]
    search_fields = ["=player__licence_number", "player__last_name"]
    autocomplete_fields = ["player"]


@admin.register(Sanction)
class SanctionAdmin(SimpleHistoryAdmin):
    """Sanctions: recorded through :func:`federation.sanctions.sanction_record` by
    federation staff; read-only for every other staff member."""

    list_display = ["player", "kind", "starts", "ends", "decided_by", "created_at"]
    list_filter = ["kind"]
    list_select_related = ["player", "decided_by"]
    search_fields = ["=player__licence_number", "player__last_name"]
    autocomplete_fields = ["player"]
    fields = ["player", "kind", "starts", "ends", "reason"]

    def has_add_permission(self, request) -> bool:
        return scope_of(request.user).national

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def save_model(self, request, obj: Sanction, form, change: bool) -> None:
        recorded = sanction_record(
            player=obj.player,
            kind=obj.kind,
            starts=obj.starts,
            ends=obj.ends,
            reason=obj.reason,
            by=request.user,
        )
        obj.pk = recorded.pk


@admin.register(PlayerMerge)
class PlayerMergeAdmin(admin.ModelAdmin):
    """The audit of the merges of duplicate records (/bureau/doublons/): read only."""

    list_display = [
        "merged_at", "merged_licence_number", "kept_licence_number", "criteria", "merged_by",
    ]  # fmt: skip
    search_fields = ["=merged_licence_number", "=kept_licence_number"]
    list_select_related = ["merged_by"]
    readonly_fields = [f.name for f in PlayerMerge._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(LicenceImport)
class LicenceImportAdmin(admin.ModelAdmin):
    list_display = [
        "imported_at",
        "season",
        "file_name",
        "rows",
        "players_created",
        "players_updated",
        "licences_created",
        "licences_updated",
        "imported_by",
    ]
    list_filter = ["season"]
    list_select_related = ["season", "imported_by"]
    readonly_fields = [f.name for f in LicenceImport._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


# API tokens: only their digest is stored (knox). Staff see who holds which token (its
# first 15 characters), since when and until when, and may revoke it; a token added
# here shows its key once, in the confirmation message.
admin.site.unregister(AuthToken)


@admin.register(AuthToken)
class ApiTokenAdmin(KnoxAuthTokenAdmin):
    list_display = ("token_key", "user", "created", "expiry")
    list_select_related = ("user",)
    search_fields = ("token_key", "user__username")
    readonly_fields = ("token_key", "user", "created", "expiry")

    def get_fields(self, request, obj=None):
        return ("user", "expiry") if obj is None else self.readonly_fields

    def get_readonly_fields(self, request, obj=None):
        return () if obj is None else self.readonly_fields
