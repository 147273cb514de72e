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
    "unknown_event_kind": (
        "«\xa0{value}\xa0» n’est pas un type d’épreuve\xa0; au choix\xa0: {choices} "
        "(tournoi libre, match par équipes, festival de tarot)."
    ),
    "event_kind_of_a_stage": (
        "Une épreuve d’un championnat est un championnat officiel, pas un «\xa0{event_kind}\xa0»\xa0: "
        "laissez le type d’épreuve à «\xa0free_tournament\xa0»."
    ),
    "team_match_format": (
        "Un match par équipes se joue par équipes\xa0: sa formule est l’une de {allowed}, "
        "non «\xa0{format}\xa0» (chapitre 2, tournois libres par équipes de 2 ou 4 joueurs)."
    ),
    "sessions_count_mismatch": (
        "{count} séances sont déclarées, mais le tournoi en prévoit {planned}\xa0: déclarez "
        "chaque séance prévue, ou aucune."
    ),
    "first_session_not_on_date": (
        "La séance 1 est déclarée le {date}\xa0: la date du tournoi ({tournament_date}) est "
        "celle de sa première séance."
    ),
    "first_session_not_at_venue": (
        "La séance 1 est déclarée à «\xa0{venue}\xa0»\xa0: le lieu du tournoi "
        "(«\xa0{tournament_venue}\xa0») est celui de sa première séance."
    ),
    "session_outside_season": "La séance {session} est déclarée le {date}, hors de la saison {season}.",
    "venue_too_long": "Le lieu de la séance {session} dépasse {limit} caractères.",
    "session_before_previous": (
        "La séance {session} est déclarée le {date}, avant la séance {previous} "
        "({previous_date})\xa0: les séances se déclarent dans l’ordre où elles se jouent."
    ),
    "several_days_not_allowed": (
        "La séance {session} est déclarée le {date}, un autre jour que la première séance "
        "({first_date})\xa0: cette épreuve se joue en un seul jour\xa0; seules les épreuves que "
        "le règlement de la saison autorise (les épreuves de championnat, «\xa0sur 2 "
        "après-midi\xa0») s’étendent sur plusieurs jours."
    ),
    "session_at_another_venue": (
        "La séance {session} est déclarée à «\xa0{venue}\xa0», pas au lieu de la première "
        "séance («\xa0{first_venue}\xa0»)\xa0: un tournoi homologué se déroule "
        "«\xa0simultanément sur le même lieu\xa0» (chapitre 5)."
    ),
}
