"""The demo's tournament day (docs/tournament-day.md), through the day's services, so that a
newcomer can try it with the demo users:

- « Tournoi du jeudi », the `club`'s tournament in ten days: entries open online (a cap, a fee,
  a start time, an address, a contact), a score of the club's licensees already entered by the
  club, `joueur` not yet (he enters from the calendar);
- « Tournoi du jour », the club's tournament today, run by its arbiter `arbitre`: 18 players
  entered and present (`joueur` among them), session 1 drawn with two tables of 5 with a mort,
  the first deals of position 1 entered at two tables — the rest is for the visitor to enter
  (the table cards' QR codes, the arbiter's grid), then the standings and the end.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from django.utils import timezone

from competitions.day.entries import EntryRequest, entry_enter, entry_fee_paid_set
from competitions.day.room import Placement, entry_presence_set, session_draw
from competitions.day.scoring import deal_enter
from competitions.models import OrganizerKind, Tournament
from competitions.rules.day.layout import layout_from_json
from competitions.rules.engine.scoring import Deal
from competitions.rules.engine.tables import TableSize
from competitions.tournaments.declaration import Declaration, tournament_declare
from core.problems import RuleViolation
from demo.play import random_deal
from demo.registry import DemoRegistry

UPCOMING_IN_DAYS = 10
UPCOMING_ENTERED = 20
TODAY_PLAYERS = 18  # 4 tables, two of them of 5 with a mort
TODAY_POSITIONS, TODAY_DEALS = 4, 5
TODAY_DEALS_ENTERED = 3  # at tables 1 and 2, position 1


@dataclass
class DemoDay:
    upcoming_entries: int = 0
    today_present: int = 0
    deals_entered: int = 0

    def counts(self) -> dict[str, int]:
        return {
            "day: entries to the coming tournament": self.upcoming_entries,
            "day: players present today": self.today_present,
            "day: deals entered today": self.deals_entered,
        }


def _number(points: object) -> int | float:
    """Points as JSON writes them: whole, or with their half (a table of 3)."""
    value = Fraction(str(points))
    return int(value) if value.denominator == 1 else float(value)


def sheet_line(deal: Deal) -> dict:
    """A deal as a score sheet's line (the score-sheets document's deal object)."""
    if deal.contract is None:
        return {"contract": None}
    line: dict = {
        "contract": deal.contract.value,
        "taker": deal.taker.value if deal.taker else None,
        "oudlers": deal.oudlers,
        "attack_points": _number(deal.attack_points),
    }
    if deal.petit_au_bout is not None:
        line["petit_au_bout"] = deal.petit_au_bout.value
    return line


def build_demo_day(registry: DemoRegistry) -> DemoDay:
    rng = random.Random(f"{registry.seed}-day")
    users = {name: demo.user for name, demo in registry.users.items()}
    club_user, joueur, arbitre = users["club"], users["joueur"], users["arbitre"]
    club = club_user.roles.get().club
    arbiter, player = arbitre.player, joueur.player
    assert club is not None
    assert arbiter is not None
    assert player is not None
    season = registry.current_season
    today = timezone.localdate()
    club_members = {p.pk for p in registry.licensees_by_club(season)[club]}
    # The club's licensees first, then others of its committee (a small demo's club may
    # not fill a tournament alone); never `joueur` (he enters himself) nor the arbiter.
    skip = {joueur.player_id, arbitre.player_id}
    members = sorted(
        (lic.player for lic in registry.licences_of(season) if lic.player_id not in skip
         and lic.club.committee_id == club.committee_id),
        key=lambda p: (p.pk not in club_members, p.licence_number),
    )  # fmt: skip
    made = DemoDay()

    def declare(name: str, date: dt.date, reference: str, **fields) -> Tournament:
        tournament, _ = tournament_declare(
            declaration=Declaration(
                name=f"{name} – {club.name}",
                date=date,
                venue=f"Salle du club, {club.city}",
                format="individual",
                organizer_kind=OrganizerKind.CLUB,
                organizer_number=club.number,
                arbiter_licence_number=arbiter.licence_number,
                reference=reference,
                start_time=dt.time(14, 0),
                address=f"12 rue du Tarot, {club.city}",
                contact=f"{club.name} — 01 23 45 67 89",
                entry_fee=Decimal("10.00"),
                **fields,
            ),
            by=club_user,
        )
        return tournament

    def enter(tournament: Tournament, candidates: list, count: int) -> Iterator:
        """Enter the first ``count`` candidates the service accepts (a suspended player, say,
        is refused: the next one is taken)."""
        entered = 0
        for player in candidates:
            if entered == count:
                return
            try:
                entry = entry_enter(
                    tournament=tournament,
                    request=EntryRequest(licence_numbers=(player.licence_number,)),
                    by=club_user,
                )
            except RuleViolation:
                continue
            entered += 1
            yield entry

    upcoming = declare(
        "Tournoi du jeudi",
        min(today + dt.timedelta(days=UPCOMING_IN_DAYS), season.end_date),
        "DEMO-JOUR-A-VENIR",
        entry_cap=32,
        online_entries=True,
        tables_of_five=True,
    )
    for entry in enter(upcoming, members, UPCOMING_ENTERED):
        if rng.random() < 0.5:
            entry_fee_paid_set(entry=entry, paid=True, by=club_user)
        made.upcoming_entries += 1

    if len(members) + 1 < TODAY_PLAYERS:
        return made  # a demo too small for a day under way (``seed_demo --players`` low)
    under_way = declare(
        "Tournoi du jour",
        today,
        "DEMO-JOUR-EN-COURS",
        entry_cap=40,
        tables_of_five=True,
        live_page=True,
    )
    for entry in enter(under_way, [player, *members], TODAY_PLAYERS):
        entry_presence_set(
            tournament=under_way, entry_number=entry.number, present=True, by=arbitre
        )
        made.today_present += 1
    session = session_draw(
        tournament=under_way,
        positions=TODAY_POSITIONS,
        deals_per_position=TODAY_DEALS,
        placement=Placement.RANDOM,
        seed=rng.randrange(1 << 31),
        by=arbitre,
    )
    layout = layout_from_json(session.plan)
    full_tables = [t for t in layout.tables_at(1) if t.size == 4][:2]
    for table in full_tables:
        for deal in range(1, TODAY_DEALS_ENTERED + 1):
            deal_enter(
                deal=deal,
                line=sheet_line(random_deal(rng, TableSize.FOUR)),
                by=arbitre,
                session=session,
                position=1,
                table=table.table,
            )
            made.deals_entered += 1
    return made
