"""Each player's season totals (from the allocations of ``competitions.models``), the
national ranking's inputs (series policies, manual placements) and its results."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from core.versioned_settings import SettingsVersion
from federation.models import Club, Committee, Player, Season, User


class PlayerSeasonTotal(models.Model):
    """A player's PCN and PP totals for one season, rebuilt from current allocations.

    Derived rows written in bulk, like :class:`SeasonStanding`: their foreign keys are
    not checked by the database (``db_constraint=False``), and the season has no index of
    its own (the ``(season, player)`` and ``(season, pcn)`` ones serve): checking 240,000
    keys at commit and keeping that index cost 0.9 s of a 5.9 s full recompute from empty
    standings at 150,000 players (benchmarks/ranking_floor.py). ``PROTECT`` still guards
    deletions in Django.
    """

    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.PROTECT, related_name="+",
        db_index=False, db_constraint=False,
    )  # fmt: skip
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="season_totals",
        db_constraint=False,
    )  # fmt: skip
    pcn = models.PositiveIntegerField(_("PCN"), default=0)
    pp = models.PositiveIntegerField(_("PP"), default=0)
    tournaments = models.PositiveIntegerField(_("tournaments"), default=0)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("season total")
        verbose_name_plural = _("season totals")
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="one_total_per_season"),
        ]
        indexes = [models.Index(fields=["season", "-pcn"], name="season_total_pcn")]

    def __str__(self) -> str:
        return f"{self.player} – {self.season}: {self.pcn} PCN"


# --- National ranking (Classement National) ---------------------------------------------
#
# See docs/rankings-national.md. The pure rules are in rankings/rules/series.py and
# rankings/rules/national_ranking.py; these tables only store their inputs and results.


class SeriesPolicyVersion(SettingsVersion):
    """One immutable version of a season's series policy (rankings.rules.series.SeriesPolicy).

    Same pattern as ``competitions.models.RulebookVersion``: editing adds a version, the
    latest is in force, and every ranking snapshot records the version it was computed with.
    """

    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.PROTECT, related_name="series_policies"
    )
    data = models.JSONField(_("series policy"))

    class Meta:
        ordering = ["season", "-version"]
        verbose_name = _("series policy version")
        verbose_name_plural = _("series policy versions")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "version"], name="unique_series_policy_version"
            ),
            models.CheckConstraint(
                name="series_policy_version_positive", condition=Q(version__gte=1)
            ),
        ]

    def __str__(self) -> str:
        return f"{self.season} v{self.version}"


class ManualPlacement(models.Model):
    """A step given by hand by the CCN to one player in one season's ranking, with a reason.

    It overrides the step computed by points (and the demotion limit) in that
    season's rankings, provisional and official; it never changes places or points.
    """

    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.PROTECT, related_name="+"
    )
    player = models.ForeignKey(
        Player,
        verbose_name=_("player"),
        on_delete=models.PROTECT,
        related_name="manual_placements",
    )
    step = models.CharField(_("step"), max_length=12)
    reason = models.TextField(_("reason"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    history = HistoricalRecords()
    _history_user: User | None  # who acted: set by the services, read by simple_history

    class Meta:
        ordering = ["season", "player"]
        verbose_name = _("manual placement")
        verbose_name_plural = _("manual placements")
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="one_placement_per_season"),
            models.CheckConstraint(name="placement_has_reason", condition=~Q(reason="")),
        ]

    def __str__(self) -> str:
        return f"{self.player} – {self.season}: {self.step}"


class SeasonStanding(models.Model):
    """One licensee's input to the season's national ranking (a ``PlayerStanding``).

    Rebuilt for every licensee by the full recompute and for the affected
    players by the incremental update, with the same SQL; places and series are
    computed from these rows by the pure core and stored in snapshots.

    Derived rows, written in bulk from rows that are themselves constrained
    (licences, clubs, allocations, official entries): their foreign keys are not
    checked by the database (``db_constraint=False``: checking them cost more
    than the whole aggregation); ``PROTECT`` still guards deletions in Django.
    """

    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.PROTECT, related_name="+",
        db_index=False, db_constraint=False,
    )  # fmt: skip
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="standings",
        db_index=False, db_constraint=False,
    )  # fmt: skip
    committee = models.ForeignKey(
        Committee, verbose_name=_("committee"), on_delete=models.PROTECT, related_name="+",
        db_index=False, db_constraint=False,
    )  # fmt: skip
    club = models.ForeignKey(
        Club, verbose_name=_("club"), null=True, blank=True, on_delete=models.PROTECT,
        related_name="+", db_index=False, db_constraint=False,
    )  # fmt: skip
    season_pcn = models.PositiveIntegerField(_("season PCN"), default=0)
    season_pp = models.PositiveIntegerField(_("season PP"), default=0)
    tournaments = models.PositiveIntegerField(_("tournaments"), default=0)
    previous_season = models.ForeignKey(
        Season, verbose_name=_("season of the last official ranking"), null=True, blank=True,
        on_delete=models.PROTECT, related_name="+", db_index=False, db_constraint=False,
    )  # fmt: skip
    previous_pcn = models.PositiveIntegerField(_("previous total PCN"), default=0)
    previous_pp = models.PositiveIntegerField(_("previous total PP"), default=0)
    previous_step = models.CharField(_("previous step"), max_length=12, blank=True)
    previous_series = models.PositiveSmallIntegerField(_("previous series"), null=True, blank=True)
    missed_seasons = models.PositiveSmallIntegerField(_("missed seasons"), default=0)

    class Meta:
        verbose_name = _("season standing")
        verbose_name_plural = _("season standings")
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="one_standing_per_season"),
            models.CheckConstraint(
                name="standing_previous_step_with_season",
                condition=Q(previous_step="") | Q(previous_season__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} – {self.season}: {self.season_pcn} PCN"


class RankingKind(models.TextChoices):
    PROVISIONAL = "provisional", _("provisional (live)")
    OFFICIAL = "official", _("official")
    AS_OF = "as_of", _("as of a date")


class StepSource(models.TextChoices):
    POINTS = "points", _("by points")
    DEMOTION_LIMIT = "demotion_limit", _("demotion limit")
    MANUAL = "manual", _("placed by the CCN")


class RankingSnapshot(models.Model):
    """A computed national ranking of one season, frozen.

    Provisional snapshots are the live ranking: a new one replaces the previous
    as results are homologated. Official snapshots are computed at the end of
    the season (or on demand by staff), never changed nor deleted, and the one
    published (``SeasonRanking.official``) gives every player their step for
    the next season.
    """

    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.PROTECT, related_name="+"
    )
    kind = models.CharField(_("kind"), max_length=12, choices=RankingKind.choices)
    policy = models.ForeignKey(
        SeriesPolicyVersion, verbose_name=_("series policy"), on_delete=models.PROTECT,
        related_name="+",
    )  # fmt: skip
    inputs_version = models.PositiveBigIntegerField(_("inputs version"), default=0)
    computed_at = models.DateTimeField(_("computed at"), auto_now_add=True)
    computed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("computed by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )  # fmt: skip
    player_count = models.PositiveIntegerField(_("players"), default=0)
    ranked_count = models.PositiveIntegerField(_("ranked players (PCN > 0)"), default=0)
    series_counts = models.JSONField(_("players per series"), default=dict, blank=True)
    share_cutoffs = models.JSONField(_("share cut-offs"), default=list, blank=True)
    note = models.CharField(_("note"), max_length=300, blank=True)
    # kind official, published before the season's end: why (the explicit override,
    # rankings/season/official_ranking.py), beside who (computed_by) and when (computed_at).
    before_season_end_reason = models.CharField(
        _("reason for publishing before the season's end"), max_length=300, blank=True
    )
    # kind as_of: the ranking as it stood at the end of this day (Europe/Paris), computed
    # from ``inputs_version`` (rankings/season/as_of.py); a read cache, deleted when superseded.
    as_of = models.DateField(_("as of"), null=True, blank=True)
    # kind as_of: the fingerprint of what that day's ranking is computed from (the key,
    # rankings/season/as_of.py::as_of_key): a new homologation after the day leaves it unchanged.
    as_of_key = models.CharField(_("inputs of the day"), max_length=120, blank=True)

    class Meta:
        ordering = ["-computed_at", "-id"]
        verbose_name = _("ranking snapshot")
        verbose_name_plural = _("ranking snapshots")
        indexes = [models.Index(fields=["season", "kind"], name="snapshot_season_kind")]
        constraints = [
            models.CheckConstraint(
                name="snapshot_kind_known", condition=Q(kind__in=RankingKind.values)
            ),
            models.CheckConstraint(
                name="snapshot_as_of_with_kind",
                condition=Q(kind=RankingKind.AS_OF, as_of__isnull=False)
                | (~Q(kind=RankingKind.AS_OF) & Q(as_of__isnull=True)),
            ),
            models.UniqueConstraint(
                fields=["season", "as_of", "as_of_key"],
                condition=Q(kind=RankingKind.AS_OF),
                name="one_as_of_snapshot_per_key",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.season} – {self.get_kind_display()} #{self.pk}"


class RankingEntry(models.Model):
    """One player's line of a ranking snapshot (a ``RankingEntry`` of the pure core).

    Written 150,000 at a time with COPY from standings: like ``SeasonStanding``,
    the database does not check its foreign keys (``PROTECT`` still applies in
    Django; official snapshots are never deleted).
    """

    snapshot = models.ForeignKey(
        RankingSnapshot, verbose_name=_("snapshot"), on_delete=models.CASCADE,
        related_name="entries", db_index=False, db_constraint=False,
    )  # fmt: skip
    rank_order = models.PositiveIntegerField(_("order"))
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT,
        related_name="ranking_entries", db_index=False, db_constraint=False,
    )  # fmt: skip
    licence_number = models.PositiveIntegerField(_("licence number"))
    committee = models.ForeignKey(
        Committee, verbose_name=_("committee"), on_delete=models.PROTECT, related_name="+",
        db_index=False, db_constraint=False,
    )  # fmt: skip
    club = models.ForeignKey(
        Club, verbose_name=_("club"), null=True, blank=True, on_delete=models.PROTECT,
        related_name="+", db_index=False, db_constraint=False,
    )  # fmt: skip
    season_pcn = models.PositiveIntegerField(_("season PCN"))
    season_pp = models.PositiveIntegerField(_("season PP"))
    tournaments = models.PositiveIntegerField(_("tournaments"))
    previous_step = models.CharField(_("previous step"), max_length=12, blank=True)
    carried_pcn = models.PositiveIntegerField(_("carried PCN"))
    carried_pp = models.PositiveIntegerField(_("carried PP"))
    total_pcn = models.PositiveIntegerField(_("total PCN"))
    total_pp = models.PositiveIntegerField(_("total PP"))
    place = models.PositiveIntegerField(_("place"))
    place_in_committee = models.PositiveIntegerField(_("place in committee"))
    place_in_club = models.PositiveIntegerField(_("place in club"), null=True, blank=True)
    season_step = models.CharField(_("step held during the season"), max_length=12)
    points_step = models.CharField(_("step by points"), max_length=12)
    step = models.CharField(_("step"), max_length=12)
    series = models.PositiveSmallIntegerField(_("series"))
    step_source = models.CharField(_("step source"), max_length=16, choices=StepSource.choices)
    manual_reason = models.TextField(_("reason of the manual placement"), blank=True)
    search_name = models.CharField(_("name for search"), max_length=210)

    class Meta:
        ordering = ["snapshot_id", "rank_order"]
        verbose_name = _("ranking entry")
        verbose_name_plural = _("ranking entries")
        constraints = [
            models.UniqueConstraint(fields=["snapshot", "rank_order"], name="entry_order_unique"),
            models.UniqueConstraint(fields=["snapshot", "player"], name="entry_player_unique"),
            models.CheckConstraint(
                name="entry_series_range", condition=Q(series__gte=1, series__lte=4)
            ),
            models.CheckConstraint(name="entry_place_positive", condition=Q(place__gte=1)),
        ]
        indexes = [
            models.Index(fields=["snapshot", "committee", "rank_order"], name="entry_committee"),
            models.Index(fields=["snapshot", "club", "rank_order"], name="entry_club"),
            models.Index(fields=["snapshot", "series", "rank_order"], name="entry_series"),
        ]

    def __str__(self) -> str:
        return f"{self.place}. {self.licence_number} – {self.step}"


class SeasonRanking(models.Model):
    """Per season: the published pointers and the version of the ranking's inputs.

    ``official`` is flipped in the same transaction that writes a new official
    snapshot, so readers see the old one or the new one, never half of one.
    ``inputs_version`` grows whenever standings, the policy or the manual
    placements change; ``live_version`` is the inputs version the live
    (provisional) snapshot was computed from.
    """

    season = models.OneToOneField(
        Season, verbose_name=_("season"), on_delete=models.PROTECT, related_name="ranking"
    )
    live = models.ForeignKey(
        RankingSnapshot, verbose_name=_("live ranking"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )  # fmt: skip
    official = models.ForeignKey(
        RankingSnapshot, verbose_name=_("published official ranking"), null=True, blank=True,
        on_delete=models.PROTECT, related_name="+",
    )  # fmt: skip
    inputs_version = models.PositiveBigIntegerField(_("inputs version"), default=0)
    live_version = models.PositiveBigIntegerField(_("live ranking version"), default=0)
    # The PostgreSQL snapshot (``pg_snapshot`` as text) the last look for registry drift
    # read: the standings reflect every registry write visible to it, and a registry write
    # it could not see means look again (rankings/season/standings.py::registry_drift). Empty:
    # never looked.
    registry_snapshot = models.TextField(
        _("registry looked at in snapshot"), blank=True, default=""
    )

    class Meta:
        verbose_name = _("season ranking")
        verbose_name_plural = _("season rankings")

    def __str__(self) -> str:
        return f"{self.season}"


class RecomputeKind(models.TextChoices):
    FULL = "full", _("full recompute")
    OFFICIAL = "official", _("official ranking")


class RunStatus(models.TextChoices):
    QUEUED = "queued", _("queued")
    RUNNING = "running", _("running")
    DONE = "done", _("done")
    FAILED = "failed", _("failed")


class RecomputeRun(models.Model):
    """A requested full recompute or official ranking, with its progress."""

    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.PROTECT, related_name="+"
    )
    kind = models.CharField(_("kind"), max_length=10, choices=RecomputeKind.choices)
    status = models.CharField(
        _("status"), max_length=10, choices=RunStatus.choices, default=RunStatus.QUEUED
    )
    phase = models.CharField(_("phase"), max_length=40, blank=True)
    done = models.PositiveIntegerField(_("steps done"), default=0)
    total = models.PositiveIntegerField(_("steps"), default=0)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("requested by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )  # fmt: skip
    requested_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    players = models.PositiveIntegerField(_("players"), default=0)
    snapshot = models.ForeignKey(
        RankingSnapshot, verbose_name=_("snapshot"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )  # fmt: skip
    note = models.CharField(_("note"), max_length=300, blank=True)
    # An official ranking asked for before the season's end: the reason given for it.
    before_season_end_reason = models.CharField(
        _("reason for publishing before the season's end"), max_length=300, blank=True
    )
    error = models.TextField(_("error"), blank=True)
    # Who runs it (``host:pid`` of the worker that claimed it, compare-and-set) and when its
    # worker last showed it was alive (a thread renews it while the run goes on): a run
    # without a heartbeat for RECOMPUTE_STALE_AFTER_S lost its worker and is queued again,
    # failed once it has lost LOST_WORKERS_MAX (rankings/season/recompute.py).
    claimed_by = models.CharField(_("claimed by"), max_length=200, blank=True)
    heartbeat_at = models.DateTimeField(_("last heartbeat at"), null=True, blank=True)
    lost_workers = models.PositiveSmallIntegerField(_("workers lost"), default=0)
    # The Celery task that created it (system runs): a redelivered or retried task finds
    # its own run again instead of creating another one.
    task_id = models.CharField(_("task id"), max_length=64, blank=True)

    class Meta:
        ordering = ["-requested_at", "-id"]
        verbose_name = _("recompute run")
        verbose_name_plural = _("recompute runs")
        constraints = [
            models.CheckConstraint(
                name="run_done_within_total", condition=Q(done__lte=models.F("total"))
            ),
            # A task finds its own runs again (recompute.run_of_task): one per season and kind.
            models.UniqueConstraint(
                fields=["task_id", "season", "kind"],
                condition=~Q(task_id=""),
                name="one_run_per_task_season_kind",
            ),
        ]
        indexes = [
            # The sweep's query: running runs by last heartbeat (recompute.reclaim_stale_runs).
            models.Index(
                fields=["heartbeat_at"], condition=Q(status="running"), name="run_running"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.season} ({self.get_status_display()})"


class AsOfAsk(models.Model):
    """A day of a season whose ranking as of that day a reader asked for and a worker has
    not computed yet (``rankings/season/as_of.py``: at most ``AS_OF_QUEUED_MAX`` per
    season; the worker deletes it once the day is computed)."""

    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.CASCADE, related_name="+"
    )
    day = models.DateField(_("day"))
    asked_at = models.DateTimeField(_("asked at"), auto_now_add=True)

    class Meta:
        verbose_name = _("ranking as of a day asked")
        verbose_name_plural = _("rankings as of a day asked")
        constraints = [
            models.UniqueConstraint(fields=["season", "day"], name="one_as_of_ask_per_day")
        ]

    def __str__(self) -> str:
        return f"{self.season_id} {self.day.isoformat()}"
