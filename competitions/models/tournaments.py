"""Tournaments, their submitted results (as immutable revisions) and their homologation.

A tournament is declared by its organiser, receives results as revisions (the
first submission, then corrections by staff), and is homologated or refused by
staff. Each revision keeps the document exactly as submitted plus its
normalised rows (sessions, entries, players, penalties); the revision that was
homologated is the one its allocations (``allocations``) point to.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from competitions.rules.rulebook import EventKind
from core.vocabulary import Format, StageKind
from federation.models import Club, Committee, Player, Season, User, Zone


class TournamentFormat(models.TextChoices):
    """The tournament formats of :class:`core.vocabulary.Format`, with their French labels."""

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


class EventKindChoice(models.TextChoices):
    """The kinds of event an organiser declares (``competitions.rules.rulebook.EventKind``);
    an official championship is the stage's, never declared as a kind."""

    FREE_TOURNAMENT = EventKind.FREE_TOURNAMENT.value, _("free tournament")
    TEAM_MATCH = EventKind.TEAM_MATCH.value, _("team match")
    FESTIVAL = EventKind.FESTIVAL.value, _("tarot festival")


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
    # Chapter 5, *Arbitrage*: the arbiter may not play « lors des championnats officiels, des
    # matches par équipes et des festivals de tarot ». Orthogonal to the format and the stage.
    event_kind = models.CharField(
        _("kind of event"),
        max_length=16,
        choices=EventKindChoice.choices,
        default=EventKindChoice.FREE_TOURNAMENT,
        db_default=EventKindChoice.FREE_TOURNAMENT,  # rows copied in bulk name no kind
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
    # Chapter 2: « Les types de mises en place pour chaque position sont annoncés en début
    # de tournoi par l'arbitre »: one PlacementMethod value per position, checked by
    # seating.check_placement_sequence when declared; empty when not announced.
    placements = models.JSONField(_("placement of each position"), default=list, blank=True)
    big_prize = models.JSONField(
        _("big-prize formula"),
        null=True,
        blank=True,
        help_text=_(
            "« Tournoi à grosse dotation »: the formula and how many best scores play on "
            "(competitions.rules.engine.big_prize)."
        ),
    )
    # What a player needs before the day (the calendar, the entries): all optional (with
    # database defaults: rows copied in bulk name none of them).
    start_time = models.TimeField(_("start time"), null=True, blank=True)
    address = models.CharField(_("address"), max_length=300, blank=True, db_default="")
    contact = models.CharField(_("contact"), max_length=200, blank=True, db_default="")
    entry_fee = models.DecimalField(
        _("entry fee (€)"), max_digits=6, decimal_places=2, null=True, blank=True
    )
    entry_cap = models.PositiveSmallIntegerField(
        _("entry cap"), null=True, blank=True, help_text=_("Beyond it, a waiting list.")
    )
    online_entries = models.BooleanField(_("online entries open"), default=False, db_default=False)
    # How the organiser runs the day (« Jour de tournoi »).
    tables_of_five = models.BooleanField(
        _("tables of 5 with a mort"),
        default=False,
        db_default=False,
        help_text=_("Where the field is not a multiple of 4: tables of 5 rather than of 3."),
    )
    position_totals = models.BooleanField(
        _("tables may enter position totals"),
        default=False,
        db_default=False,
        help_text=_("Otherwise every deal is entered."),
    )
    live_page = models.BooleanField(_("public live page"), default=False, db_default=False)
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
    homologated_at = models.DateTimeField(
        _("first homologated at"),
        null=True,
        blank=True,
        help_text=_(
            "When the tournament was first homologated: the date that counts in the ranking "
            "as of a date (a correction keeps it)."
        ),
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
    _history_user: User | None  # who acted: set by the services, read by simple_history
    _change_reason: str  # why, for the history row (simple_history reads it)

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
        indexes = [
            models.Index(fields=["season", "status"], name="tournament_season_status"),
            models.Index(fields=["season", "homologated_at"], name="tournament_homologated_at"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.date:%d/%m/%Y})"


class DeclaredSession(models.Model):
    """A session as its organiser declared it: its day and its place. Optional: a
    tournament without any is one day (its date) at one place (its venue); with them,
    session 1 is on the tournament's date, and the homologation conditions are judged on
    what they say (``docs/tournaments.md``)."""

    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="declared_sessions",
    )
    number = models.PositiveSmallIntegerField(_("number"))
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=200)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("declared session")
        verbose_name_plural = _("declared sessions")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="unique_declared_session_number"
            ),
            models.CheckConstraint(
                name="declared_session_number_positive", condition=Q(number__gte=1)
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – {self.number}"


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
    # Tables of 5 with a player sitting out each deal (le mort), playing the 4-player game.
    tables_of_five = models.PositiveSmallIntegerField(_("tables of 5 players"), default=0)
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
            models.CheckConstraint(
                name="tables_of_three_and_five_within_tables",
                condition=Q(tables_of_five__lte=models.F("tables") - models.F("tables_of_three")),
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
    # For an entry that abandoned: with the arbiter's accord or not; null when not said.
    arbiter_accord = models.BooleanField(_("with the arbiter's accord"), null=True, blank=True)
    tiebreak = models.JSONField(_("tie-break data"), default=dict, blank=True)

    class Meta:
        ordering = ["revision", "place", "number"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["revision", "number"], name="unique_entry_number"),
            models.CheckConstraint(name="place_positive", condition=Q(place__gte=1)),
            models.CheckConstraint(
                name="arbiter_accord_only_on_abandon",
                condition=Q(arbiter_accord__isnull=True) | Q(abandoned=True),
            ),
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

    @property
    def shown_name(self) -> str:
        """The name staff and the organiser read: the one submitted, else (results typed
        by licence number alone) the registry's « NAME First name »; load ``player``
        with the line."""
        if self.name:
            return self.name
        if self.player_id is not None and self.player is not None:
            return f"{self.player.last_name.upper()} {self.player.first_name}"
        return ""


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


class LicenceNameConfirmation(models.Model):
    """A licence number submitted under a name the registry spells differently, which
    the submitter confirmed to be the right person: who, when, and both names."""

    revision = models.ForeignKey(
        ResultRevision,
        verbose_name=_("revision"),
        on_delete=models.CASCADE,
        related_name="name_confirmations",
    )
    licence_number = models.PositiveIntegerField(_("licence number"))
    name_in_file = models.CharField(_("name in the results"), max_length=200)
    registry_name = models.CharField(_("name in the registry"), max_length=201)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("confirmed by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    confirmed_at = models.DateTimeField(_("confirmed at"), auto_now_add=True)

    class Meta:
        ordering = ["revision", "licence_number"]
        verbose_name = _("licence name confirmation")
        verbose_name_plural = _("licence name confirmations")
        constraints = [
            models.UniqueConstraint(
                fields=["revision", "licence_number"], name="licence_confirmed_once_per_revision"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.licence_number}: {self.name_in_file} = {self.registry_name}"
