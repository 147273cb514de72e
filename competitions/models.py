"""Tournaments, their submitted results (as immutable revisions) and their homologation.

A tournament is declared by its organiser, receives results as revisions (the
first submission, then corrections by staff), and is homologated or refused by
staff. Each revision keeps the document exactly as submitted plus its
normalised rows (sessions, entries, players, penalties); the revision that was
homologated is the one the allocations in ``rankings`` point to.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from federation.models import Club, Committee, Player, Season, Zone
from rankings.rules.rulebook import Format, StageKind


class TournamentFormat(models.TextChoices):
    INDIVIDUAL = Format.INDIVIDUAL.value, _("individual")
    DUO = Format.DUO.value, _("DUO (teams of 2)")
    TEAM4 = Format.TEAM4.value, _("teams of 4")


class Stage(models.TextChoices):
    ORDINARY = StageKind.ORDINARY.value, _("ordinary tournament")
    REGIONAL_STAGE = StageKind.REGIONAL_STAGE.value, _("regional championship stage")
    REGIONAL_SEMI_FINAL = StageKind.REGIONAL_SEMI_FINAL.value, _("regional semi-final")
    REGIONAL_FINAL = StageKind.REGIONAL_FINAL.value, _("regional final")
    NATIONAL_QUALIFIER = StageKind.NATIONAL_QUALIFIER.value, _("national qualifier")
    NATIONAL_FINAL = StageKind.NATIONAL_FINAL.value, _("national final")


class OrganizerKind(models.TextChoices):
    FEDERATION = "federation", _("FFT")
    ZONE = "zone", _("zone")
    COMMITTEE = "committee", _("committee")
    CLUB = "club", _("club")


class TournamentStatus(models.TextChoices):
    DECLARED = "declared", _("declared")
    RESULTS_SUBMITTED = "results_submitted", _("results submitted")
    HOMOLOGATED = "homologated", _("homologated")
    REFUSED = "refused", _("refused")


class Tournament(models.Model):
    """A tournament declared by its organiser (FFT, a zone, a committee or a club)."""

    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.PROTECT, related_name="tournaments"
    )
    name = models.CharField(_("name"), max_length=200)
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=200)
    format = models.CharField(_("format"), max_length=12, choices=TournamentFormat.choices)
    stage = models.CharField(
        _("stage"), max_length=24, choices=Stage.choices, default=Stage.ORDINARY
    )
    organizer_kind = models.CharField(
        _("organiser kind"), max_length=12, choices=OrganizerKind.choices
    )
    organizer_zone = models.ForeignKey(
        Zone, verbose_name=_("organising zone"), null=True, blank=True, on_delete=models.PROTECT
    )
    organizer_committee = models.ForeignKey(
        Committee,
        verbose_name=_("organising committee"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
    )
    organizer_club = models.ForeignKey(
        Club, verbose_name=_("organising club"), null=True, blank=True, on_delete=models.PROTECT
    )
    arbiter = models.ForeignKey(
        Player,
        verbose_name=_("arbiter"),
        on_delete=models.PROTECT,
        related_name="arbitrated_tournaments",
    )
    arbiter_plays = models.BooleanField(_("arbiter plays"), default=False)
    planned_sessions = models.PositiveSmallIntegerField(_("planned sessions"), default=1)
    reference = models.CharField(
        _("organiser's reference"),
        max_length=64,
        blank=True,
        help_text=_("The organiser's own identifier; declaring twice with it is idempotent."),
    )
    status = models.CharField(
        _("status"),
        max_length=20,
        choices=TournamentStatus.choices,
        default=TournamentStatus.DECLARED,
    )
    refusal_reasons = models.JSONField(_("refusal reasons"), default=list, blank=True)
    homologated_revision = models.OneToOneField(
        "competitions.ResultRevision",
        verbose_name=_("homologated revision"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    declared_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("declared by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    declared_at = models.DateTimeField(_("declared at"), auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                name="tournament_organizer_matches_kind",
                condition=(
                    Q(
                        organizer_kind=OrganizerKind.FEDERATION,
                        organizer_zone=None,
                        organizer_committee=None,
                        organizer_club=None,
                    )
                    | Q(
                        organizer_kind=OrganizerKind.ZONE,
                        organizer_zone__isnull=False,
                        organizer_committee=None,
                        organizer_club=None,
                    )
                    | Q(
                        organizer_kind=OrganizerKind.COMMITTEE,
                        organizer_zone=None,
                        organizer_committee__isnull=False,
                        organizer_club=None,
                    )
                    | Q(
                        organizer_kind=OrganizerKind.CLUB,
                        organizer_zone=None,
                        organizer_committee=None,
                        organizer_club__isnull=False,
                    )
                ),
            ),
            models.CheckConstraint(
                name="tournament_has_sessions", condition=Q(planned_sessions__gte=1)
            ),
            models.CheckConstraint(
                name="homologated_has_revision",
                condition=~Q(status=TournamentStatus.HOMOLOGATED)
                | Q(homologated_revision__isnull=False),
            ),
            *(
                models.UniqueConstraint(
                    fields=["season", *([column] if column else []), "reference"],
                    condition=Q(organizer_kind=kind) & ~Q(reference=""),
                    name=f"unique_reference_per_{kind}",
                )
                for kind, column in [
                    (OrganizerKind.FEDERATION, None),
                    (OrganizerKind.ZONE, "organizer_zone"),
                    (OrganizerKind.COMMITTEE, "organizer_committee"),
                    (OrganizerKind.CLUB, "organizer_club"),
                ]
            ),
        ]
        indexes = [models.Index(fields=["season", "status"], name="tournament_season_status")]

    def __str__(self) -> str:
        return f"{self.name} ({self.date:%d/%m/%Y})"


class ResultRevision(models.Model):
    """One submitted set of results, kept forever. Number 1 is the club's
    submission; later numbers are resubmissions before homologation or staff
    corrections after it (with their reason)."""

    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="revisions",
    )
    number = models.PositiveIntegerField(_("number"))
    document = models.JSONField(_("document as submitted (normalised)"))
    sha256 = models.CharField(_("SHA-256 of the document"), max_length=64)
    source = models.CharField(_("source"), max_length=10)  # json, csv, sheets
    reason = models.TextField(_("reason for the correction"), blank=True)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("submitted by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    submitted_at = models.DateTimeField(_("submitted at"), auto_now_add=True)
    warnings = models.JSONField(_("warnings"), default=list, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("result revision")
        verbose_name_plural = _("result revisions")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_revision_number"),
            models.CheckConstraint(name="revision_number_positive", condition=Q(number__gte=1)),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – r{self.number}"


class ResultSession(models.Model):
    """A session (séance) of a revision: its tables and deals."""

    revision = models.ForeignKey(
        ResultRevision,
        verbose_name=_("revision"),
        on_delete=models.CASCADE,
        related_name="sessions",
    )
    number = models.PositiveSmallIntegerField(_("number"))
    tables = models.PositiveSmallIntegerField(_("tables"))
    tables_of_three = models.PositiveSmallIntegerField(_("tables of 3 players"), default=0)
    deals = models.PositiveSmallIntegerField(_("deals played"))

    class Meta:
        ordering = ["revision", "number"]
        verbose_name = _("session")
        verbose_name_plural = _("sessions")
        constraints = [
            models.UniqueConstraint(fields=["revision", "number"], name="unique_session_number"),
            models.CheckConstraint(
                name="tables_of_three_within_tables",
                condition=Q(tables_of_three__lte=models.F("tables")),
            ),
        ]

    def __str__(self) -> str:
        return f"session {self.number}: {self.tables} tables, {self.deals} deals"


class ResultEntry(models.Model):
    """An entry of the final ranking: a player (individual) or a team."""

    revision = models.ForeignKey(
        ResultRevision,
        verbose_name=_("revision"),
        on_delete=models.CASCADE,
        related_name="entries",
    )
    number = models.PositiveIntegerField(_("entry number"))
    place = models.PositiveIntegerField(_("place"))
    total = models.IntegerField(_("total"))
    abandoned = models.BooleanField(_("abandoned"), default=False)
    tiebreak = models.JSONField(_("tie-break data"), default=dict, blank=True)

    class Meta:
        ordering = ["revision", "place", "number"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["revision", "number"], name="unique_entry_number"),
            models.CheckConstraint(name="place_positive", condition=Q(place__gte=1)),
        ]

    def __str__(self) -> str:
        return f"entry {self.number}: place {self.place}, total {self.total}"


class ResultPlayer(models.Model):
    """A player of an entry, by the licence number submitted; ``player`` is
    set when the number is known to the registry (non-licensees get no points)."""

    revision = models.ForeignKey(
        ResultRevision, verbose_name=_("revision"), on_delete=models.CASCADE, related_name="+"
    )
    entry = models.ForeignKey(
        ResultEntry, verbose_name=_("entry"), on_delete=models.CASCADE, related_name="players"
    )
    licence_number = models.PositiveIntegerField(_("licence number"), null=True, blank=True)
    name = models.CharField(_("name as submitted"), max_length=200, blank=True)
    player = models.ForeignKey(
        Player, verbose_name=_("player"), null=True, on_delete=models.PROTECT, related_name="+"
    )
    licensed = models.BooleanField(_("licensed for the season"), default=False)
    total = models.IntegerField(_("total"), null=True, blank=True)
    position_scores = models.JSONField(_("scores per position"), default=list, blank=True)

    class Meta:
        verbose_name = _("entry player")
        verbose_name_plural = _("entry players")
        constraints = [
            models.UniqueConstraint(
                fields=["revision", "licence_number"], name="player_once_per_revision"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.licence_number or '—'} {self.name}".strip()


class ResultPenalty(models.Model):
    """A penalty in points recorded by the arbiter against a player."""

    revision = models.ForeignKey(
        ResultRevision,
        verbose_name=_("revision"),
        on_delete=models.CASCADE,
        related_name="penalties",
    )
    licence_number = models.PositiveIntegerField(_("licence number"))
    points = models.PositiveIntegerField(_("points"))
    kind = models.CharField(_("kind"), max_length=40)
    reason = models.CharField(_("reason"), max_length=300, blank=True)

    class Meta:
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")

    def __str__(self) -> str:
        return f"{self.licence_number}: −{self.points} ({self.kind})"


# ---------------------------------------------------------------------------------------------
# Championships (fascicule 2, chapter 3): the Django layer over ``competitions.championships``.
# A championship is one of the four kinds for one season; each committee runs its regional
# championship under the rules it publishes; stages are tournaments; entries are checked for
# eligibility when they are made; qualifications are recorded with their right.
# ---------------------------------------------------------------------------------------------


class ChampionshipKindChoice(models.TextChoices):
    INDIVIDUAL = "individual", _("individual")
    DUO = "duo", _("DUO")
    INTERCLUBS = "interclubs", _("interclubs (teams of 4)")
    SENIORS = "seniors", _("seniors")


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


class ChampionshipRulesVersion(models.Model):
    """One immutable version of a championship's settings for a season
    (``competitions.championships.championship_rules.ChampionshipRules`` as JSON).

    The latest version of (season, kind) is in force; the first read creates version 1
    from the current regulations. Federation staff (CCN) add versions.
    """

    season = models.ForeignKey(
        Season, verbose_name=_("season"), on_delete=models.PROTECT, related_name="+"
    )
    kind = models.CharField(_("championship"), max_length=12, choices=ChampionshipKindChoice)
    version = models.PositiveIntegerField(_("version"))
    data = models.JSONField(_("settings"))
    note = models.CharField(_("note"), max_length=300, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

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


class RegionalRulesVersion(models.Model):
    """One published version of a committee's regional rules
    (``competitions.championships.regional_rules.RegionalRules`` as JSON).

    Stored only once they pass ``check_regional_rules``; never edited (a new publication
    is a new version). The zone's approval (« aval du responsable de zone ») is recorded.
    """

    regional = models.ForeignKey(
        RegionalChampionship,
        verbose_name=_("regional championship"),
        on_delete=models.PROTECT,
        related_name="rules_versions",
    )
    version = models.PositiveIntegerField(_("version"))
    data = models.JSONField(_("published rules"))
    note = models.CharField(_("note"), max_length=300, blank=True)
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("published by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    published_at = models.DateTimeField(_("published at"), auto_now_add=True)
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
