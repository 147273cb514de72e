"""A tournament's declaration (:mod:`competitions.tournaments.declaration`)."""

FRENCH: dict[str, str] = {
    "no_season": "Aucune saison de la fédération ne contient le {date}.",
    "unknown": "Numéro inconnu : {number}.",
    "not_an_arbiter": (
        "La licence {licence_number} n’est pas celle d’un arbitre officiel de la FFT "
        "pour la saison {season}."
    ),
    "min_value": "Un tournoi compte au moins {minimum} séance.",
}
