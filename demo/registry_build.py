"""Building the demo registry: a realistic, deterministic federation.

:func:`build_demo_registry` writes two seasons, the zones, the regional committees, a few
hundred clubs with their affiliations, several thousand players with their licences (with
churn from one season to the next), the arbiters of each season and a handful of demo users,
all in one transaction and with bulk inserts (a few seconds for the default size).
Everything is drawn from ``random.Random(seed)``: the same seed and sizes give the same
licence numbers, names, clubs and grades. It returns a :class:`~demo.registry.DemoRegistry`
holding what was created.

Nothing here is real: committee and city names are real French places
(:mod:`demo.geography`), but the clubs, people (:mod:`demo.french_names`), e-mail
addresses (reserved ``.example`` domains) and phone numbers (ARCEP's range reserved for
fiction, 06 39 98 xx xx) are invented.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate

from django.conf import settings
from django.db import transaction

from demo.french_names import (
    FEMALE_FIRST_NAMES,
    LAST_NAME_CUM_WEIGHTS,
    LAST_NAMES,
    MALE_FIRST_NAMES,
    email_address,
    first_name_cum_weights,
)
from demo.geography import CLUB_NAME_PATTERNS, COMMITTEES, ZONES, club_name
from demo.registry import DemoRegistry, add_demo_users
from federation.models import (
    ArbiterAccreditation,
    ArbiterGrade,
    Club,
    ClubAffiliation,
    Committee,
    Licence,
    Player,
    Season,
    Zone,
)

DEFAULT_SEED = 2026
DEFAULT_PLAYERS = 6000
DEFAULT_CLUBS = 300
DEFAULT_CURRENT_SEASON = 2026
"""Year in which the current demo season starts (2026-2027; the previous one is 2025-2026)."""

NEW_PLAYER_SHARE = 0.10  # of the current season's licensees, not licensed the season before
LAPSE_SHARE = 0.08  # of the previous season's licensees, not renewed
CLUB_CHANGE_SHARE = 0.03  # of the renewed licensees, who change club
NEW_CLUB_SHARE = 0.02  # of the clubs, affiliated for the first time in the current season
ARBITER_CLUB_SHARE = 0.9  # clubs with (at least) one arbiter
BIG_CLUB = 40  # licensees from which a club has a second arbiter
NATIONAL_SHARE = 0.05  # of a season's arbiters
REGIONAL_SHARE = 0.20
CURRENT_SEASON_ISSUE_DAYS = 140  # licences of the current season issued 1 July – mid-November

# (first age, last age, weight) on 1 July of the current season: tarot players are older.
AGE_BUCKETS: tuple[tuple[int, int, int], ...] = (
    (18, 29, 5),
    (30, 39, 7),
    (40, 49, 11),
    (50, 59, 19),
    (60, 69, 27),
    (70, 79, 23),
    (80, 90, 8),
)
MALE_SHARE = 0.63


class DemoRefused(Exception):
    """The demo federation may not be built here (debug is off: this may be production)."""


def build_demo_registry(
    *,
    seed: int = DEFAULT_SEED,
    players: int = DEFAULT_PLAYERS,
    clubs: int = DEFAULT_CLUBS,
    current_season: int = DEFAULT_CURRENT_SEASON,
) -> DemoRegistry:
    """Write a demo federation into an empty registry and return what was written.

    ``current_season`` is the year the current season starts; the previous season is
    also written. Seasons that already exist under the same name are reused; any
    other registry row must not exist yet (see :func:`demo.registry.registry_is_populated`).
    """
    if not settings.DEBUG:
        raise DemoRefused(
            "The demo federation is never built with DJANGO_DEBUG off: its users' password "
            "and its API token are published in the README."
        )
    if clubs < 1:
        raise ValueError("clubs must be at least 1")
    if players < clubs:
        raise ValueError("players must be at least the number of clubs")
    if clubs > 5000:
        raise ValueError("at most 5000 clubs (club numbers are committee × 1000 + rank)")
    with transaction.atomic():
        return _Generator(seed, players, clubs, current_season).build()


@dataclass
class _Person:
    male: bool
    first_name: str
    last_name: str
    birth_date: dt.date
    join_year: int
    email: str = ""
    phone: str = ""


class _Generator:
    def __init__(self, seed: int, players: int, clubs: int, current_season: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.n_players = players
        self.n_clubs = clubs
        self.year = current_season
        self.reference = dt.date(current_season, 7, 1)
        """Ages are counted on 1 July of the current season."""

    # -- orchestration --------------------------------------------------------

    def build(self) -> DemoRegistry:
        seasons = self.seasons()
        zones, committees = self.geography()
        clubs, new_clubs = self.clubs(committees)
        affiliations = self.affiliations(seasons, clubs, new_clubs)
        people, previous_only, renewed, newcomers = self.people()
        players = self.players(people)
        licences = self.licences(
            seasons, clubs, new_clubs, players, previous_only, renewed, newcomers
        )
        duplicate = self.duplicate(seasons, licences, previous_only, newcomers, players)
        arbiters = self.arbiters(seasons, clubs, licences)
        registry = DemoRegistry(
            seed=self.seed,
            seasons=seasons,
            zones=zones,
            committees=committees,
            clubs=clubs,
            affiliations=affiliations,
            players=players,
            licences=licences,
            arbiters=arbiters,
            duplicate=duplicate,
        )
        add_demo_users(registry)
        return registry

    # -- seasons and geography -----------------------------------------------

    def seasons(self) -> list[Season]:
        seasons = []
        for start_year in (self.year - 1, self.year):
            season, _ = Season.objects.get_or_create(
                name=f"{start_year}-{start_year + 1}",
                defaults={
                    "start_date": dt.date(start_year, 7, 1),
                    "end_date": dt.date(start_year + 1, 6, 30),
                },
            )
            seasons.append(season)
        return seasons

    def geography(self) -> tuple[list[Zone], list[Committee]]:
        zones = Zone.objects.bulk_create(Zone(number=n, name=name) for n, name in ZONES)
        zone_by_number = {zone.number: zone for zone in zones}
        committees = Committee.objects.bulk_create(
            Committee(number=number, name=name, zone=zone_by_number[zone_number])
            for number, name, zone_number, _weight, _cities in COMMITTEES
        )
        return zones, committees

    def clubs(self, committees: list[Committee]) -> tuple[list[Club], list[Club]]:
        rng = self.rng
        per_committee = _apportion(
            self.n_clubs, [spec[3] for spec in COMMITTEES], always_first=True
        )
        patterns = [p for p, _ in CLUB_NAME_PATTERNS]
        pattern_weights = list(accumulate(w for _, w in CLUB_NAME_PATTERNS))
        rows = []
        for committee, spec, count in zip(committees, COMMITTEES, per_committee, strict=True):
            cities = spec[4]
            city_weights = list(accumulate(1 / (rank + 1) for rank in range(len(cities))))
            used: set[str] = set()
            for k in range(1, count + 1):
                # The first clubs go to the biggest cities, then anywhere, big ones first.
                city = (
                    cities[k - 1]
                    if k <= min(len(cities), 3)
                    else rng.choices(cities, cum_weights=city_weights)[0]
                )
                name = club_name(rng, city, patterns, pattern_weights, used)
                used.add(name)
                rows.append(
                    Club(
                        number=committee.number * 1000 + k,
                        name=name,
                        city=city,
                        committee=committee,
                    )
                )
        clubs = Club.objects.bulk_create(rows)
        n_new = round(len(clubs) * NEW_CLUB_SHARE) if len(clubs) >= 20 else 0
        new_clubs = sorted(rng.sample(clubs, n_new), key=lambda club: club.number)
        return clubs, new_clubs

    def affiliations(
        self, seasons: list[Season], clubs: list[Club], new_clubs: list[Club]
    ) -> list[ClubAffiliation]:
        previous, current = seasons
        new = {club.number for club in new_clubs}
        rows = [
            ClubAffiliation(club=club, season=previous) for club in clubs if club.number not in new
        ]
        rows += [ClubAffiliation(club=club, season=current) for club in clubs]
        return ClubAffiliation.objects.bulk_create(rows)

    # -- people ----------------------------------------------------------------

    def people(self) -> tuple[list[_Person], list[int], list[int], list[int]]:
        """The people, oldest licence first, and who is licensed when (indexes):
        previous season only, both seasons, current season only (newcomers)."""
        rng = self.rng
        n = self.n_players
        # previous = renewed + lapsed; newcomers are NEW_PLAYER_SHARE of the current season.
        growth = 1 + (1 - LAPSE_SHARE) * NEW_PLAYER_SHARE / (1 - NEW_PLAYER_SHARE)
        previous_count = round(n / growth)
        previous_count = min(max(previous_count, 1), n)
        newcomer_count = n - previous_count
        lapsed_count = round(previous_count * LAPSE_SHARE)

        people = [self.person(newcomer=i >= previous_count) for i in range(n)]
        # Licence numbers are permanent and issued in order: older licences, lower numbers.
        order = sorted(range(n), key=lambda i: (people[i].join_year, rng.random()))
        people = [people[i] for i in order]
        newcomers = list(range(previous_count, n))
        veterans = list(range(previous_count))
        lapsed = sorted(rng.sample(veterans, lapsed_count))
        lapsed_set = set(lapsed)
        renewed = [i for i in veterans if i not in lapsed_set]
        assert len(newcomers) == newcomer_count
        return people, lapsed, renewed, newcomers

    def person(self, *, newcomer: bool) -> _Person:
        rng = self.rng
        low, high, _ = rng.choices(AGE_BUCKETS, cum_weights=_AGE_CUM_WEIGHTS)[0]
        age = rng.randint(low, high)
        birthday = self.reference.replace(year=self.reference.year - age)
        birth_date = birthday - dt.timedelta(days=rng.randint(1, 364))
        male = rng.random() < MALE_SHARE
        generation = (
            "old" if birth_date.year < 1956 else "middle" if birth_date.year < 1980 else "young"
        )
        names = (MALE_FIRST_NAMES if male else FEMALE_FIRST_NAMES)[generation]
        first_name = rng.choices(names, cum_weights=first_name_cum_weights(len(names)))[0]
        last_name = rng.choices(LAST_NAMES, cum_weights=LAST_NAME_CUM_WEIGHTS)[0]
        if newcomer:
            join_year = self.year
        else:
            # Licensed for some years already (a dozen on average), not before 16 nor 1975.
            earliest = min(max(birth_date.year + 16, 1975), self.year - 1)
            join_year = max(earliest, self.year - 1 - int(rng.expovariate(1 / 12)))
        person = _Person(male, first_name, last_name, birth_date, join_year)
        if rng.random() < _email_share(age):
            person.email = email_address(rng, first_name, last_name)
        if rng.random() < 0.35:
            person.phone = f"06 39 98 {rng.randrange(100):02d} {rng.randrange(100):02d}"
        return person

    def players(self, people: list[_Person]) -> list[Player]:
        rng = self.rng
        number = 10_000 + rng.randrange(500)
        rows = []
        emails: set[str] = set()
        for person in people:
            number += rng.randint(1, 12)
            email = person.email
            if email:
                local, domain = email.split("@")
                suffix = 2
                while email in emails:
                    email = f"{local}{suffix}@{domain}"
                    suffix += 1
                emails.add(email)
            rows.append(
                Player(
                    licence_number=number,
                    last_name=person.last_name,
                    first_name=person.first_name,
                    birth_date=person.birth_date,
                    email=email,
                    phone=person.phone,
                )
            )
        return Player.objects.bulk_create(rows)

    # -- licences ----------------------------------------------------------------

    def licences(
        self,
        seasons: list[Season],
        clubs: list[Club],
        new_clubs: list[Club],
        players: list[Player],
        previous_only: list[int],
        renewed: list[int],
        newcomers: list[int],
    ) -> dict[str, list[Licence]]:
        rng = self.rng
        previous, current = seasons
        new_numbers = {club.number for club in new_clubs}
        old_clubs = [club for club in clubs if club.number not in new_numbers]
        # Club sizes vary a lot: a few big clubs, many small ones.
        size = {club.number: rng.lognormvariate(0, 0.75) for club in clubs}

        # Previous season: every old club gets at least one licensee.
        veterans = sorted(previous_only + renewed)
        club_of_previous = self.assign(veterans, old_clubs, size)

        # Current season: renewals stay in their club, except a few who move.
        club_of_current: dict[int, Club] = {i: club_of_previous[i] for i in renewed}
        movers = sorted(rng.sample(renewed, round(len(renewed) * CLUB_CHANGE_SHARE)))
        for i in movers:
            old = club_of_previous[i]
            same_committee = [c for c in clubs if c.committee_id == old.committee_id and c != old]
            pool = same_committee if same_committee and rng.random() < 0.7 else clubs
            choices = [c for c in pool if c != old]
            if choices:
                club_of_current[i] = rng.choice(choices)
        club_of_current.update(self.assign(newcomers, clubs, size, first=new_clubs))

        licences = {
            previous.name: self.licence_rows(previous, players, club_of_previous, days=300),
            current.name: self.licence_rows(
                current, players, club_of_current, days=CURRENT_SEASON_ISSUE_DAYS
            ),
        }
        created = Licence.objects.bulk_create(licences[previous.name] + licences[current.name])
        split = len(licences[previous.name])
        return {previous.name: created[:split], current.name: created[split:]}

    def assign(
        self,
        people: list[int],
        clubs: list[Club],
        size: dict[int, float],
        first: Sequence[Club] = (),
    ) -> dict[int, Club]:
        """A club for each person: one for each of ``first`` (or of ``clubs``) while people
        last, then the rest by club size."""
        rng = self.rng
        shuffled = people[:]
        rng.shuffle(shuffled)
        seeded = list(first) if first else clubs
        assignment = dict(zip(shuffled, seeded, strict=False))
        cum_weights = list(accumulate(size[club.number] for club in clubs))
        for i in shuffled[len(seeded) :]:
            assignment[i] = rng.choices(clubs, cum_weights=cum_weights)[0]
        return assignment

    def licence_rows(
        self, season: Season, players: list[Player], club_of: dict[int, Club], *, days: int
    ) -> list[Licence]:
        rng = self.rng
        rows = []
        for i in sorted(club_of):
            # Most licences are taken at the start of the season (September–October).
            offset = min(int(rng.triangular(0, days, min(75, days))), days)
            rows.append(
                Licence(
                    player=players[i],
                    season=season,
                    club=club_of[i],
                    issued_on=season.start_date + dt.timedelta(days=offset),
                )
            )
        return rows

    def duplicate(
        self,
        seasons: list[Season],
        licences: dict[str, list[Licence]],
        previous_only: list[int],
        newcomers: list[int],
        players: list[Player],
    ) -> tuple[Player, Player] | None:
        """Make one newcomer the same person as one lapsed player of the same committee
        (their name and birth date), so that the demo has a likely duplicate pair to
        merge. Deterministic, and draws nothing from the generator's random sequence."""
        previous, current = seasons
        club_before = {lic.player.pk: lic.club for lic in licences[previous.name]}
        club_now = {lic.player.pk: lic.club for lic in licences[current.name]}
        for i in previous_only:
            lapsed = players[i]
            committee = club_before[lapsed.pk].committee_id
            twin = next(
                (
                    players[j]
                    for j in newcomers
                    if club_now[players[j].pk].committee_id == committee
                ),
                None,
            )
            if twin is None:
                continue
            twin.last_name, twin.first_name = lapsed.last_name, lapsed.first_name
            twin.birth_date = lapsed.birth_date
            Player.objects.filter(pk=twin.pk).update(
                last_name=twin.last_name, first_name=twin.first_name, birth_date=twin.birth_date
            )
            return lapsed, twin
        return None

    # -- arbiters ------------------------------------------------------------------

    def arbiters(
        self, seasons: list[Season], clubs: list[Club], licences: dict[str, list[Licence]]
    ) -> dict[str, list[ArbiterAccreditation]]:
        """About one arbiter per club (two in big clubs), mostly club arbiters, some
        regional, a few national; most keep their grade the next season, a few are
        promoted, clubs that lost theirs get a new one."""
        rng = self.rng
        previous, current = seasons
        grades: dict[str, dict[Player, str]] = {}

        members = _members(licences[previous.name])
        chosen: list[Player] = []
        for club in clubs:
            chosen += self.pick_arbiters(members.get(club.number, []), set())
        ranked = chosen[:]
        rng.shuffle(ranked)
        n_national = max(1, round(len(ranked) * NATIONAL_SHARE)) if ranked else 0
        n_regional = max(1, round(len(ranked) * REGIONAL_SHARE)) if len(ranked) > 1 else 0
        grades[previous.name] = {
            player: (
                ArbiterGrade.NATIONAL
                if rank < n_national
                else ArbiterGrade.REGIONAL
                if rank < n_national + n_regional
                else ArbiterGrade.CLUB
            )
            for rank, player in enumerate(ranked)
        }

        members = _members(licences[current.name])
        licensed_now = {licence.player for licence in licences[current.name]}
        carried: dict[Player, str] = {}
        for player, grade in grades[previous.name].items():
            if player not in licensed_now or rng.random() < 0.05:
                continue  # not renewed, or gave up arbitrating
            if grade == ArbiterGrade.CLUB and rng.random() < 0.06:
                grade = ArbiterGrade.REGIONAL
            elif grade == ArbiterGrade.REGIONAL and rng.random() < 0.04:
                grade = ArbiterGrade.NATIONAL
            carried[player] = grade
        for club in clubs:
            club_members = members.get(club.number, [])
            if any(player in carried for player in club_members):
                continue
            # Clubs without one (lost, or never had one) find a new arbiter less often,
            # which keeps the share of clubs with an arbiter about steady.
            for player in self.pick_arbiters(club_members, set(carried), share=0.5):
                carried[player] = ArbiterGrade.CLUB
        grades[current.name] = carried

        rows = {
            season.name: [
                ArbiterAccreditation(player=player, season=season, grade=grade)
                for player, grade in sorted(
                    grades[season.name].items(), key=lambda item: item[0].licence_number
                )
            ]
            for season in seasons
        }
        created = ArbiterAccreditation.objects.bulk_create(rows[previous.name] + rows[current.name])
        split = len(rows[previous.name])
        return {previous.name: created[:split], current.name: created[split:]}

    def pick_arbiters(
        self, members: list[Player], taken: set[Player], share: float = ARBITER_CLUB_SHARE
    ) -> list[Player]:
        rng = self.rng
        if not members or rng.random() >= share:
            return []
        wanted = 2 if len(members) >= BIG_CLUB else 1
        candidates = [p for p in members if p not in taken]
        adults = [p for p in candidates if self.age(p) >= 25] or candidates
        picked: list[Player] = []
        for _ in range(min(wanted, len(adults))):
            # Arbiters are experienced players: weight the 45-75 year-olds.
            weights = [3 if 45 <= self.age(p) <= 75 else 1 for p in adults]
            player = rng.choices(adults, weights=weights)[0]
            adults.remove(player)
            picked.append(player)
        return picked

    def age(self, player: Player) -> int:
        born = player.birth_date
        assert born is not None  # every demo player is born on a drawn date
        ref = self.reference
        return ref.year - born.year - ((ref.month, ref.day) < (born.month, born.day))


_AGE_CUM_WEIGHTS = list(accumulate(weight for _, _, weight in AGE_BUCKETS))


def _members(licences: list[Licence]) -> dict[int, list[Player]]:
    members: dict[int, list[Player]] = {}
    for licence in licences:
        members.setdefault(licence.club.number, []).append(licence.player)
    return members


def _apportion(total: int, weights: list[int], *, always_first: bool) -> list[int]:
    """Split ``total`` by ``weights`` (largest remainders), at least one each when there
    are enough; otherwise one each for the heaviest (and the first if ``always_first``)."""
    n = len(weights)
    if total < n:
        order = sorted(range(n), key=lambda i: (-weights[i], i))
        if always_first:
            order = [0] + [i for i in order if i != 0]
        chosen = set(order[:total])
        return [1 if i in chosen else 0 for i in range(n)]
    rest = total - n
    whole = sum(weights)
    shares = [rest * w / whole for w in weights]
    counts = [1 + int(share) for share in shares]
    leftover = total - sum(counts)
    by_remainder = sorted(range(n), key=lambda i: (-(shares[i] - int(shares[i])), i))
    for i in by_remainder[:leftover]:
        counts[i] += 1
    return counts


def _email_share(age: int) -> float:
    if age < 40:
        return 0.9
    if age < 60:
        return 0.8
    if age < 75:
        return 0.6
    return 0.35
