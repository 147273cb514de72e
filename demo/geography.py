"""Where the demo federation plays: 7 zones, 25 regional committees (pre-2016 regions,
Île-de-France split in three), each with a relative size and its main cities, and the
names clubs take there. The places are real; the clubs are invented.
"""

from __future__ import annotations

import random

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


_VOWELS = set("AEIOUYÂÀÉÈÊÎÏÔÛ")
_SILENT_H = {"Hyères"}


def _of(city: str) -> str:
    """French "de" before a city name: de Lyon, d'Angers, du Mans, des Sables, de La Rochelle."""
    if city.startswith("Le "):
        return "du " + city[3:]
    if city.startswith("Les "):
        return "des " + city[4:]
    if city[0] in _VOWELS or city in _SILENT_H:
        return "d'" + city
    return "de " + city


def club_name(
    rng: random.Random,
    city: str,
    patterns: list[str],
    cum_weights: list[int],
    used: set[str],
) -> str:
    """A club name in ``city`` not in ``used``, drawn from ``patterns``."""
    for _ in range(20):
        pattern = rng.choices(patterns, cum_weights=cum_weights)[0]
        name = pattern.format(de=_of(city), city=city)
        if name not in used:
            return name
    suffix = 2
    while f"{name} {suffix}" in used:
        suffix += 1
    return f"{name} {suffix}"
