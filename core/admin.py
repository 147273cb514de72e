"""The outbox in the admin: what is waiting for the broker, and why (read-only)."""

from django.contrib import admin

from core.models import OutboxMessage


@admin.register(OutboxMessage)
class OutboxMessageAdmin(admin.ModelAdmin):
    list_display = ["id", "task", "created_at", "sent_at", "attempts", "last_error"]
    list_filter = [("sent_at", admin.EmptyFieldListFilter), "task"]
    readonly_fields = [field.name for field in OutboxMessage._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
