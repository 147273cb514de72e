"""The tournament day (« Jour de tournoi »): entries before the day, check-in, the sessions as
drawn and planned, the deals entered at the tables (or by the arbiter), their corrections, and
the penalties recorded on the day.

What is entered here is the raw material of the results: at the end, the day's score sheets
become a results document that goes through the same check, preview and submission as an
upload (``competitions.homologation.results_submit``), so nothing is typed twice.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from competitions.models.championships import ChampionshipEntry
from competitions.models.tournaments import Tournament
from federation.models import Player


class EntryState(models.TextChoices):
    """Where an entry stands: entered (« inscrit »), on the waiting list, withdrawn."""

    ENTERED = "entered", _("entered")
    WAITING = "waiting", _("waiting list")
    WITHDRAWN = "withdrawn", _("withdrawn")


class TournamentEntry(models.Model):
    """An entry (« inscription ») to a tournament: one player, a DUO or a team of 4.

    Made online by a licensee from their space, by the organiser for anyone (a non-licensee
    by name), or at check-in for a late arrival. A championship stage's entries are its
    :class:`ChampionshipEntry` rows (their eligibility checked there), each mirrored here
    by ``championship_entry`` so that the day runs the same way for every tournament.
    ``number`` is the entry's number in the results document.
    """

    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.PROTECT,
        related_name="day_entries",
    )
    number = models.PositiveIntegerField(_("entry number"))
    championship_entry = models.OneToOneField(
        ChampionshipEntry,
        verbose_name=_("championship entry"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="day_entry",
    )
    team_name = models.CharField(_("team name"), max_length=100, blank=True)
    state = models.CharField(
        _("state"), max_length=12, choices=EntryState.choices, default=EntryState.ENTERED
    )
    fee_paid = models.BooleanField(_("entry fee paid"), default=False)
    present = models.BooleanField(_("present"), default=False)
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    late_arrival = models.BooleanField(_("late arrival"), default=False)
    # An abandon (chapter 3, « abandon »): after which session and position the entry left,
    # and whether the arbiter agreed to it (fasc. 1432: leaving without his accord).
    abandoned_session = models.PositiveSmallIntegerField(
        _("abandoned in session"), null=True, blank=True
    )
    abandoned_position = models.PositiveSmallIntegerField(
        _("abandoned after position"), null=True, blank=True
    )
    abandon_agreed = models.BooleanField(_("abandon agreed by the arbiter"), null=True, blank=True)
    convocation_sent_at = models.DateTimeField(_("convocation sent at"), null=True, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("entered by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # The waiting list's order: who entered first is offered a freed place first.
    entered_at = models.DateTimeField(_("entered at"), default=timezone.now)
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("tournament entry")
        verbose_name_plural = _("tournament entries")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="unique_day_entry_number"
            ),
            models.CheckConstraint(name="day_entry_number_positive", condition=Q(number__gte=1)),
            models.CheckConstraint(
                name="day_entry_present_is_entered",
                condition=Q(present=False) | Q(state=EntryState.ENTERED),
            ),
            models.CheckConstraint(
                name="day_entry_abandon_whole",
                condition=Q(abandoned_session__isnull=True, abandoned_position__isnull=True)
                | Q(abandoned_session__isnull=False, abandoned_position__isnull=False),
            ),
        ]
        indexes = [
            models.Index(fields=["tournament", "state", "entered_at"], name="day_entry_waiting"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – n° {self.number}"


class EntryMember(models.Model):
    """A player of an entry: a licensee (``player``) or a non-licensee by ``name``.

    ``active`` follows the entry (false once it is withdrawn), so that the database refuses
    a licensee in two live entries of the same tournament."""

    entry = models.ForeignKey(
        TournamentEntry, verbose_name=_("entry"), on_delete=models.CASCADE, related_name="members"
    )
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.PROTECT, related_name="+"
    )
    order = models.PositiveSmallIntegerField(_("order"), default=1)
    player = models.ForeignKey(
        Player,
        verbose_name=_("player"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournament_entries",
    )
    name = models.CharField(_("name (non-licensee)"), max_length=200, blank=True)
    active = models.BooleanField(_("active"), default=True)

    class Meta:
        ordering = ["entry", "order"]
        verbose_name = _("entry member")
        verbose_name_plural = _("entry members")
        constraints = [
            models.CheckConstraint(
                name="entry_member_player_or_name",
                condition=Q(player__isnull=False) | ~Q(name=""),
            ),
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=Q(active=True, player__isnull=False),
                name="player_in_one_live_day_entry",
            ),
            models.UniqueConstraint(fields=["entry", "order"], name="unique_entry_member_order"),
        ]

    def __str__(self) -> str:
        return str(self.player) if self.player_id else self.name


class PlayedSession(models.Model):
    """A session (« séance ») of the day as the arbiter drew it: its movement plan for the
    field present, who took which starting number, and how many positions of how many deals.

    ``plan`` is the engine's :class:`~competitions.rules.engine.movements.plan.MovementPlan`
    in its JSON form; ``seating`` maps each starting number (as text) to an entry number.
    """

    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.PROTECT,
        related_name="played_sessions",
    )
    number = models.PositiveSmallIntegerField(_("number"))
    positions = models.PositiveSmallIntegerField(_("positions"))
    deals_per_position = models.PositiveSmallIntegerField(_("deals per position"))
    placement = models.CharField(_("placement"), max_length=24)
    seed = models.BigIntegerField(_("seed of the draw"))
    plan = models.JSONField(_("movement plan"))
    seating = models.JSONField(_("seating (starting number → entry number)"))
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("drawn by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    drawn_at = models.DateTimeField(_("drawn at"), default=timezone.now)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("played session")
        verbose_name_plural = _("played sessions")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="unique_played_session_number"
            ),
            models.CheckConstraint(
                name="played_session_sizes_positive",
                condition=Q(number__gte=1, positions__gte=1, deals_per_position__gte=1),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – séance {self.number}"


class Provenance(models.TextChoices):
    """Who wrote a line of the day: the table through its QR code, or a signed-in person."""

    TABLE = "table", _("at the table")
    ARBITER = "arbiter", _("by the arbiter")


class DealRecord(models.Model):
    """A deal entered for a table at a position (« donne »): the score-sheet line as entered
    (``line``: the score-sheets document's deal object) and each seat's marks as the engine
    computed them. One per (session, position, table, deal): entering it again with the same
    ``client_key`` is acknowledged without a second row; a change is a correction."""

    session = models.ForeignKey(
        PlayedSession, verbose_name=_("session"), on_delete=models.PROTECT, related_name="deals"
    )
    position = models.PositiveSmallIntegerField(_("position"))
    table = models.PositiveSmallIntegerField(_("table"))
    deal = models.PositiveSmallIntegerField(_("deal"))
    line = models.JSONField(_("deal as entered"))
    marks = models.JSONField(_("marks per seat"))
    client_key = models.CharField(_("key of the sending device"), max_length=64, blank=True)
    provenance = models.CharField(_("entered"), max_length=8, choices=Provenance.choices)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("entered by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    entered_at = models.DateTimeField(_("entered at"), default=timezone.now)
    changed_at = models.DateTimeField(_("last changed at"), default=timezone.now)

    class Meta:
        ordering = ["session", "position", "table", "deal"]
        verbose_name = _("deal record")
        verbose_name_plural = _("deal records")
        constraints = [
            models.UniqueConstraint(
                fields=["session", "position", "table", "deal"], name="one_record_per_deal"
            ),
            models.CheckConstraint(
                name="deal_record_numbers_positive",
                condition=Q(position__gte=1, table__gte=1, deal__gte=1),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.session} – position {self.position}, table {self.table}, donne {self.deal}"


class TableTotals(models.Model):
    """A table's totals for a position (« bilans »), where the organiser lets tables enter
    totals instead of every deal: each seat's score, summing to zero."""

    session = models.ForeignKey(
        PlayedSession,
        verbose_name=_("session"),
        on_delete=models.PROTECT,
        related_name="table_totals",
    )
    position = models.PositiveSmallIntegerField(_("position"))
    table = models.PositiveSmallIntegerField(_("table"))
    totals = models.JSONField(_("score per seat"))
    client_key = models.CharField(_("key of the sending device"), max_length=64, blank=True)
    provenance = models.CharField(_("entered"), max_length=8, choices=Provenance.choices)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("entered by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    entered_at = models.DateTimeField(_("entered at"), default=timezone.now)

    class Meta:
        ordering = ["session", "position", "table"]
        verbose_name = _("table totals")
        verbose_name_plural = _("table totals")
        constraints = [
            models.UniqueConstraint(
                fields=["session", "position", "table"], name="one_totals_per_table_position"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.session} – position {self.position}, table {self.table}"


class DayCorrection(models.Model):
    """A change the arbiter made to what a table entered: what it was, what it became (empty
    when removed), who, when and why. Every correction is kept."""

    session = models.ForeignKey(
        PlayedSession,
        verbose_name=_("session"),
        on_delete=models.PROTECT,
        related_name="corrections",
    )
    position = models.PositiveSmallIntegerField(_("position"))
    table = models.PositiveSmallIntegerField(_("table"))
    deal = models.PositiveSmallIntegerField(_("deal (0: the position's totals)"))
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=300)
    corrected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("corrected by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    corrected_at = models.DateTimeField(_("corrected at"), default=timezone.now)

    class Meta:
        ordering = ["session", "corrected_at"]
        verbose_name = _("correction of the day")
        verbose_name_plural = _("corrections of the day")
        constraints = [
            models.CheckConstraint(name="correction_has_reason", condition=~Q(reason="")),
        ]

    def __str__(self) -> str:
        return f"{self.session} – position {self.position}, table {self.table}, donne {self.deal}"


class DayPenalty(models.Model):
    """A penalty the arbiter recorded on the day against a player (chapter 4): its kind, its
    points (the schedule's amount and the season's repeat rule), when and why."""

    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.PROTECT,
        related_name="day_penalties",
    )
    member = models.ForeignKey(
        EntryMember, verbose_name=_("player"), on_delete=models.PROTECT, related_name="penalties"
    )
    kind = models.CharField(_("kind"), max_length=40)
    points = models.PositiveIntegerField(_("points"))
    session = models.PositiveSmallIntegerField(_("session"), null=True, blank=True)
    position = models.PositiveSmallIntegerField(_("position"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("recorded by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    recorded_at = models.DateTimeField(_("recorded at"), default=timezone.now)
    # A penalty the arbiter takes back is kept, with who, when and why; it no longer counts.
    removed_at = models.DateTimeField(_("removed at"), null=True, blank=True)
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("removed by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    removal_reason = models.CharField(_("reason for the removal"), max_length=300, blank=True)

    class Meta:
        ordering = ["tournament", "recorded_at"]
        verbose_name = _("penalty of the day")
        verbose_name_plural = _("penalties of the day")
        constraints = [
            models.CheckConstraint(
                name="day_penalty_removed_with_reason",
                condition=Q(removed_at__isnull=True) | ~Q(removal_reason=""),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.member}: −{self.points} ({self.kind})"
