"""Settings the federation edits between seasons, stored as immutable versions: one model
shape and one store for all of them.

A season's rulebook (chapter 5) and series policy, a championship's settings for a season
(chapter 3) and the regional rules a committee publishes (« règlement du championnat
régional ») are all documents that change between seasons and must never change under a
past result. Each is stored the same way: a row per version, never edited; the latest
version of its *scope* (a season; a season and a championship; a regional championship)
is in force, and whatever is computed with it records the version it used, so a past
season is recomputed with its own rules.

What differs from one kind to the next is declared once, in a :class:`SettingsKind`: the
model, the reader (a ``from_dict`` that locates every problem, see
:mod:`core.settings_reader`), the writer, the default that becomes version 1 on the first
read (none for regional rules: a committee publishes them), and who may publish. Services
go through :func:`settings_in_force` and :func:`settings_publish`; the permission to
publish is checked there and nowhere else (not in views, serializers or admin forms).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Generic, TypeVar

from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.utils.translation import gettext_lazy as _

from core.errors import PermissionDenied
from core.problems import Problem, RuleViolation


class SettingsVersion(models.Model):
    """One immutable version of a settings document (``data``, as its ``to_dict`` wrote it).

    Concrete models add their scope (foreign keys), their constraints (unique version per
    scope, ``version >= 1``) and may name ``data`` for what it holds.
    """

    version = models.PositiveIntegerField(_("version"))
    data = models.JSONField(_("settings"))
    note = models.CharField(_("note"), max_length=300, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        abstract = True


V = TypeVar("V", bound=SettingsVersion)
S = TypeVar("S")
Scope = Mapping[str, Any]
"""The fields that name one document, e.g. ``{"season": season, "kind": "duo"}``."""


@dataclass(frozen=True, eq=False)
class SettingsKind(Generic[V, S]):
    """Everything that differs between two kinds of versioned settings.

    Declared once per kind, next to its services (``competitions.rulebooks``,
    ``rankings.season.series_policies``, ``competitions.championships.settings_versions``).
    """

    model: type[V]
    read: Callable[[Any], S]
    """Parse and validate a document; raises :class:`RuleViolation` with every problem."""
    write: Callable[[S], dict[str, Any]]
    may_publish: Callable[[Any, Scope], bool]
    """Whether this user may publish a version for this scope: the one permission check."""
    refusal: str
    """Why :attr:`may_publish` refused, for the person."""
    lock: str
    """The scope field whose row serialises the writers (``select_for_update``)."""
    default: Callable[[Scope], S] | None = None
    """Version 1, created on the first read; ``None``: nothing is in force until published."""
    default_note: str = ""


def settings_in_force(kind: SettingsKind[V, S], *, scope: Scope) -> tuple[V, S] | None:
    """The latest version for ``scope`` and its parsed settings.

    Without any version, the kind's default is stored as version 1 (a concurrent first read
    may store it first: its row is then read), or ``None`` if the kind has no default.
    """
    version = _latest(kind, scope)
    if version is None and kind.default is not None:
        try:
            with transaction.atomic():
                version = kind.model._default_manager.create(
                    **scope,
                    version=1,
                    data=kind.write(kind.default(scope)),
                    note=kind.default_note,
                )
        except IntegrityError:  # created concurrently: read the winner
            version = _latest(kind, scope)
    if version is None:
        return None
    return version, parsed(kind, version)


def parsed(kind: SettingsKind[V, S], version: V) -> S:
    """The settings of a stored version, read once per process (versions never change)."""
    return _parsed(kind, version, version.created_at)


@lru_cache(maxsize=256)
def _parsed(kind: SettingsKind, version: SettingsVersion, created_at: Any) -> Any:
    # Model instances hash by pk and compare by model and pk; ``created_at`` guards a pk
    # reused by a rebuilt test database.
    return kind.read(version.data)


def parsed_version(kind: SettingsKind[V, S], pk: int, created_at: Any) -> S:
    """The settings of version ``pk`` (created at ``created_at``), read and parsed once per
    process: a version is never edited, and a new one has a new key, so a caller that read
    the key of the latest version with its own query is never served a stale document."""
    return _parsed_by_key(kind, pk, created_at)


@lru_cache(maxsize=256)
def _parsed_by_key(kind: SettingsKind, pk: int, created_at: Any) -> Any:
    return parsed(kind, kind.model._default_manager.get(pk=pk))


def may_publish(kind: SettingsKind, *, scope: Scope, by) -> None:
    """Raise :class:`PermissionDenied` unless ``by`` may publish a version for ``scope``."""
    if not kind.may_publish(by, scope):
        raise PermissionDenied(kind.refusal)


@transaction.atomic
def settings_publish(
    kind: SettingsKind[V, S],
    *,
    scope: Scope,
    data: Any,
    by,
    note: str = "",
    prepare: Callable[[Any], Any] | None = None,
    checks: Callable[[S], list[Problem]] | None = None,
) -> V:
    """Store ``data`` as the next version for ``scope``, once ``by`` may and it is valid.

    Once ``by`` may publish, ``prepare`` (if any) completes or refuses what the scope
    decides (the committee, the championship); the document is read whole (every problem
    located) before anything is locked; the scope's row is then locked so that two
    publications never take the same number; ``checks`` adds the problems that depend on
    stored state (read under the lock). Nothing is stored if any problem is found.
    """
    may_publish(kind, scope=scope, by=by)
    settings_ = kind.read(prepare(data) if prepare is not None else data)
    target = scope[kind.lock]
    type(target).objects.select_for_update().get(pk=target.pk)  # one writer per scope
    problems = checks(settings_) if checks is not None else []
    if problems:
        raise RuleViolation(problems)
    last = _latest(kind, scope)
    version = kind.model(
        **scope,
        version=(last.version + 1) if last else 1,
        data=kind.write(settings_),
        note=note,
        created_by=by,
    )
    setattr(version, "_history_user", by)  # noqa: B010 - read by django-simple-history
    version.save()
    return version


def _latest(kind: SettingsKind[V, S], scope: Scope) -> V | None:
    return kind.model._default_manager.filter(**scope).order_by("-version").first()
