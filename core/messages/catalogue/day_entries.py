"""The entries before the tournament's day (:mod:`competitions.day.entries`) and the
declaration's facts for the day (:mod:`competitions.tournaments.declaration`)."""

FRENCH: dict[str, str] = {
    "entry_fee_invalid": "Le droit d’inscription est un montant en euros de 0 à {maximum} €, au centime près.",
    "entry_cap_invalid": "Le plafond d’inscriptions est un nombre d’inscriptions de 1 à {maximum}.",
    "day_entry_need_licence": "Seul un joueur licencié s’inscrit en ligne, avec un compte relié à sa licence ; l’organisateur inscrit les autres.",
    "day_entry_full": "Le tournoi est complet ({cap} inscriptions) : acceptez la liste d’attente pour recevoir la première place libérée.",
    "day_entry_player_taken": "Un joueur de cette inscription est déjà inscrit à ce tournoi.",
    "day_entry_already_entered": "La licence {licence} est déjà dans l’inscription n° {entry} de ce tournoi.",
    "day_entries_closed": "Les inscriptions à ce tournoi sont closes : sa date est passée ou ses résultats sont envoyés.",
    "day_entries_not_online": "L’organisateur ne prend pas les inscriptions en ligne pour ce tournoi : adressez-vous à lui.",
    "day_entry_size": "Une inscription à ce tournoi compte {size} joueur(s), pas {given}.",
    "day_entry_names_by_organiser": "Seul l’organisateur inscrit par son nom un joueur sans licence.",
    "day_entry_name_invalid": "Le nom d’un joueur : de 1 à {maximum} caractères.",
    "day_entry_only_yourself": "Un joueur s’inscrit lui-même (avec les partenaires qu’il nomme).",
    "day_entry_duplicate": "La licence {licence} est nommée deux fois.",
    "day_entry_not_licensed": "Licence {licence} : aucun joueur licencié pour la saison {season} ; un joueur sans licence est inscrit par son nom, par l’organisateur.",
    "day_entry_suspended": "La licence {licence} est suspendue de jeu le jour du tournoi ({date}).",
    "day_stage_entry_by_licence": "Les inscriptions d’une épreuve de championnat sont des licenciés, inscrits par leur numéro de licence.",
    "day_entry_not_found": "Inscription introuvable.",
    "day_tournament_not_found": "Tournoi introuvable.",
    "day_entries_not_runner": "Seuls les gestionnaires de l’organisateur et l’arbitre du tournoi gèrent ses inscriptions.",
    "day_entry_withdrawn_already": "L’inscription n° {entry} est déjà retirée.",
    "day_withdraw_too_late": "Le jour du tournoi est passé ou sa première séance est tirée : demandez à l’arbitre de vous retirer.",
}
