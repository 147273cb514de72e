"""The API's permission for what only federation staff (the CCN) do."""

from __future__ import annotations

from rest_framework import permissions

from federation.access import scope_of


class FederationStaffOnly(permissions.BasePermission):
    """Federation staff only; a 401 without credentials. A view's own subclass says, in its
    ``message`` (and ``code``), what only they do."""

    def has_permission(self, request, view) -> bool:
        user = request.user
        return bool(user and user.is_authenticated and scope_of(user).national)
