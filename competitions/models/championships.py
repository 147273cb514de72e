"""Championships (fascicule 2, chapter 3): the Django layer over the pure
``competitions.rules.championships``.
A championship is one of the four kinds for one season; each committee runs its regional
championship under the rules it publishes; stages are tournaments; entries are checked for
eligibility when they are made; qualifications are recorded with their right.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from competitions.models.tournaments import Stage, Tournament
from core.versioned_settings import SettingsVersion
from core.vocabulary import ChampionshipKind
from federation.models import Club, Committee, Player, Season, User


class ChampionshipKindChoice(models.TextChoices):
    """The championships of :class:`core.vocabulary.ChampionshipKind`, with their labels."""

    INDIVIDUAL = ChampionshipKind.INDIVIDUAL.value, _("individual")
    DUO = ChampionshipKind.DUO.value, _("DUO")
    INTERCLUBS = ChampionshipKind.INTERCLUBS.value, _("interclubs (teams of 4)")
    SENIORS = ChampionshipKind.SENIORS.value, _("seniors")


class ChampionshipStageKind(models.TextChoices):
    REGIONAL_STAGE = Stage.REGIONAL_STAGE.value, Stage.REGIONAL_STAGE.label
    REGIONAL_SEMI_FINAL = Stage.REGIONAL_SEMI_FINAL.value, Stage.REGIONAL_SEMI_FINAL.label
    REGIONAL_FINAL = Stage.REGIONAL_FINAL.value, Stage.REGIONAL_FINAL.label
    NATIONAL_QUALIFIER = Stage.NATIONAL_QUALIFIER.value, Stage.NATIONAL_QUALIFIER.label
    NATIONAL_FINAL = Stage.NATIONAL_FINAL.value, Stage.NATIONAL_FINAL.label


REGIONAL_STAGE_KINDS = (
    ChampionshipStageKind.REGIONAL_STAGE,
    ChampionshipStageKind.REGIONAL_SEMI_FINAL,
    ChampionshipStageKind.REGIONAL_FINAL,
)
NATIONAL_STAGE_KINDS = (
    ChampionshipStageKind.NATIONAL_QUALIFIER,
    ChampionshipStageKind.NATIONAL_FINAL,
)


class ChampionshipRulesVersion(SettingsVersion):
    """One immutable version of a championship's settings for a season
    (``competitions.rules.championships.championship_rules.ChampionshipRules`` as JSON).

    The latest version of (season, kind) is in force; the first read creates version 1
    from the current regulations. Federation staff (CCN) add versions
    (:mod:`core.versioned_settings`).
    """

    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.PROTECT, related_name="+"
    )
    kind = models.CharField(_("championship"), max_length=12, choices=ChampionshipKindChoice)

    class Meta:
        ordering = ["season", "kind", "-version"]
        verbose_name = _("championship rules version")
        verbose_name_plural = _("championship rules versions")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "kind", "version"], name="unique_championship_rules_version"
            ),
            models.CheckConstraint(
                name="championship_rules_version_positive", condition=Q(version__gte=1)
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.season} v{self.version}"


class Championship(models.Model):
    """One of the four championships of France in donnes libres, for one season."""

    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.PROTECT, related_name="championships"
    )
    kind = models.CharField(_("championship"), max_length=12, choices=ChampionshipKindChoice)
    outgoing_champion = models.JSONField(
        _("outgoing national champion (licence numbers)"),
        null=True,
        blank=True,
        help_text=_(
            "Set by the CCN. Empty: derived from the previous season's national final; "
            "an empty list: no outgoing champion (article 30 of fascicule 1)."
        ),
    )
    outgoing_champion_note = models.CharField(
        _("note on the outgoing champion"), max_length=300, blank=True
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    history = HistoricalRecords()
    _history_user: User | None  # who acted: set by the services, read by simple_history

    class Meta:
        ordering = ["-season__start_date", "kind"]
        verbose_name = _("championship")
        verbose_name_plural = _("championships")
        constraints = [
            models.UniqueConstraint(fields=["season", "kind"], name="one_championship_per_kind"),
            models.CheckConstraint(
                name="championship_kind_known", condition=Q(kind__in=ChampionshipKindChoice.values)
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.season}"


class RegionalChampionship(models.Model):
    """A committee's regional championship (« championnat régional ») of one championship."""

    championship = models.ForeignKey(
        Championship,
        verbose_name=_("championship"),
        on_delete=models.PROTECT,
        related_name="regionals",
    )
    committee = models.ForeignKey(
        Committee,
        verbose_name=_("committee"),
        on_delete=models.PROTECT,
        related_name="regional_championships",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    history = HistoricalRecords()
    _history_user: User | None  # who acted: set by the services, read by simple_history

    class Meta:
        ordering = ["championship", "committee__number"]
        verbose_name = _("regional championship")
        verbose_name_plural = _("regional championships")
        constraints = [
            models.UniqueConstraint(
                fields=["championship", "committee"], name="one_regional_per_committee"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.championship} – {self.committee}"


class RegionalRulesVersion(SettingsVersion):
    """One published version of a committee's regional rules
    (``competitions.rules.championships.regional_rules.RegionalRules`` as JSON).

    Stored only once they pass ``check_regional_rules``; never edited (a new publication
    is a new version). The zone's approval (« aval du responsable de zone ») is recorded.
    Its author and date are ``created_by`` and ``created_at`` like every settings version
    (:mod:`core.versioned_settings`); they keep their labels « publié par / le » and the API
    still calls them ``published_by`` and ``published_at``.
    """

    regional = models.ForeignKey(
        RegionalChampionship,
        verbose_name=_("regional championship"),
        on_delete=models.PROTECT,
        related_name="rules_versions",
    )
    data = models.JSONField(_("published rules"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("published by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("published at"), auto_now_add=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("approved by (zone)"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    approved_at = models.DateTimeField(_("approved at"), null=True, blank=True)
    history = HistoricalRecords()
    _history_user: User | None  # who acted: set by the services, read by simple_history

    class Meta:
        ordering = ["regional", "-version"]
        verbose_name = _("regional rules version")
        verbose_name_plural = _("regional rules versions")
        constraints = [
            models.UniqueConstraint(
                fields=["regional", "version"], name="unique_regional_rules_version"
            ),
            models.CheckConstraint(
                name="regional_rules_version_positive", condition=Q(version__gte=1)
            ),
        ]

    def __str__(self) -> str:
        return f"{self.regional} v{self.version}"


class ChampionshipStage(models.Model):
    """A stage of a championship: one tournament (with its sessions) under the
    championship's rules. Regional stages belong to a committee's regional championship;
    the national qualifier and final to the championship itself."""

    championship = models.ForeignKey(
        Championship,
        verbose_name=_("championship"),
        on_delete=models.PROTECT,
        related_name="stages",
    )
    regional = models.ForeignKey(
        RegionalChampionship,
        verbose_name=_("regional championship"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="stages",
    )
    kind = models.CharField(_("stage"), max_length=24, choices=ChampionshipStageKind)
    tournament = models.OneToOneField(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.PROTECT,
        related_name="championship_stage",
    )
    rules_version = models.ForeignKey(
        RegionalRulesVersion,
        verbose_name=_("regional rules version"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    rules_stage = models.CharField(_("stage of the published rules"), max_length=200, blank=True)
    arbiter_derogation = models.BooleanField(
        _("arbiter grade derogation (article 24)"), default=False
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    history = HistoricalRecords()
    _history_user: User | None  # who acted: set by the services, read by simple_history

    class Meta:
        ordering = ["championship", "tournament__date", "pk"]
        verbose_name = _("championship stage")
        verbose_name_plural = _("championship stages")
        constraints = [
            models.CheckConstraint(
                name="stage_regional_matches_kind",
                condition=(
                    Q(kind__in=[k.value for k in REGIONAL_STAGE_KINDS], regional__isnull=False)
                    | Q(kind__in=[k.value for k in NATIONAL_STAGE_KINDS], regional__isnull=True)
                ),
            ),
            models.UniqueConstraint(
                fields=["regional"],
                condition=Q(kind=ChampionshipStageKind.REGIONAL_FINAL),
                name="one_regional_final_per_regional",
            ),
            models.UniqueConstraint(
                fields=["championship", "kind"],
                condition=Q(kind__in=[k.value for k in NATIONAL_STAGE_KINDS]),
                name="one_national_stage_of_each_kind",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.championship} – {self.get_kind_display()} – {self.tournament.name}"


class EntryStatus(models.TextChoices):
    ELIGIBLE = "eligible", _("eligible")
    FLAGGED = "flagged", _("flagged: composition no longer valid")
    FORFEIT = "forfeit", _("forfeit (article 26)")
    WITHDRAWN = "withdrawn", _("withdrawn")


class QualificationRightChoice(models.TextChoices):
    COMMITTEE_QUOTA = "committee_quota", _("committee quota (regional final)")
    OUTGOING_NATIONAL_CHAMPION = "outgoing_national_champion", _("outgoing national champion")
    NATIONAL_QUALIFIER = "national_qualifier", _("national qualifier")
    REATTRIBUTED_PLACE = "reattributed_place", _("place reattributed at the national qualifier")
    REGIONAL_CHAMPION = "regional_champion", _("last season's regional champion")


class EntryRight(models.TextChoices):
    ENTERED = "entered", _("entered")
    COMMITTEE_QUOTA = (
        QualificationRightChoice.COMMITTEE_QUOTA.value,
        (QualificationRightChoice.COMMITTEE_QUOTA.label),
    )
    OUTGOING_NATIONAL_CHAMPION = (
        QualificationRightChoice.OUTGOING_NATIONAL_CHAMPION.value,
        (QualificationRightChoice.OUTGOING_NATIONAL_CHAMPION.label),
    )
    NATIONAL_QUALIFIER = (
        QualificationRightChoice.NATIONAL_QUALIFIER.value,
        (QualificationRightChoice.NATIONAL_QUALIFIER.label),
    )
    REATTRIBUTED_PLACE = (
        QualificationRightChoice.REATTRIBUTED_PLACE.value,
        (QualificationRightChoice.REATTRIBUTED_PLACE.label),
    )
    REGIONAL_CHAMPION = (
        QualificationRightChoice.REGIONAL_CHAMPION.value,
        (QualificationRightChoice.REGIONAL_CHAMPION.label),
    )


class QualificationTarget(models.TextChoices):
    NATIONAL_FINAL = ChampionshipStageKind.NATIONAL_FINAL.value, _("national final")
    REGIONAL_FINAL = ChampionshipStageKind.REGIONAL_FINAL.value, _("next regional final")


class QualificationStatus(models.TextChoices):
    QUALIFIED = "qualified", _("qualified")
    LOST = "lost", _("lost (played the national qualifier)")
    WITHDRAWN = "withdrawn", _("no longer qualified")


class Qualification(models.Model):
    """A qualification recorded by the CCN from the championship's results: who, for
    which stage, by which right; an interclubs team keeps its snapshot (article 16)."""

    championship = models.ForeignKey(
        Championship,
        verbose_name=_("championship"),
        on_delete=models.PROTECT,
        related_name="qualifications",
    )
    target = models.CharField(_("qualified for"), max_length=24, choices=QualificationTarget)
    key = models.CharField(
        _("players"), max_length=100, help_text=_("Sorted licence numbers, joined by '-'.")
    )
    licence_numbers = models.JSONField(_("licence numbers"))
    right = models.CharField(_("right"), max_length=32, choices=QualificationRightChoice)
    status = models.CharField(
        _("status"),
        max_length=12,
        choices=QualificationStatus,
        default=QualificationStatus.QUALIFIED,
    )
    committee = models.ForeignKey(
        Committee,
        verbose_name=_("committee"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    place = models.PositiveIntegerField(_("place"), null=True, blank=True)
    source_stage = models.ForeignKey(
        ChampionshipStage,
        verbose_name=_("stage that gave the right"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    team_club = models.ForeignKey(
        Club,
        verbose_name=_("team's club on qualification day"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    team_committee = models.ForeignKey(
        Committee,
        verbose_name=_("team's committee on qualification day"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    team_series = models.JSONField(_("team's series on qualification day"), null=True, blank=True)
    team_taken_on = models.DateField(_("qualification day"), null=True, blank=True)
    message = models.TextField(_("message"), blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("recorded by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    recorded_at = models.DateTimeField(_("recorded at"), auto_now=True)
    history = HistoricalRecords()
    _history_user: User | None  # who acted: set by the services, read by simple_history

    class Meta:
        ordering = ["championship", "target", "right", "committee__number", "place", "key"]
        verbose_name = _("qualification")
        verbose_name_plural = _("qualifications")
        constraints = [
            models.UniqueConstraint(
                fields=["championship", "target", "key"], name="one_qualification_per_entry"
            ),
            models.CheckConstraint(
                name="qualification_team_snapshot_complete",
                condition=Q(team_club__isnull=True, team_series__isnull=True)
                | Q(
                    team_club__isnull=False, team_series__isnull=False, team_taken_on__isnull=False
                ),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.championship}: {self.key} – {self.get_right_display()} ({self.status})"


class ChampionshipEntry(models.Model):
    """A player, duo or team entered in a stage, with the facts its eligibility was
    checked on (``facts``) and, for an interclubs team, its players' series."""

    stage = models.ForeignKey(
        ChampionshipStage, verbose_name=_("stage"), on_delete=models.PROTECT, related_name="entries"
    )
    number = models.PositiveIntegerField(_("entry number"))
    committee = models.ForeignKey(
        Committee,
        verbose_name=_("committee"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    club = models.ForeignKey(
        Club,
        verbose_name=_("club (interclubs)"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    team_name = models.CharField(_("team name"), max_length=100, blank=True)
    status = models.CharField(
        _("status"), max_length=12, choices=EntryStatus, default=EntryStatus.ELIGIBLE
    )
    right = models.CharField(
        _("right of entry"), max_length=32, choices=EntryRight, default=EntryRight.ENTERED
    )
    qualification = models.ForeignKey(
        Qualification,
        verbose_name=_("qualification"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="entries",
    )
    facts = models.JSONField(_("facts checked at entry"), default=list)
    series = models.JSONField(_("series (interclubs)"), default=list, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("entered by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    entered_at = models.DateTimeField(_("entered at"), auto_now_add=True)
    history = HistoricalRecords()
    _history_user: User | None  # who acted: set by the services, read by simple_history
    # The active players in order, when loaded with selectors.active_players() (to_attr).
    active_players: list[EntryPlayer]

    class Meta:
        ordering = ["stage", "number"]
        verbose_name = _("championship entry")
        verbose_name_plural = _("championship entries")
        constraints = [
            models.UniqueConstraint(fields=["stage", "number"], name="unique_stage_entry_number"),
            models.CheckConstraint(name="stage_entry_number_positive", condition=Q(number__gte=1)),
        ]

    def __str__(self) -> str:
        name = f" {self.team_name}" if self.team_name else ""
        return f"{self.stage} – #{self.number}{name} ({self.get_status_display()})"


class EntryPlayer(models.Model):
    """A player of an entry; a player is in one active entry of a stage."""

    entry = models.ForeignKey(
        ChampionshipEntry, verbose_name=_("entry"), on_delete=models.CASCADE, related_name="players"
    )
    stage = models.ForeignKey(
        ChampionshipStage, verbose_name=_("stage"), on_delete=models.PROTECT, related_name="+"
    )
    player = models.ForeignKey(
        Player,
        verbose_name=_("player"),
        on_delete=models.PROTECT,
        related_name="championship_entries",
    )
    order = models.PositiveSmallIntegerField(_("order"))
    active = models.BooleanField(_("active"), default=True)
    history = HistoricalRecords()
    _history_user: User | None  # who acted: set by the services, read by simple_history

    class Meta:
        ordering = ["entry", "order"]
        verbose_name = _("entry player")
        verbose_name_plural = _("entry players")
        constraints = [
            models.UniqueConstraint(
                fields=["stage", "player"],
                condition=Q(active=True),
                name="player_in_one_active_entry_per_stage",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.entry}"


class CommitteeQuota(models.Model):
    """Places of a committee at a national final, set by the CCN (articles 1, 7, 13, 18)."""

    championship = models.ForeignKey(
        Championship,
        verbose_name=_("championship"),
        on_delete=models.PROTECT,
        related_name="quotas",
    )
    committee = models.ForeignKey(
        Committee, verbose_name=_("committee"), on_delete=models.PROTECT, related_name="+"
    )
    places = models.PositiveSmallIntegerField(_("places"))
    set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("set by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    set_at = models.DateTimeField(_("set at"), auto_now=True)
    history = HistoricalRecords()
    _history_user: User | None  # who acted: set by the services, read by simple_history

    class Meta:
        ordering = ["championship", "committee__number"]
        verbose_name = _("committee quota")
        verbose_name_plural = _("committee quotas")
        constraints = [
            models.UniqueConstraint(
                fields=["championship", "committee"], name="one_quota_per_committee"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.championship} – {self.committee}: {self.places}"


class TeamFlag(models.Model):
    """An interclubs team whose composition is no longer valid (a series changed).

    Raised by the re-check after each official ranking; the team stays entered, flagged,
    until staff withdraw it or a later re-check finds it valid again (``resolved_at``)."""

    entry = models.ForeignKey(
        ChampionshipEntry, verbose_name=_("entry"), on_delete=models.CASCADE, related_name="flags"
    )
    code = models.CharField(_("code"), max_length=40)
    message = models.TextField(_("message"))
    series = models.JSONField(_("series found"), default=list)
    raised_at = models.DateTimeField(_("raised at"), auto_now_add=True)
    resolved_at = models.DateTimeField(_("resolved at"), null=True, blank=True)

    class Meta:
        ordering = ["-raised_at"]
        verbose_name = _("team flag")
        verbose_name_plural = _("team flags")
        constraints = [
            models.UniqueConstraint(
                fields=["entry"], condition=Q(resolved_at=None), name="one_open_flag_per_team"
            ),
        ]

    def __str__(self) -> str:
        state = _("resolved") if self.resolved_at else _("open")
        return f"{self.entry}: {self.code} ({state})"


class StageSeating(models.Model):
    """The first-session seating of a stage (article 25), drawn with a recorded seed."""

    stage = models.OneToOneField(
        ChampionshipStage, verbose_name=_("stage"), on_delete=models.PROTECT, related_name="seating"
    )
    seed = models.BigIntegerField(_("seed"))
    tables = models.PositiveSmallIntegerField(_("tables"))
    champion = models.CharField(
        _("outgoing champion seated at table 1"), max_length=100, blank=True
    )
    assignments = models.JSONField(_("assignments"))
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("drawn by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    drawn_at = models.DateTimeField(_("drawn at"), auto_now=True)
    history = HistoricalRecords()
    _history_user: User | None  # who acted: set by the services, read by simple_history

    class Meta:
        verbose_name = _("stage seating")
        verbose_name_plural = _("stage seatings")

    def __str__(self) -> str:
        return f"{self.stage}: {self.tables} tables"


class StagePenalty(models.Model):
    """A late arrival recorded by the arbiter (article 26): points per started 5 minutes,
    or a forfeit after 15 minutes, with the planned substitute if any."""

    stage = models.ForeignKey(
        ChampionshipStage,
        verbose_name=_("stage"),
        on_delete=models.PROTECT,
        related_name="penalties",
    )
    entry = models.ForeignKey(
        ChampionshipEntry, verbose_name=_("entry"), on_delete=models.PROTECT, related_name="+"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="+"
    )
    kind = models.CharField(_("kind"), max_length=40, default="late_arrival")
    lateness = models.DurationField(_("lateness"))
    points = models.PositiveIntegerField(_("points"))
    forfeit = models.BooleanField(_("declared forfeit"), default=False)
    substitute = models.ForeignKey(
        Player,
        verbose_name=_("substitute"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    reason = models.CharField(_("reason"), max_length=300)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("recorded by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    recorded_at = models.DateTimeField(_("recorded at"), auto_now_add=True)
    history = HistoricalRecords()
    _history_user: User | None  # who acted: set by the services, read by simple_history

    class Meta:
        ordering = ["stage", "recorded_at"]
        verbose_name = _("stage penalty")
        verbose_name_plural = _("stage penalties")
        constraints = [
            models.CheckConstraint(
                name="forfeit_costs_no_points", condition=Q(forfeit=False) | Q(points=0)
            ),
            models.CheckConstraint(
                name="substitute_only_with_forfeit",
                condition=Q(forfeit=True) | Q(substitute__isnull=True),
            ),
        ]

    def __str__(self) -> str:
        what = _("forfeit") if self.forfeit else f"−{self.points}"
        return f"{self.player} – {self.stage}: {what}"


class TitleKind(models.TextChoices):
    """The titles of :class:`competitions.rules.championships.titles.Title`."""

    NATIONAL_CHAMPION = "national_champion", _("champion of France")
    NATIONAL_VICE_CHAMPION = "national_vice_champion", _("vice-champion of France")
    REGIONAL_CHAMPION = "regional_champion", _("regional champion")


class ChampionshipTitle(models.Model):
    """A title held by one player (arts 6, 12, 17, 23; regional champions), derived from
    the recorded places of the stage that awards it each time its results are homologated
    or corrected (``competitions.championships.titles``); one row per player."""

    championship = models.ForeignKey(
        Championship,
        verbose_name=_("championship"),
        on_delete=models.PROTECT,
        related_name="titles",
    )
    stage = models.ForeignKey(
        ChampionshipStage,
        verbose_name=_("stage"),
        on_delete=models.PROTECT,
        related_name="titles",
    )
    title = models.CharField(_("title"), max_length=32, choices=TitleKind)
    player = models.ForeignKey(
        Player,
        verbose_name=_("player"),
        on_delete=models.PROTECT,
        related_name="championship_titles",
    )
    key = models.CharField(
        _("entry"), max_length=100, help_text=_("Sorted licence numbers, joined by '-'.")
    )
    committee = models.ForeignKey(
        Committee,
        verbose_name=_("committee"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    place = models.PositiveSmallIntegerField(_("place"))
    recorded_at = models.DateTimeField(_("recorded at"), auto_now_add=True)
    history = HistoricalRecords()
    _history_user: User | None  # who acted: set by the services, read by simple_history

    class Meta:
        ordering = ["-championship__season__start_date", "championship__kind", "title", "key"]
        verbose_name = _("championship title")
        verbose_name_plural = _("championship titles")
        constraints = [
            models.UniqueConstraint(fields=["stage", "player"], name="one_title_per_stage_player"),
            models.CheckConstraint(
                name="championship_title_known", condition=Q(title__in=TitleKind.values)
            ),
            models.CheckConstraint(
                name="regional_title_has_committee",
                condition=Q(title="regional_champion", committee__isnull=False)
                | (~Q(title="regional_champion") & Q(committee__isnull=True)),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} – {self.get_title_display()} ({self.championship})"
