"""The dry-run checks for clubs' software and staff (:mod:`competitions.dry_run`)."""

FRENCH: dict[str, str] = {
    "not_interclubs": "Ce championnat est le championnat «\xa0{kind}\xa0»\xa0: les compositions d’équipes se vérifient sur le championnat Interclubs.",
    "team_player_not_licensed": "Licence {licence}\xa0: pas de licence cette saison\xa0; une équipe réunit quatre joueurs licenciés dans le même club.",
    "not_eligible_age": "Licence {licence}\xa0: non admissible en raison de l’âge.",
    "not_eligible_suspension": "Licence {licence}\xa0: non admissible (suspension de jeu).",
    "not_eligible_licence_date": "Licence {licence}\xa0: non admissible (date de prise d’effet de la licence).",
    "no_results_to_check": "Aucun résultat n’a été envoyé pour ce tournoi\xa0: indiquez ses chiffres prévus (participants, tables, tables de 3).",
}
