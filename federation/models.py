"""The federation's registry: seasons, zones, committees, clubs, players,
licences, arbiters, and the roles users hold.

Integrity lives in the database: every identifier the federation issues is
unique, every per-season fact is unique per season, ranges are checked, and
history is never deleted by cascade (``PROTECT``) except for rows that only
make sense with their parent.
"""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords


class User(AbstractUser):
    """A person who signs in; may be linked to the player they are."""

    player = models.OneToOneField(
        "federation.Player",
        verbose_name=_("player"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="user",
    )

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")


class Season(models.Model):
    """A federation season (saison), 1 July – 30 June by default.

    The boundaries are data: every rule that says "of the current season"
    reads them from here.
    """

    name = models.CharField(_("name"), max_length=9, unique=True, help_text="2025-2026")
    start_date = models.DateField(_("start date"), unique=True)
    end_date = models.DateField(_("end date"), unique=True)

    class Meta:
        ordering = ["-start_date"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.CheckConstraint(
                condition=Q(end_date__gt=models.F("start_date")), name="season_ends_after_start"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def contains(self, day: dt.date) -> bool:
        return self.start_date <= day <= self.end_date

    @property
    def december_31(self) -> dt.date:
        """The 31 December inside the season (seniors count their age then)."""
        return dt.date(self.start_date.year, 12, 31)


class Zone(models.Model):
    """A group of regional committees."""

    number = models.PositiveSmallIntegerField(_("number"), unique=True)
    name = models.CharField(_("name"), max_length=100, unique=True)

    class Meta:
        ordering = ["number"]
        verbose_name = _("zone")
        verbose_name_plural = _("zones")

    def __str__(self) -> str:
        return f"Zone {self.number} – {self.name}"


class Committee(models.Model):
    """A regional committee (comité régional), whose commission is the CCR."""

    number = models.PositiveSmallIntegerField(_("number"), unique=True)
    name = models.CharField(_("name"), max_length=100, unique=True)
    zone = models.ForeignKey(
        Zone, verbose_name=_("zone"), on_delete=models.PROTECT, related_name="committees"
    )

    class Meta:
        ordering = ["number"]
        verbose_name = _("committee")
        verbose_name_plural = _("committees")

    def __str__(self) -> str:
        return f"{self.number:02d} – {self.name}"


class Club(models.Model):
    """A club, identified by its FFT club number."""

    number = models.PositiveIntegerField(_("FFT club number"), unique=True)
    name = models.CharField(_("name"), max_length=150)
    city = models.CharField(_("city"), max_length=100, blank=True)
    committee = models.ForeignKey(
        Committee, verbose_name=_("committee"), on_delete=models.PROTECT, related_name="clubs"
    )
    address = models.TextField(
        _("address"), blank=True, help_text=_("Where the club plays, shown on its public page.")
    )
    playing_times = models.TextField(
        _("playing times"),
        blank=True,
        help_text=_("When the club plays (e.g. “Tuesdays from 8 pm”), shown on its public page."),
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["number"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        constraints = [
            models.CheckConstraint(condition=Q(number__gt=0), name="club_number_positive")
        ]

    def __str__(self) -> str:
        return f"{self.number} – {self.name}"


class ClubAffiliation(models.Model):
    """A club's affiliation to the federation for one season."""

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="affiliations"
    )
    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.PROTECT, related_name="affiliations"
    )

    class Meta:
        verbose_name = _("club affiliation")
        verbose_name_plural = _("club affiliations")
        constraints = [
            models.UniqueConstraint(fields=["club", "season"], name="one_affiliation_per_season")
        ]

    def __str__(self) -> str:
        return f"{self.club} ({self.season})"


class FoldedName(models.Func):
    """A player's name folded for search, computed by the database: on PostgreSQL
    ``fft_fold(last_name || ' ' || first_name)``, the SQL twin of :func:`core.folding.fold`
    (created by ``federation/migrations/0005_player_search_name.py``); elsewhere only
    lower case (the embedded SQLite searches the snapshot's own folded names instead)."""

    arg_joiner = " || ' ' || "
    template = "LOWER(%(expressions)s)"
    output_field = models.CharField()

    def as_postgresql(self, compiler, connection, **extra_context):
        return self.as_sql(compiler, connection, template="fft_fold(%(expressions)s)",
                           **extra_context)  # fmt: skip


class Player(models.Model):
    """A person known to the federation, by their permanent licence number.

    Public: name, licence number (and, through the licence, club and
    committee). Private: birth date, e-mail, phone.
    """

    licence_number = models.PositiveIntegerField(_("licence number"), unique=True)
    last_name = models.CharField(_("last name"), max_length=100)
    first_name = models.CharField(_("first name"), max_length=100)
    birth_date = models.DateField(_("birth date"), null=True, blank=True)
    email = models.EmailField(_("e-mail"), blank=True)
    phone = models.CharField(_("phone"), max_length=30, blank=True)
    # Stable across snapshots: the public search reads it (rankings/season/search.py), with a
    # trigram index and a prefix index on PostgreSQL (created by the migration).
    search_name = models.GeneratedField(
        expression=FoldedName("last_name", "first_name"),
        output_field=models.CharField(max_length=210),
        db_persist=True,
        verbose_name=_("name for search"),
    )
    # The player's objection under the GDPR to appearing by name on the public pages,
    # API and exports (federation/privacy.py, docs/privacy.md): when the current choice
    # was recorded and by whom (the history keeps every earlier one).
    name_hidden = models.BooleanField(_("name hidden from the public"), default=False)
    name_hidden_changed_at = models.DateTimeField(
        _("privacy choice recorded at"), null=True, blank=True, db_index=True
    )
    name_hidden_changed_by = models.ForeignKey(
        "federation.User",
        verbose_name=_("privacy choice recorded by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # A duplicate record merged into another (portal/merging.py): its history moved
    # there, and its old links (licence number) lead there. Never a chain: merging the
    # kept record later moves every pointer to the new one.
    merged_into = models.ForeignKey(
        "self",
        verbose_name=_("merged into"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="merged_records",
    )
    history = HistoricalRecords(excluded_fields=["email", "phone", "search_name"])

    class Meta:
        ordering = ["last_name", "first_name", "licence_number"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.CheckConstraint(
                condition=Q(licence_number__gt=0), name="licence_number_positive"
            ),
            models.CheckConstraint(
                condition=Q(birth_date__isnull=True) | Q(birth_date__gt=dt.date(1900, 1, 1)),
                name="birth_date_plausible",
            ),
            models.CheckConstraint(
                condition=~Q(merged_into=models.F("pk")), name="player_not_merged_into_itself"
            ),
        ]
        indexes = [
            models.Index(Lower("last_name"), Lower("first_name"), name="player_name_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.last_name.upper()} {self.first_name} ({self.licence_number})"


class Licence(models.Model):
    """A player's licence for one season, taken in a club (committee through the club)."""

    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="licences"
    )
    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.PROTECT, related_name="licences"
    )
    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.PROTECT, related_name="licences"
    )
    issued_on = models.DateField(_("issued on"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("licence")
        verbose_name_plural = _("licences")
        constraints = [
            models.UniqueConstraint(fields=["player", "season"], name="one_licence_per_season"),
        ]
        indexes = [models.Index(fields=["season", "club"], name="licence_season_club_idx")]

    def __str__(self) -> str:
        return f"{self.player} – {self.season}"


class RegistryWrite(models.Model):
    """A transaction that wrote licences or clubs, whatever wrote them (forms, the admin,
    the licence import's ``COPY``, merges, raw SQL): one row per statement, written by
    PostgreSQL triggers on both tables (``federation/migrations/0009_registry_writes.py``;
    none on SQLite). The national ranking looks for registry drift (a standing whose
    licence or club moved) only when a transaction its last look could not see (not
    visible to the snapshot it recorded) has written here
    (``rankings/season/standings.py::registry_drift``). Append-only: a few rows per licence
    import or registry edit, a few thousand a year."""

    xact = models.PositiveBigIntegerField(_("transaction"), db_index=True)

    class Meta:
        verbose_name = _("registry write")
        verbose_name_plural = _("registry writes")

    def __str__(self) -> str:
        return f"{self.xact}"


class ArbiterGrade(models.TextChoices):
    """Grades of FFT arbiters (arbitre de club, régional, national)."""

    CLUB = "club", _("club arbiter")
    REGIONAL = "regional", _("regional arbiter")
    NATIONAL = "national", _("national arbiter")


class ArbiterAccreditation(models.Model):
    """A player's grade as an official FFT arbiter for one season."""

    player = models.ForeignKey(
        Player,
        verbose_name=_("player"),
        on_delete=models.PROTECT,
        related_name="arbiter_accreditations",
    )
    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.PROTECT, related_name="arbiters"
    )
    grade = models.CharField(_("grade"), max_length=10, choices=ArbiterGrade.choices)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("arbiter accreditation")
        verbose_name_plural = _("arbiter accreditations")
        constraints = [
            models.UniqueConstraint(fields=["player", "season"], name="one_grade_per_season"),
            models.CheckConstraint(
                condition=Q(grade__in=ArbiterGrade.values), name="arbiter_grade_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} – {self.get_grade_display()} ({self.season})"


class Role(models.TextChoices):
    """What a user may do, and over which scope."""

    FEDERATION_STAFF = "federation_staff", _("federation staff (CCN)")
    ZONE_STAFF = "zone_staff", _("zone staff")
    COMMITTEE_STAFF = "committee_staff", _("committee staff (CCR)")
    CLUB_MANAGER = "club_manager", _("club manager")


class RoleAssignment(models.Model):
    """A role given to a user; the scope column that must be set depends on the role."""

    user = models.ForeignKey(
        User, verbose_name=_("user"), on_delete=models.CASCADE, related_name="roles"
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)
    zone = models.ForeignKey(
        Zone, verbose_name=_("zone"), null=True, blank=True, on_delete=models.CASCADE
    )
    committee = models.ForeignKey(
        Committee, verbose_name=_("committee"), null=True, blank=True, on_delete=models.CASCADE
    )
    club = models.ForeignKey(
        Club, verbose_name=_("club"), null=True, blank=True, on_delete=models.CASCADE
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("role assignment")
        verbose_name_plural = _("role assignments")
        constraints = [
            models.CheckConstraint(
                name="role_scope_matches_role",
                condition=(
                    Q(role=Role.FEDERATION_STAFF, zone=None, committee=None, club=None)
                    | Q(role=Role.ZONE_STAFF, zone__isnull=False, committee=None, club=None)
                    | Q(role=Role.COMMITTEE_STAFF, zone=None, committee__isnull=False, club=None)
                    | Q(role=Role.CLUB_MANAGER, zone=None, committee=None, club__isnull=False)
                ),
            ),
            models.UniqueConstraint(
                fields=["user"],
                condition=Q(role=Role.FEDERATION_STAFF),
                name="unique_federation_staff_role",
            ),
            models.UniqueConstraint(fields=["user", "zone"], name="unique_zone_role"),
            models.UniqueConstraint(fields=["user", "committee"], name="unique_committee_role"),
            models.UniqueConstraint(fields=["user", "club"], name="unique_club_role"),
        ]

    def __str__(self) -> str:
        scope = self.zone or self.committee or self.club
        return f"{self.user} – {self.get_role_display()}" + (f" ({scope})" if scope else "")


class LicenceImport(models.Model):
    """An accepted licence-registry import: who, when, which file, what changed."""

    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.PROTECT, related_name="imports"
    )
    imported_by = models.ForeignKey(
        User, verbose_name=_("imported by"), null=True, on_delete=models.SET_NULL
    )
    imported_at = models.DateTimeField(_("imported at"), auto_now_add=True)
    file_name = models.CharField(_("file name"), max_length=255, blank=True)
    sha256 = models.CharField(_("SHA-256"), max_length=64)
    rows = models.PositiveIntegerField(_("rows"))
    players_created = models.PositiveIntegerField(_("players created"))
    players_updated = models.PositiveIntegerField(_("players updated"))
    licences_created = models.PositiveIntegerField(_("licences created"))
    licences_updated = models.PositiveIntegerField(_("licences updated"))

    class Meta:
        ordering = ["-imported_at"]
        verbose_name = _("licence import")
        verbose_name_plural = _("licence imports")

    def __str__(self) -> str:
        return f"{self.season} – {self.file_name} ({self.imported_at:%Y-%m-%d %H:%M})"


class SanctionKind(models.TextChoices):
    """The sanctions of the arbitration code (fascicule 2, chapter 4) recorded against a
    player (docs/sanctions.md); a points penalty is scored in the results, not here."""

    WARNING = "warning", _("warning")
    EXCLUSION = "exclusion", _("exclusion from the tournament")
    SUSPENSION = "suspension", _("suspension")
    OTHER = "other", _("other sanction")


class Sanction(models.Model):
    """A sanction decided against a player: its kind, its dates and its reason.

    ``ends`` is the last day of a suspension (inclusive); a warning or an exclusion is
    a fact of one day (``starts``) and has none.
    """

    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="sanctions"
    )
    kind = models.CharField(_("kind"), max_length=10, choices=SanctionKind.choices)
    starts = models.DateField(_("starts"))
    ends = models.DateField(_("ends"), null=True, blank=True)
    reason = models.TextField(_("reason"))
    decided_by = models.ForeignKey(
        User,
        verbose_name=_("decided by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-starts", "-pk"]
        verbose_name = _("sanction")
        verbose_name_plural = _("sanctions")
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=SanctionKind.values), name="sanction_kind_known"
            ),
            models.CheckConstraint(
                condition=Q(ends__isnull=True) | Q(ends__gt=models.F("starts")),
                name="sanction_ends_after_start",
            ),
            models.CheckConstraint(
                condition=~Q(kind=SanctionKind.SUSPENSION) | Q(ends__isnull=False),
                name="suspension_has_end",
            ),
            models.CheckConstraint(condition=~Q(reason=""), name="sanction_has_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.player} – {self.get_kind_display()} ({self.starts})"


class NotificationKind(models.TextChoices):
    """The e-mails a player may choose to receive (federation/notification_choices.py)."""

    TOURNAMENT_HOMOLOGATED = "tournament_homologated", _("a tournament of mine is homologated")
    STEP_CHANGED = "step_changed", _("my step changes at the official ranking")
    ENTRY_PLACE_FREED = (
        "entry_place_freed",
        _("a place frees up for me on a tournament's waiting list"),
    )
    ENTRY_CONVOCATION = "entry_convocation", _("the convocation to a tournament I entered")


class NotificationSubscription(models.Model):
    """A user's choice for one kind of e-mail: one row per (user, kind), ``enabled``
    the opt-in. No row: not subscribed (nobody is subscribed by default)."""

    user = models.ForeignKey(
        User,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="notification_subscriptions",
    )
    kind = models.CharField(_("kind"), max_length=32, choices=NotificationKind.choices)
    enabled = models.BooleanField(_("subscribed"), default=False)
    changed_at = models.DateTimeField(_("changed at"), auto_now=True)

    class Meta:
        verbose_name = _("notification subscription")
        verbose_name_plural = _("notification subscriptions")
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="one_subscription_per_kind"),
            models.CheckConstraint(
                condition=Q(kind__in=NotificationKind.values), name="subscription_kind_known"
            ),
        ]
        # the recipients' query: subscribed users of one kind
        indexes = [
            models.Index(
                fields=["kind", "user"], condition=Q(enabled=True), name="subscribed_by_kind"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind}: {'on' if self.enabled else 'off'}"


class NotificationSent(models.Model):
    """One e-mail sent to one user about one object (``subject_key``: the tournament's
    revision, the official ranking's snapshot): a retried task sends it no second time."""

    user = models.ForeignKey(
        User, verbose_name=_("user"), on_delete=models.CASCADE, related_name="+"
    )
    kind = models.CharField(_("kind"), max_length=32, choices=NotificationKind.choices)
    subject_key = models.CharField(_("about"), max_length=64)
    sent_at = models.DateTimeField(_("sent at"))

    class Meta:
        verbose_name = _("notification sent")
        verbose_name_plural = _("notifications sent")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind", "subject_key"], name="one_notification_per_subject"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.subject_key}"


class PlayerMerge(models.Model):
    """The audit of one merge of duplicate records (portal/merging.py): who, when,
    which record was kept, which was merged, and what moved (row ids per kind)."""

    kept = models.ForeignKey(
        Player, verbose_name=_("kept record"), on_delete=models.PROTECT, related_name="+"
    )
    merged = models.OneToOneField(
        Player, verbose_name=_("merged record"), on_delete=models.PROTECT, related_name="merge"
    )
    kept_licence_number = models.PositiveIntegerField(_("kept licence number"))
    merged_licence_number = models.PositiveIntegerField(_("merged licence number"))
    merged_by = models.ForeignKey(
        User, verbose_name=_("merged by"), null=True, on_delete=models.SET_NULL, related_name="+"
    )
    merged_at = models.DateTimeField(_("merged at"), auto_now_add=True)
    criteria = models.CharField(_("criteria"), max_length=100, blank=True)
    moved = models.JSONField(_("rows moved"), default=dict)  # kind -> [ids]
    counts = models.JSONField(_("rows moved per kind"), default=dict)  # kind -> count

    class Meta:
        ordering = ["-merged_at", "-pk"]
        verbose_name = _("player merge")
        verbose_name_plural = _("player merges")
        constraints = [
            models.CheckConstraint(
                condition=~Q(kept=models.F("merged")), name="merge_of_two_records"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.merged_licence_number} → {self.kept_licence_number}"
