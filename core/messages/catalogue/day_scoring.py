"""Score entry on the tournament day (:mod:`competitions.day.scoring`,
:mod:`competitions.day.table_tokens`)."""

FRENCH: dict[str, str] = {
    "table_link_unknown": (
        "Ce lien de table est inconnu\xa0: scannez à nouveau le QR code de votre table."
    ),
    "table_entry_closed": (
        "La saisie à la table est close pour ce tournoi\xa0: adressez-vous à l’arbitre."
    ),
    "day_results_sent": (
        "Les résultats de ce tournoi sont transmis\xa0: ses donnes se corrigent désormais "
        "par les résultats."
    ),
    "day_mort_missing": (
        "Donne {deal}\xa0: à une table de 5, un joueur (le mort) ne joue pas la donne\xa0; "
        "indiquez qui."
    ),
    "day_mort_blocked_by_later_deal": (
        "Donne {entered}\xa0: ce mort ne s’accorde pas avec la donne {deal}, déjà "
        "enregistrée ({seat_word} y est le mort, mais ce serait au tour de {expected_words})\xa0: "
        "vérifiez le mort de la donne {entered}\xa0; s’il est juste, appelez l’arbitre, qui "
        "seul corrige la donne {deal}."
    ),
    "day_deal_out_of_range": (
        "Une position compte ici les donnes 1 à {deals}, pas «\xa0{value}\xa0»."
    ),
    "day_totals_already_entered": (
        "Cette table a saisi ses bilans de position\xa0: adressez-vous à l’arbitre."
    ),
    "day_deal_already_kept": (
        "La donne {deal} de cette table est déjà enregistrée avec un autre contenu\xa0: "
        "seul l’arbitre peut la corriger désormais."
    ),
    "day_totals_not_allowed": (
        "Dans ce tournoi, chaque donne est saisie\xa0: pas de bilans de position."
    ),
    "day_deals_already_entered": (
        "Cette table a saisi des donnes à cette position\xa0: adressez-vous à l’arbitre."
    ),
    "day_totals_already_kept": (
        "Les bilans de cette table sont déjà enregistrés avec d’autres chiffres\xa0: seul "
        "l’arbitre peut les corriger désormais."
    ),
    "day_seat_not_at_table": "{seat} n’est pas une place de cette table ({seats}).",
    "day_total_not_an_integer": "Le score en {seat} doit être un nombre entier.",
    "day_totals_do_not_sum_to_zero": (
        "Les scores de la table totalisent {total}\xa0; ils doivent totaliser zéro."
    ),
    "day_reason_required": "Indiquez pourquoi vous faites cette correction.",
    "day_correction_reason_too_long": "Le motif compte au plus {limit} caractères.",
    "day_deal_not_kept": "La donne {deal} de cette table n’est pas enregistrée.",
    "day_totals_not_kept": "Les bilans de cette table ne sont pas enregistrés.",
    "day_totals_beside_deals": (
        "Cette table a des donnes enregistrées à cette position\xa0: retirez-les d’abord."
    ),
    "too_many_requests_table": (
        "Trop de demandes pour cette table\xa0: réessayez dans {wait}\xa0secondes."
    ),
}
