"""The room on the day: check-in, late arrivals, no-shows, the draw of a session
(``competitions/day/room.py``)."""

FRENCH: dict[str, str] = {
    "day_room_not_runner": "Seuls l’arbitre du tournoi et les responsables de l’organisateur tiennent la salle.",
    "day_room_no_entry": "Il n’y a pas d’inscription n° {number}.",
    "day_room_not_entered": "L’inscription n° {number} est « {state} » : seule une inscription retenue peut être présente.",
    "day_room_seated": "L’inscription n° {number} est placée dans la séance {session}, en cours : déclarez un abandon plutôt qu’une absence.",
    "day_room_member_count": "Une inscription de ce tournoi compte {size} joueur(s), pas {given}.",
    "day_room_unknown_licence": "Aucun licencié ne porte le numéro de licence {licence}.",
    "day_room_already_entered": "Le licencié {licence} est déjà inscrit à ce tournoi.",
    "day_room_bad_name": "Un joueur non licencié s’inscrit par un nom de 1 à 200 caractères.",
    "day_room_team_name_long": "Un nom d’équipe compte au plus 100 caractères.",
    "day_room_no_session": "La séance {session} n’est pas tirée ; la prochaine est la séance {next}.",
    "day_room_scores_exist": "Des scores de la séance {session} sont déjà saisis : elle ne peut plus être tirée à nouveau.",
    "day_room_placement_not_allowed": "La séance {session} ne peut pas utiliser ce placement ; placements possibles : {allowed}.",
    "day_room_nobody_present": "Personne n’est marqué présent : pointez les joueurs avant le tirage.",
    "day_room_deals_range": "Une position compte de 1 à {max} donnes.",
    "day_room_session_not_drawn": "La séance {session} n’est pas tirée.",
    "day_room_no_cut": "La table du comité ne prévoit pas d’élimination après la position {position} de la séance {session}.",
    "day_room_cut_position_incomplete": "La position {position} de la séance {session} n’est pas complète : qui continue après l’élimination se décide quand toutes les tables l’ont saisie.",
    "day_room_phase_not_drawn": "La séance {session} a une élimination après la position {position} : tirez d’abord la suite de cette séance.",
    "day_room_positions_to_cut": "La séance {session} a une élimination après la position {position} : tirez {positions} position(s).",
    "day_room_phase_scores_exist": "Des scores sont saisis après l’élimination de la position {position} de la séance {session} : la suite ne peut plus être tirée à nouveau.",
}
