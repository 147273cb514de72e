"""The day's standings, penalties, abandons and end (:mod:`competitions.day.closing`,
:mod:`competitions.day.penalties`)."""

FRENCH: dict[str, str] = {
    "day_run_refused": "Seuls l’arbitre du tournoi et les responsables de l’organisateur mènent sa journée.",
    "day_see_refused": "Seuls ceux qui mènent ou supervisent le tournoi voient sa journée.",
    "day_round_incomplete": "Indiquez la séance et la position, ou ni l’une ni l’autre.",
    "day_round_unknown": "La séance {session}, position {position} n’a pas été tirée.",
    "day_reason_too_long": "Au plus {limit} caractères.",
    "day_lateness_required": "Indiquez le retard en minutes\xa0: un retard coûte 100 points par fraction de {period} minutes (article 26).",
    "day_points_required": "Le texte ne fixe pas de montant pour «\xa0{label}\xa0»\xa0: indiquez les points (de 0 à {limit}).",
    "day_penalty_amount_differs": "Une pénalité «\xa0{label}\xa0» coûte ici {expected} points (infraction n° {offence} selon la règle de récidive de la saison), et non {points}.",
    "day_member_unknown": "Ce joueur n’est pas inscrit à ce tournoi.",
    "day_penalty_non_licensee": "{name} n’a pas de numéro de licence\xa0: les résultats ne portent une pénalité que sur un numéro de licence.",
    "day_sheet_fault_is_the_tables": "Une faute sur la feuille de marque est celle de toute la table\xa0: enregistrez-la pour la table.",
    "day_table_unknown": "La table {table} ne joue pas la position {position}.",
    "day_penalty_already_removed": "Cette pénalité a déjà été retirée.",
    "day_entry_unknown": "Aucune inscription n° {number} n’est inscrite à ce tournoi.",
    "day_abandon_already": "L’inscription n° {number} a déjà abandonné (séance {session}, après la position {position}).",
    "day_abandon_unknown": "L’inscription n° {number} n’a pas abandonné.",
    "day_nothing_entered": "Aucune donne n’a été saisie\xa0: il n’y a pas encore de résultats.",
    "day_changed_since_preview": "Les scores ont changé depuis l’aperçu\xa0: vérifiez le nouvel aperçu avant d’envoyer.",
}
