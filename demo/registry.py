"""The demo registry: what the demo federation holds (:class:`DemoRegistry`), its demo
accounts, and how to count and reset it.

It is built by :func:`demo.registry_build.build_demo_registry`; the demo tournaments and
rankings are built on top of what it returns. Rows written with ``bulk_create`` have no
history rows (simple_history), which is fine for demo data.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.test.utils import override_settings

from federation.api_tokens import api_token_issue
from federation.models import (
    ArbiterAccreditation,
    ArbiterGrade,
    Club,
    ClubAffiliation,
    Committee,
    Licence,
    LicenceImport,
    Player,
    Role,
    RoleAssignment,
    Season,
    User,
    Zone,
)

DEMO_PASSWORD = "demo-fft"
DEMO_EMAIL_DOMAIN = "fft-demo.example"
"""Demo users get ``<username>@fft-demo.example``; ``reset_registry`` deletes only those."""
DEMO_USERNAMES: tuple[str, ...] = ("admin", "zone", "ccr", "club", "joueur", "arbitre")


@dataclass
class DemoUser:
    """A demo account: how to sign in and what it may do."""

    user: User
    description: str
    created: bool = True


@dataclass
class DemoRegistry:
    """Everything the demo wrote, for the command's summary and for later demo layers
    (tournaments, rankings) built on top of it."""

    seed: int
    seasons: list[Season]
    """Oldest first: ``seasons[-1]`` is the current season."""
    zones: list[Zone]
    committees: list[Committee]
    clubs: list[Club]
    affiliations: list[ClubAffiliation]
    players: list[Player]
    licences: dict[str, list[Licence]]
    """Per season name; each licence has its ``player`` and ``club`` loaded."""
    arbiters: dict[str, list[ArbiterAccreditation]]
    """Per season name."""
    users: dict[str, DemoUser] = field(default_factory=dict)
    duplicate: tuple[Player, Player] | None = None
    """A likely duplicate pair for the desk's /bureau/doublons/ (docs/duplicates.md): a
    player who let their licence lapse, and a newcomer of the same committee who is the
    same person under a new licence number (same name, same birth date)."""
    club_token: str | None = None
    """The API token key of the ``club`` demo user (``Authorization: Token <key>``); only
    its digest is stored, like every token's."""

    @property
    def previous_season(self) -> Season:
        return self.seasons[0]

    @property
    def current_season(self) -> Season:
        return self.seasons[-1]

    def licences_of(self, season: Season) -> list[Licence]:
        return self.licences[season.name]

    def licensees_by_club(self, season: Season) -> dict[Club, list[Player]]:
        """Players licensed in each club in ``season`` (clubs in number order)."""
        by_club: dict[Club, list[Player]] = {club: [] for club in self.clubs}
        for licence in self.licences[season.name]:
            by_club[licence.club].append(licence.player)
        return {club: players for club, players in by_club.items() if players}

    def counts(self) -> dict[str, int]:
        counts = {
            "seasons": len(self.seasons),
            "zones": len(self.zones),
            "committees": len(self.committees),
            "clubs": len(self.clubs),
            "club affiliations": len(self.affiliations),
            "players": len(self.players),
        }
        for season in self.seasons:
            counts[f"licences {season.name}"] = len(self.licences[season.name])
        for season in self.seasons:
            counts[f"arbiters {season.name}"] = len(self.arbiters[season.name])
        counts["demo users"] = sum(1 for demo in self.users.values() if demo.created)
        return counts


def registry_is_populated() -> bool:
    """Whether the registry already holds a federation (zones, committees, clubs or players)."""
    return any(model.objects.exists() for model in (Zone, Committee, Club, Player, Licence))


def registry_counts() -> dict[str, int]:
    return {
        "seasons": Season.objects.count(),
        "zones": Zone.objects.count(),
        "committees": Committee.objects.count(),
        "clubs": Club.objects.count(),
        "players": Player.objects.count(),
        "licences": Licence.objects.count(),
        "arbiter accreditations": ArbiterAccreditation.objects.count(),
    }


def reset_registry() -> dict[str, int]:
    """Delete the whole registry (and the demo users) so the demo can be rebuilt.

    Deletes, children first: demo users, licence imports, arbiter accreditations,
    licences, club affiliations, clubs (their role assignments cascade), committees,
    zones, players, seasons, and the history rows of those models. Rows of other apps
    that protect a registry row (a tournament's players, say) make it fail with
    ``ProtectedError`` and nothing is deleted. Returns the number of rows deleted per
    model.
    """
    deleted: dict[str, int] = {}

    def delete(label: str, queryset) -> None:
        _total, per_model = queryset.delete()  # the total counts cascaded rows too
        deleted[label] = per_model.get(queryset.model._meta.label, 0)

    # History is switched off while deleting: no "-" history row per deleted object.
    with transaction.atomic(), override_settings(SIMPLE_HISTORY_ENABLED=False):
        delete(
            "demo users",
            User.objects.filter(
                username__in=DEMO_USERNAMES,
                email__endswith=f"@{DEMO_EMAIL_DOMAIN}",
            ),
        )
        delete("licence imports", LicenceImport.objects.all())
        delete("arbiter accreditations", ArbiterAccreditation.objects.all())
        delete("licences", Licence.objects.all())
        delete("club affiliations", ClubAffiliation.objects.all())
        delete("clubs", Club.objects.all())
        delete("committees", Committee.objects.all())
        delete("zones", Zone.objects.all())
        delete("players", Player.objects.all())
        delete("seasons", Season.objects.all())
        for model in (Club, Player, Licence, ArbiterAccreditation):
            model.history.all().delete()
        RoleAssignment.history.exclude(id__in=RoleAssignment.objects.values("id")).delete()
    return deleted


def add_demo_users(registry: DemoRegistry) -> None:
    """The demo accounts, all with password ``DEMO_PASSWORD``; existing usernames
    are left untouched."""
    current = registry.current_season
    zone_1 = registry.zones[0]
    committee_1 = next(c for c in registry.committees if c.number == 1)
    by_club = registry.licensees_by_club(current)
    in_committee_1 = [club for club in by_club if club.committee_id == committee_1.pk]
    # The biggest club of committee 1 (ties: lowest number).
    club = max(in_committee_1 or by_club, key=lambda c: (len(by_club[c]), -c.number))
    licensed_before = {lic.player for lic in registry.licences[registry.previous_season.name]}
    arbiters = {acc.player for acc in registry.arbiters[current.name]}
    regulars = sorted(
        (p for p in by_club[club] if p in licensed_before and p not in arbiters),
        key=lambda p: p.licence_number,
    ) or sorted(by_club[club], key=lambda p: p.licence_number)
    joueur = regulars[0]
    # The club's own arbiter for the season (one is accredited if it has none): he runs the
    # demo's tournament day (demo/day.py).
    club_arbiters = sorted(
        (p for p in by_club[club] if p in arbiters), key=lambda p: p.licence_number
    )
    if club_arbiters:
        arbitre = club_arbiters[0]
    else:
        arbitre = next(
            p for p in sorted(by_club[club], key=lambda p: p.licence_number) if p != joueur
        )
        registry.arbiters[current.name].append(
            ArbiterAccreditation.objects.create(
                player=arbitre, season=current, grade=ArbiterGrade.CLUB
            )
        )

    password = make_password(DEMO_PASSWORD)  # hashed once: hashing is slow on purpose
    specs: dict[str, tuple[dict[str, Any], list[RoleAssignment], str]] = {
        "admin": (
            {"is_superuser": True, "is_staff": True, "first_name": "Admin"},
            [RoleAssignment(role=Role.FEDERATION_STAFF)],
            "superuser, federation staff (CCN)",
        ),
        "zone": (
            {"first_name": "Zone"},
            [RoleAssignment(role=Role.ZONE_STAFF, zone=zone_1)],
            f"zone staff of {zone_1}",
        ),
        "ccr": (
            {"first_name": "CCR"},
            [RoleAssignment(role=Role.COMMITTEE_STAFF, committee=committee_1)],
            f"committee staff (CCR) of {committee_1}",
        ),
        "club": (
            {"first_name": "Club"},
            [RoleAssignment(role=Role.CLUB_MANAGER, club=club)],
            f"club manager of {club}",
        ),
        "joueur": (
            {"first_name": joueur.first_name, "last_name": joueur.last_name, "player": joueur},
            [],
            f"player {joueur}",
        ),
        "arbitre": (
            {"first_name": arbitre.first_name, "last_name": arbitre.last_name, "player": arbitre},
            [],
            f"the club's arbiter {arbitre}: runs its tournament day",
        ),
    }
    assert tuple(specs) == DEMO_USERNAMES
    roles = []
    for username, (fields, user_roles, description) in specs.items():
        existing = User.objects.filter(username=username).first()
        if existing is not None:
            if username == "joueur" and not existing.email:
                # « Mes notifications » e-mails the account's address: give it one
                existing.email = f"{username}@{DEMO_EMAIL_DOMAIN}"
                existing.save(update_fields=["email"])
            registry.users[username] = DemoUser(existing, description, created=False)
            continue
        user = User.objects.create(
            username=username,
            email=f"{username}@{DEMO_EMAIL_DOMAIN}",
            password=password,
            **fields,
        )
        for role in user_roles:
            role.user = user
            roles.append(role)
        registry.users[username] = DemoUser(user, description)
    RoleAssignment.objects.bulk_create(roles)
    club_user = registry.users["club"]
    if club_user.created:
        key = hashlib.sha1(f"fft-demo-club-token:{registry.seed}".encode()).hexdigest()
        registry.club_token = api_token_issue(user=club_user.user, key=key)[1]
