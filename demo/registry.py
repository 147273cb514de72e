"""Demo data: a realistic, deterministic federation registry.

``build_demo_registry()`` writes two seasons, the zones, the regional committees,
a few hundred clubs with their affiliations, several thousand players with their
licences (with churn from one season to the next), the arbiters of each season and
a handful of demo users, all in one transaction and with bulk inserts (a few
seconds for the default size). Everything is drawn from ``random.Random(seed)``:
the same seed and sizes give the same licence numbers, names, clubs and grades.

The returned :class:`DemoRegistry` holds what was created, so that demo
tournaments or rankings can be built on top of it.

Nothing here is real: committee and city names are real French places, but the
clubs, people, e-mail addresses (reserved ``.example`` domains) and phone numbers
(ARCEP's range reserved for fiction, 06 39 98 xx xx) are invented. Rows written
with ``bulk_create`` have no history rows (simple_history), which is fine for
demo data.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any

from django.conf import settings
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

# ---------------------------------------------------------------------------
# Geography: 7 zones, 25 regional committees (pre-2016 regions, Île-de-France
# split in three), each with a relative size and its main cities.
# ---------------------------------------------------------------------------

ZONES: tuple[tuple[int, str], ...] = (
    (1, "Île-de-France"),
    (2, "Nord-Ouest"),
    (3, "Ouest"),
    (4, "Est"),
    (5, "Sud-Ouest"),
    (6, "Centre-Est"),
    (7, "Méditerranée"),
)

# (number, name, zone number, relative number of clubs, cities, biggest first)
# fmt: off
COMMITTEES: tuple[tuple[int, str, int, int, tuple[str, ...]], ...] = (
    (1, "Paris", 1, 10, (
        "Paris 15e", "Paris 11e", "Paris 17e", "Paris 20e", "Paris 12e", "Paris 14e", "Paris 18e",
        "Paris 13e", "Paris 16e", "Paris 19e", "Paris 9e", "Paris 5e",
    )),
    (2, "Île-de-France Ouest", 1, 13, (
        "Versailles", "Boulogne-Billancourt", "Nanterre", "Argenteuil", "Cergy", "Rueil-Malmaison",
        "Saint-Germain-en-Laye", "Colombes", "Poissy", "Mantes-la-Jolie", "Rambouillet", "Pontoise",
        "Antony",
    )),
    (3, "Île-de-France Est", 1, 12, (
        "Créteil", "Montreuil", "Saint-Denis", "Meaux", "Melun", "Évry-Courcouronnes", "Vincennes",
        "Saint-Maur-des-Fossés", "Fontainebleau", "Massy", "Chelles", "Étampes", "Provins",
    )),
    (4, "Nord-Pas-de-Calais", 2, 14, (
        "Lille", "Roubaix", "Dunkerque", "Tourcoing", "Calais", "Arras", "Valenciennes",
        "Boulogne-sur-Mer", "Douai", "Lens", "Béthune", "Maubeuge", "Saint-Omer",
    )),
    (5, "Picardie", 2, 9, (
        "Amiens", "Beauvais", "Saint-Quentin", "Compiègne", "Soissons", "Abbeville", "Creil",
        "Laon", "Château-Thierry",
    )),
    (6, "Normandie", 2, 16, (
        "Rouen", "Le Havre", "Caen", "Cherbourg-en-Cotentin", "Évreux", "Dieppe", "Alençon",
        "Lisieux", "Saint-Lô", "Fécamp", "Bayeux", "Vernon", "Granville",
    )),
    (7, "Bretagne", 3, 16, (
        "Rennes", "Brest", "Quimper", "Lorient", "Vannes", "Saint-Brieuc", "Saint-Malo", "Lannion",
        "Morlaix", "Fougères", "Concarneau", "Pontivy", "Dinan",
    )),
    (8, "Pays de la Loire", 3, 16, (
        "Nantes", "Angers", "Le Mans", "Saint-Nazaire", "Cholet", "Laval", "La Roche-sur-Yon",
        "Les Sables-d'Olonne", "Saumur", "Château-Gontier", "Challans", "Sablé-sur-Sarthe",
    )),
    (9, "Centre-Val de Loire", 3, 12, (
        "Orléans", "Tours", "Bourges", "Blois", "Chartres", "Châteauroux", "Dreux", "Vierzon",
        "Montargis", "Amboise", "Vendôme", "Issoudun",
    )),
    (10, "Champagne-Ardenne", 4, 8, (
        "Reims", "Troyes", "Charleville-Mézières", "Châlons-en-Champagne", "Épernay", "Chaumont",
        "Saint-Dizier", "Sedan", "Langres",
    )),
    (11, "Lorraine", 4, 12, (
        "Nancy", "Metz", "Épinal", "Thionville", "Verdun", "Bar-le-Duc", "Lunéville", "Forbach",
        "Saint-Dié-des-Vosges", "Sarreguemines", "Toul",
    )),
    (12, "Alsace", 4, 8, (
        "Strasbourg", "Mulhouse", "Colmar", "Haguenau", "Sélestat", "Saverne", "Saint-Louis",
        "Obernai", "Guebwiller",
    )),
    (13, "Franche-Comté", 4, 8, (
        "Besançon", "Belfort", "Montbéliard", "Dole", "Lons-le-Saunier", "Vesoul", "Pontarlier",
        "Saint-Claude",
    )),
    (14, "Bourgogne", 4, 10, (
        "Dijon", "Chalon-sur-Saône", "Mâcon", "Auxerre", "Nevers", "Sens", "Beaune", "Le Creusot",
        "Montceau-les-Mines", "Autun",
    )),
    (15, "Poitou-Charentes", 5, 12, (
        "Poitiers", "La Rochelle", "Niort", "Angoulême", "Châtellerault", "Rochefort", "Saintes",
        "Cognac", "Royan", "Parthenay", "Bressuire",
    )),
    (16, "Limousin", 5, 6, (
        "Limoges", "Brive-la-Gaillarde", "Tulle", "Guéret", "Ussel", "Saint-Junien",
    )),
    (17, "Aquitaine", 5, 16, (
        "Bordeaux", "Pau", "Bayonne", "Mérignac", "Pessac", "Périgueux", "Agen", "Mont-de-Marsan",
        "Arcachon", "Bergerac", "Biarritz", "Dax", "Libourne", "Villeneuve-sur-Lot",
    )),
    (18, "Midi-Pyrénées", 5, 16, (
        "Toulouse", "Montauban", "Albi", "Tarbes", "Rodez", "Castres", "Cahors", "Auch",
        "Colomiers", "Millau", "Foix", "Lourdes", "Figeac",
    )),
    (19, "Auvergne", 6, 9, (
        "Clermont-Ferrand", "Vichy", "Montluçon", "Moulins", "Aurillac", "Le Puy-en-Velay",
        "Issoire", "Riom", "Thiers",
    )),
    (20, "Lyonnais", 6, 14, (
        "Lyon", "Saint-Étienne", "Villeurbanne", "Vénissieux", "Roanne", "Villefranche-sur-Saône",
        "Bourg-en-Bresse", "Vienne", "Oyonnax", "Caluire-et-Cuire", "Montbrison",
    )),
    (21, "Dauphiné-Savoie", 6, 14, (
        "Grenoble", "Chambéry", "Annecy", "Valence", "Voiron", "Montélimar", "Aix-les-Bains",
        "Annemasse", "Thonon-les-Bains", "Bourgoin-Jallieu", "Albertville", "Romans-sur-Isère",
    )),
    (22, "Languedoc-Roussillon", 7, 12, (
        "Montpellier", "Nîmes", "Perpignan", "Béziers", "Narbonne", "Carcassonne", "Sète", "Alès",
        "Agde", "Lunel", "Mende", "Castelnaudary",
    )),
    (23, "Provence", 7, 14, (
        "Marseille", "Aix-en-Provence", "Avignon", "Arles", "Martigues", "Aubagne",
        "Salon-de-Provence", "Istres", "Carpentras", "Gap", "Manosque", "Digne-les-Bains",
    )),
    (24, "Côte d'Azur", 7, 10, (
        "Nice", "Toulon", "Cannes", "Antibes", "Fréjus", "Hyères", "Grasse", "Draguignan", "Menton",
        "Saint-Raphaël", "La Seyne-sur-Mer",
    )),
    (25, "Corse", 7, 3, (
        "Ajaccio", "Bastia", "Porto-Vecchio", "Corte", "Calvi",
    )),
)
# fmt: on

# Club names: "{de}" is "de Lyon" / "d'Angers" / "du Mans"; "{city}" is the bare city.
CLUB_NAME_PATTERNS: tuple[tuple[str, int], ...] = (
    ("Tarot Club {de}", 30),
    ("Club de Tarot {de}", 12),
    ("{city} Tarot Club", 10),
    ("Cercle de Tarot {de}", 6),
    ("Amicale du Tarot {de}", 6),
    ("Les Amis du Tarot {de}", 5),
    ("Tarot Loisirs {city}", 5),
    ("ASPTT {city} Tarot", 4),
    ("Petit au Bout {city}", 4),
    ("L'Excuse {de}", 4),
    ("Les Bouts {de}", 3),
    ("Garde Contre {city}", 3),
    ("Atout Tarot {city}", 3),
    ("Foyer Rural {de} – Tarot", 2),
)

# ---------------------------------------------------------------------------
# Names: common French first names by generation, and frequent surnames
# (roughly in INSEE order, so the first ones are drawn more often).
# ---------------------------------------------------------------------------

# fmt: off
MALE_FIRST_NAMES: dict[str, tuple[str, ...]] = {
    "old": (  # born before 1956
        "Jean", "Michel", "André", "Pierre", "Claude", "Jacques", "Bernard", "Gérard", "René",
        "Roger", "Robert", "Marcel", "Daniel", "Alain", "Georges", "Henri", "Louis", "Paul",
        "Raymond", "Guy", "Maurice", "Lucien", "Marc", "Serge", "Roland", "Yves", "Christian",
        "Jean-Pierre", "Jean-Claude", "Jean-Marie", "Jean-Louis", "Jean-Paul", "Jean-Jacques",
        "Gilbert", "Francis", "Albert", "Joseph", "Charles", "Édouard", "Fernand", "Émile",
        "Gaston", "Marius", "Léon", "Armand", "Norbert", "Victor", "Raoul", "Hubert", "Jean-Michel",
        "Max",
    ),
    "middle": (  # born 1956-1979
        "Philippe", "Patrick", "Éric", "Thierry", "Pascal", "Dominique", "Didier", "Frédéric",
        "Laurent", "Christophe", "Stéphane", "Olivier", "Hervé", "Bruno", "Denis", "Franck",
        "Jean-François", "Jean-Luc", "Gilles", "Joël", "Patrice", "Lionel", "Sylvain", "Vincent",
        "Emmanuel", "Fabrice", "Jérôme", "Nicolas", "Sébastien", "David", "Cédric", "Arnaud",
        "Ludovic", "Régis", "Yannick", "Bertrand", "Xavier", "Jean-Marc", "Gérald", "Jacky", "Gaël",
        "Benoît", "Hugues", "Marc", "Serge", "Alain", "Rémy", "Thibaut", "Jean-Philippe",
        "Jean-Christophe",
    ),
    "young": (  # born 1980 or later
        "Julien", "Thomas", "Nicolas", "Maxime", "Alexandre", "Antoine", "Romain", "Guillaume",
        "Kévin", "Mathieu", "Benjamin", "Jonathan", "Florian", "Anthony", "Quentin", "Adrien",
        "Clément", "Pierre", "Hugo", "Lucas", "Théo", "Louis", "Paul", "Jérémy", "Damien",
        "Mickaël", "Loïc", "Aurélien", "Vincent", "Baptiste", "Valentin", "Alexis", "Thibault",
        "Simon", "Arthur", "Mathis", "Nathan", "Enzo", "Tom", "Raphaël", "Léo", "Gabriel", "Yohann",
        "Rémi", "Cyril", "Fabien", "Jordan", "Steven", "Dylan", "Corentin",
    ),
}
# fmt: on

# fmt: off
FEMALE_FIRST_NAMES: dict[str, tuple[str, ...]] = {
    "old": (
        "Monique", "Jacqueline", "Nicole", "Françoise", "Michèle", "Jeannine", "Colette", "Denise",
        "Simone", "Yvette", "Paulette", "Odette", "Suzanne", "Marie", "Jeanne", "Marguerite",
        "Christiane", "Josette", "Ginette", "Huguette", "Gisèle", "Andrée", "Madeleine",
        "Geneviève", "Janine", "Annie", "Danielle", "Claudine", "Marie-Thérèse", "Renée",
        "Lucienne", "Yvonne", "Raymonde", "Arlette", "Micheline", "Solange", "Éliane", "Bernadette",
        "Paule", "Jocelyne", "Marcelle", "Mireille", "Liliane", "Régine", "Lucette", "Georgette",
        "Anne-Marie", "Marie-France", "Évelyne", "Germaine",
    ),
    "middle": (
        "Catherine", "Martine", "Isabelle", "Sylvie", "Christine", "Nathalie", "Brigitte",
        "Véronique", "Patricia", "Chantal", "Dominique", "Valérie", "Sandrine", "Corinne",
        "Pascale", "Florence", "Laurence", "Béatrice", "Marie-Christine", "Hélène", "Anne",
        "Élisabeth", "Frédérique", "Karine", "Muriel", "Agnès", "Joëlle", "Marie-Claude",
        "Marie-Pierre", "Fabienne", "Nadine", "Sophie", "Céline", "Virginie", "Stéphanie", "Carole",
        "Delphine", "Séverine", "Estelle", "Laetitia", "Emmanuelle", "Cécile", "Annick", "Josiane",
        "Maryse", "Odile", "Claire", "Danièle", "Ghislaine", "Marylène",
    ),
    "young": (
        "Julie", "Aurélie", "Émilie", "Élodie", "Marion", "Camille", "Laura", "Sarah", "Mélanie",
        "Audrey", "Caroline", "Amandine", "Charlotte", "Pauline", "Anaïs", "Manon", "Léa", "Chloé",
        "Emma", "Lucie", "Marine", "Justine", "Mathilde", "Clémence", "Alice", "Jessica", "Vanessa",
        "Jennifer", "Morgane", "Océane", "Inès", "Jade", "Louise", "Margaux", "Noémie", "Elsa",
        "Juliette", "Coralie", "Alexandra", "Anne-Sophie", "Sabrina", "Cindy", "Gaëlle", "Lisa",
        "Zoé", "Maëva", "Claire", "Marie", "Hélène", "Ophélie",
    ),
}
# fmt: on

# fmt: off
LAST_NAMES: tuple[str, ...] = (
    "Martin", "Bernard", "Thomas", "Petit", "Robert", "Richard", "Durand", "Dubois", "Moreau",
    "Laurent", "Simon", "Michel", "Lefebvre", "Leroy", "Roux", "David", "Bertrand", "Morel",
    "Fournier", "Girard", "Bonnet", "Dupont", "Lambert", "Fontaine", "Rousseau", "Vincent",
    "Muller", "Lefèvre", "Faure", "André", "Mercier", "Blanc", "Guérin", "Boyer", "Garnier",
    "Chevalier", "François", "Legrand", "Gauthier", "Garcia", "Perrin", "Robin", "Clément", "Morin",
    "Nicolas", "Henry", "Roussel", "Mathieu", "Gautier", "Masson", "Marchand", "Duval", "Denis",
    "Dumont", "Marie", "Lemaire", "Noël", "Meyer", "Dufour", "Meunier", "Brun", "Blanchard",
    "Giraud", "Joly", "Rivière", "Lucas", "Brunet", "Gaillard", "Barbier", "Arnaud", "Martinez",
    "Gérard", "Roche", "Renard", "Schmitt", "Roy", "Leroux", "Colin", "Vidal", "Caron", "Picard",
    "Roger", "Fabre", "Aubert", "Lemoine", "Renaud", "Dumas", "Lacroix", "Olivier", "Philippe",
    "Bourgeois", "Pierre", "Benoît", "Rey", "Leclerc", "Payet", "Rolland", "Leclercq", "Guillaume",
    "Lecomte", "Lopez", "Jean", "Dupuy", "Guillot", "Hubert", "Berger", "Carpentier", "Sanchez",
    "Dupuis", "Moulin", "Louis", "Deschamps", "Huet", "Vasseur", "Perez", "Boucher", "Fleury",
    "Royer", "Klein", "Jacquet", "Adam", "Paris", "Poirier", "Marty", "Aubry", "Guyot", "Carré",
    "Charles", "Renault", "Charpentier", "Ménard", "Maillard", "Baron", "Bertin", "Bailly", "Hervé",
    "Schneider", "Fernandez", "Le Gall", "Collet", "Léger", "Bouvier", "Julien", "Prévost",
    "Millet", "Perrot", "Daniel", "Le Roux", "Cousin", "Germain", "Breton", "Besson", "Langlois",
    "Rémy", "Le Goff", "Pelletier", "Lévêque", "Perrier", "Leblanc", "Barré", "Lebrun", "Marchal",
    "Weber", "Mallet", "Hamon", "Boulanger", "Jacob", "Monnier", "Michaud", "Rodriguez", "Guichard",
    "Gillet", "Étienne", "Grondin", "Poulain", "Tessier", "Chevallier", "Collin", "Chauvin",
    "Da Silva", "Bouchet", "Gay", "Lemaître", "Bénard",
)
# fmt: on

EMAIL_PROVIDERS: tuple[tuple[str, int], ...] = (
    ("orange.example", 25),
    ("gmail.example", 22),
    ("free.example", 14),
    ("wanadoo.example", 10),
    ("laposte.example", 9),
    ("sfr.example", 8),
    ("hotmail.example", 7),
    ("yahoo.example", 5),
)


# ---------------------------------------------------------------------------
# What was created
# ---------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------
# Entry points
# ---------------------------------------------------------------------------


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
    other registry row must not exist yet (see :func:`registry_is_populated`).
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


# ---------------------------------------------------------------------------
# The generator
# ---------------------------------------------------------------------------

DEMO_USERNAMES: tuple[str, ...] = ("admin", "zone", "ccr", "club", "joueur")


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
        self.users(registry)
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
                name = _club_name(rng, city, patterns, pattern_weights, used)
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
        first_name = rng.choices(names, cum_weights=_first_name_cum_weights(len(names)))[0]
        last_name = rng.choices(LAST_NAMES, cum_weights=_LAST_NAME_CUM_WEIGHTS)[0]
        if newcomer:
            join_year = self.year
        else:
            # Licensed for some years already (a dozen on average), not before 16 nor 1975.
            earliest = min(max(birth_date.year + 16, 1975), self.year - 1)
            join_year = max(earliest, self.year - 1 - int(rng.expovariate(1 / 12)))
        person = _Person(male, first_name, last_name, birth_date, join_year)
        if rng.random() < _email_share(age):
            person.email = self.email(first_name, last_name)
        if rng.random() < 0.35:
            person.phone = f"06 39 98 {rng.randrange(100):02d} {rng.randrange(100):02d}"
        return person

    def email(self, first_name: str, last_name: str) -> str:
        rng = self.rng
        first, last = _slug(first_name), _slug(last_name)
        local = rng.choices(
            (f"{first}.{last}", f"{first[0]}.{last}", f"{first}{last}", f"{last}.{first}"),
            weights=(55, 15, 15, 15),
        )[0]
        if rng.random() < 0.25:
            local += str(rng.randint(1, 99))
        provider = rng.choices(EMAIL_PROVIDERS, cum_weights=_PROVIDER_CUM_WEIGHTS)[0][0]
        return f"{local}@{provider}"

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

    # -- users -----------------------------------------------------------------------

    def users(self, registry: DemoRegistry) -> None:
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
            key = hashlib.sha1(f"fft-demo-club-token:{self.seed}".encode()).hexdigest()
            registry.club_token = api_token_issue(user=club_user.user, key=key)[1]


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

_AGE_CUM_WEIGHTS = list(accumulate(weight for _, _, weight in AGE_BUCKETS))
_LAST_NAME_CUM_WEIGHTS = list(accumulate(1 / (rank + 15) for rank in range(len(LAST_NAMES))))
_FIRST_NAME_CUM_WEIGHTS: dict[int, list[float]] = {}
_PROVIDER_CUM_WEIGHTS = list(accumulate(weight for _, weight in EMAIL_PROVIDERS))
_VOWELS = set("AEIOUYÂÀÉÈÊÎÏÔÛ")
_SILENT_H = {"Hyères"}


def _first_name_cum_weights(count: int) -> list[float]:
    """Lists of first names run from the most to the least given."""
    if count not in _FIRST_NAME_CUM_WEIGHTS:
        _FIRST_NAME_CUM_WEIGHTS[count] = list(accumulate(1 / (rank + 6) for rank in range(count)))
    return _FIRST_NAME_CUM_WEIGHTS[count]


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


def _of(city: str) -> str:
    """French "de" before a city name: de Lyon, d'Angers, du Mans, des Sables, de La Rochelle."""
    if city.startswith("Le "):
        return "du " + city[3:]
    if city.startswith("Les "):
        return "des " + city[4:]
    if city[0] in _VOWELS or city in _SILENT_H:
        return "d'" + city
    return "de " + city


def _club_name(
    rng: random.Random,
    city: str,
    patterns: list[str],
    cum_weights: list[int],
    used: set[str],
) -> str:
    for _ in range(20):
        pattern = rng.choices(patterns, cum_weights=cum_weights)[0]
        name = pattern.format(de=_of(city), city=city)
        if name not in used:
            return name
    suffix = 2
    while f"{name} {suffix}" in used:
        suffix += 1
    return f"{name} {suffix}"


def _slug(text: str) -> str:
    """For e-mail addresses: Lévêque -> leveque, Le Gall -> le-gall."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return "-".join(ascii_text.lower().replace("'", " ").split())


def _email_share(age: int) -> float:
    if age < 40:
        return 0.9
    if age < 60:
        return 0.8
    if age < 75:
        return 0.6
    return 0.35
