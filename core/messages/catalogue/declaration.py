"""A tournament's declaration (:mod:`competitions.tournaments.declaration`)."""

FRENCH: dict[str, str] = {
    "no_season": "Aucune saison de la fédération ne contient le {date}.",
    "unknown": "Numéro inconnu : {number}.",
    "not_an_arbiter": (
        "La licence {licence_number} n’est pas celle d’un arbitre officiel de la FFT "
        "pour la saison {season}."
    ),
    "min_value": "Un tournoi compte au moins {minimum} séance.",
    "unknown_placement": "Position {position}\xa0: «\xa0{value}\xa0» n’est pas une mise en place\xa0; au choix\xa0: {choices}.",
    "too_many_placements": "Au plus {limit} positions peuvent être annoncées, non {count}.",
    "stage_outside_a_championship": (
        "Un tournoi déclaré seul est un tournoi ordinaire\xa0: «\xa0{stage}\xa0» est une épreuve "
        "d’un championnat, créée depuis le championnat (sous un règlement régional qui a reçu "
        "l’aval du responsable de zone), qui seule donne son indice, son plafond et ses "
        "qualifications. Les épreuves se déroulant sans son aval sont nulles."
    ),
}
