"""Staff tools for the rankings: series policies and manual placements (written through
their services, so validated and permission-checked), ranking snapshots (never changed
nor deleted here), and the recompute runs with their progress (adding one queues it)."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from core.admin_actions import pretty_json
from core.errors import PermissionDenied
from core.messages import error_message, problem_message
from core.problems import RuleViolation
from rankings.desk_reads import run_progress_data
from rankings.manual_placements import manual_placement_remove, manual_placement_set
from rankings.models import (
    ManualPlacement,
    RankingSnapshot,
    RecomputeRun,
    SeasonRanking,
    SeriesPolicyVersion,
)
from rankings.recompute import recompute_request
from rankings.series_policies import series_policy_in_force, series_policy_update


class ReadOnlyAdmin(admin.ModelAdmin):
    """Viewable by staff, never added, changed or deleted through the admin."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class PolicyForm(forms.ModelForm):
    """Publishing goes through the service in ``clean()``: its problems become form errors."""

    # A declared field, not the form's bound ``data``: Django's metaclass moves fields
    # off the class, which the stubs cannot see.
    data = forms.JSONField(label=_("series policy"), help_text=_("docs/rankings-series.md"))  # type: ignore[assignment]
    request_user = None

    class Meta:
        model = SeriesPolicyVersion
        fields = ["season", "data", "note"]

    def clean(self):
        data = super().clean()
        if self.errors or data.get("season") is None:
            return data
        try:
            self.saved = series_policy_update(
                season=data["season"], data=data["data"], by=self.request_user,
                note=data.get("note", ""),
            )  # fmt: skip
        except RuleViolation as exc:
            for problem in exc.problems:
                self.add_error("data", f"{problem.field}: {problem_message(problem)}")
        except PermissionDenied as exc:
            raise forms.ValidationError(error_message(exc)) from exc
        return data


@admin.register(SeriesPolicyVersion)
class SeriesPolicyVersionAdmin(admin.ModelAdmin):
    """Versions are immutable: "add" publishes a new version (validated by the service),
    pre-filled with the version in force."""

    form = PolicyForm
    list_display = ["season", "version", "note", "created_by", "created_at"]
    list_filter = ["season"]
    list_select_related = ["season", "created_by"]
    search_fields = ["note", "season__name"]

    def get_changeform_initial_data(self, request):
        initial = super().get_changeform_initial_data(request)
        from federation.selectors import current_season

        season = current_season()
        if season is not None:
            initial.setdefault("season", season.pk)
            initial.setdefault("data", series_policy_in_force(season=season)[0].data)
        return initial

    def get_readonly_fields(self, request, obj=None):
        return ["season", "version", "note", "created_by", "created_at", "policy"] if obj else []

    def get_fields(self, request, obj=None):
        if obj:
            return ["season", "version", "note", "created_by", "created_at", "policy"]
        return ["season", "data", "note"]

    @admin.display(description=_("series policy"))
    def policy(self, obj: SeriesPolicyVersion) -> str:
        return pretty_json(obj.data)

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change, **kwargs)
        return type("PolicyFormWithUser", (form,), {"request_user": request.user})

    def save_model(self, request, obj, form, change):
        obj.pk, obj.version = form.saved.pk, form.saved.version  # written by the service


class PlacementForm(forms.ModelForm):
    """Written through the service in ``clean()``: its problems become form errors."""

    licence_number = forms.IntegerField(label=_("licence number"), min_value=1)
    request_user = None

    class Meta:
        model = ManualPlacement
        fields = ["season", "licence_number", "step", "reason"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["licence_number"].initial = self.instance.player.licence_number

    def clean(self):
        data = super().clean()
        season = data.get("season")
        if season is None or self.errors:
            return data
        try:
            self.saved = manual_placement_set(
                season=season,
                licence_number=data["licence_number"],
                step=data.get("step", ""),
                reason=data.get("reason", ""),
                by=self.request_user,
            )
        except RuleViolation as exc:
            for problem in exc.problems:
                field = problem.field if problem.field in self.fields else None
                self.add_error(field, problem_message(problem))
        except PermissionDenied as exc:
            raise forms.ValidationError(error_message(exc)) from exc
        return data


@admin.register(ManualPlacement)
class ManualPlacementAdmin(SimpleHistoryAdmin):
    """Placements by the CCN, written through the service (validated, one per player
    and season, the ranking refreshed after)."""

    form = PlacementForm
    list_display = ["player", "season", "step", "reason", "created_by", "updated_at"]
    list_filter = ["season", "step"]
    list_select_related = ["player", "season", "created_by"]
    search_fields = ["=player__licence_number", "player__last_name", "reason"]

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change, **kwargs)
        return type("PlacementFormWithUser", (form,), {"request_user": request.user})

    def save_model(self, request, obj, form, change):
        saved = form.saved  # written by the service in the form's clean()
        obj.pk, obj.player = saved.pk, saved.player

    def delete_model(self, request, obj):
        manual_placement_remove(
            season=obj.season, licence_number=obj.player.licence_number, by=request.user
        )

    def delete_queryset(self, request, queryset):
        for placement in queryset.select_related("season", "player"):
            self.delete_model(request, placement)


@admin.register(RankingSnapshot)
class RankingSnapshotAdmin(ReadOnlyAdmin):
    list_display = ["id", "season", "kind", "published", "computed_at", "player_count"]
    list_filter = ["season", "kind"]
    list_select_related = ["season", "computed_by", "policy"]
    search_fields = ["note", "season__name"]
    fields = ["season", "kind", "policy", "inputs_version", "computed_at", "computed_by",
              "player_count", "ranked_count", "series_counts", "share_cutoffs", "note"]  # fmt: skip
    readonly_fields = fields  # type: ignore[assignment]  # flat: the stubs expect groups

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        self._published = set(
            SeasonRanking.objects.exclude(official=None).values_list("official_id", flat=True)
        )
        return queryset

    @admin.display(description=_("published"), boolean=True)
    def published(self, obj: RankingSnapshot) -> bool:
        return obj.pk in getattr(self, "_published", set())


@admin.register(SeasonRanking)
class SeasonRankingAdmin(ReadOnlyAdmin):
    list_display = ["season", "official", "live", "inputs_version", "live_version"]
    list_select_related = ["season", "official__season", "live__season"]
    search_fields = ["season__name"]


class RunForm(forms.ModelForm):
    class Meta:
        model = RecomputeRun
        fields = ["season", "kind", "note"]


@admin.register(RecomputeRun)
class RecomputeRunAdmin(admin.ModelAdmin):
    """Adding a run queues it (federation staff); the list shows its progress (the phase
    in words, the players once known) and reloads itself while a run is under way."""

    form = RunForm
    list_display = ["id", "season", "kind", "progress", "players_ranked", "requested_by",
                    "requested_at"]  # fmt: skip
    list_filter = ["status", "kind", "season"]
    list_select_related = ["season", "requested_by", "snapshot"]
    search_fields = ["season__name", "note", "error"]
    actions = ["run_again"]

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["season", "kind", "note"]
        return ["season", "kind", "note", "status", "phase", "done", "total", "players",
                "requested_by", "requested_at", "started_at", "finished_at", "snapshot",
                "error"]  # fmt: skip

    def get_readonly_fields(self, request, obj=None):
        return self.get_fields(request, obj) if obj else []

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    class Media:
        js = ["rankings/admin_runs_refresh.js"]

    @admin.display(description=_("progress"))
    def progress(self, obj: RecomputeRun) -> str:
        data = run_progress_data(obj)
        return format_html(
            '<span{}>{}</span><br><progress value="{}" max="{}"></progress> {}/{}<br>{}',
            " data-run-live" if not data["finished"] else "",
            data["phase"], data["done"], data["total"] or 1, data["done"], data["total"],
            obj.error[:80],
        )  # fmt: skip

    @admin.display(description=_("players"))
    def players_ranked(self, obj: RecomputeRun) -> int:
        return run_progress_data(obj)["players"]

    def save_model(self, request, obj, form, change):
        try:
            run = recompute_request(
                season=obj.season, kind=obj.kind, by=request.user, note=obj.note
            )
        except PermissionDenied as exc:
            raise DjangoPermissionDenied(error_message(exc)) from exc
        obj.pk = run.pk

    @admin.action(description=_("Run again (queue a new run of the same kind)"))
    def run_again(self, request, queryset):
        for run in queryset.select_related("season"):
            try:
                recompute_request(season=run.season, kind=run.kind, by=request.user,
                                  note=f"Again (#{run.pk})")  # fmt: skip
            except PermissionDenied as exc:
                self.message_user(request, error_message(exc), messages.ERROR)
                return
        self.message_user(request, _("Queued."), messages.SUCCESS)
