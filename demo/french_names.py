"""Names for demo people: common French first names by generation, frequent surnames (roughly
in INSEE order, so the first ones are drawn more often), and e-mail addresses at reserved
``.example`` domains. Nothing here is a real person.
"""

from __future__ import annotations

import random
import unicodedata
from itertools import accumulate

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


LAST_NAME_CUM_WEIGHTS = list(accumulate(1 / (rank + 15) for rank in range(len(LAST_NAMES))))
_FIRST_NAME_CUM_WEIGHTS: dict[int, list[float]] = {}
PROVIDER_CUM_WEIGHTS = list(accumulate(weight for _, weight in EMAIL_PROVIDERS))


def first_name_cum_weights(count: int) -> list[float]:
    """Lists of first names run from the most to the least given."""
    if count not in _FIRST_NAME_CUM_WEIGHTS:
        _FIRST_NAME_CUM_WEIGHTS[count] = list(accumulate(1 / (rank + 6) for rank in range(count)))
    return _FIRST_NAME_CUM_WEIGHTS[count]


def email_address(rng: random.Random, first_name: str, last_name: str) -> str:
    """An address such as people write theirs: ``jean.dupont``, ``j.dupont``, ... at a provider."""
    first, last = _slug(first_name), _slug(last_name)
    local = rng.choices(
        (f"{first}.{last}", f"{first[0]}.{last}", f"{first}{last}", f"{last}.{first}"),
        weights=(55, 15, 15, 15),
    )[0]
    if rng.random() < 0.25:
        local += str(rng.randint(1, 99))
    provider = rng.choices(EMAIL_PROVIDERS, cum_weights=PROVIDER_CUM_WEIGHTS)[0][0]
    return f"{local}@{provider}"


def _slug(text: str) -> str:
    """For e-mail addresses: Lévêque -> leveque, Le Gall -> le-gall."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return "-".join(ascii_text.lower().replace("'", " ").split())
