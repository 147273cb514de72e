"""Duplicate player records found and merged (:mod:`portal.merging`,
:mod:`federation.rules.duplicates`, docs/duplicates.md)."""

FRENCH: dict[str, str] = {
    "merge_same_record": "Une fiche ne peut pas être fusionnée avec elle-même.",
    "player_already_merged": "La fiche de la licence {licence} a déjà été fusionnée avec une autre.",
    "merge_two_licences_in_season": "Les deux fiches ont une licence la même saison ({values})\xa0: un joueur ne peut pas en avoir deux.",
    "merge_two_arbiter_grades_in_season": "Les deux fiches ont un grade d’arbitre la même saison ({values}).",
    "merge_two_placements_in_season": "Les deux fiches ont un placement manuel au classement de la même saison ({values}).",
    "merge_same_results": "Les deux fiches figurent dans les mêmes résultats (révisions {values})\xa0: elles ont joué l’une contre l’autre.",
    "merge_same_stage": "Les deux fiches sont inscrites aux mêmes stades de championnat ({values}).",
    "merge_same_title": "Les deux fiches ont un titre des mêmes stades de championnat ({values}).",
    "merge_two_accounts": "Les deux fiches sont liées à un compte utilisateur\xa0: retirez d’abord le lien de l’une d’elles.",
    "merge_conflict": "Ces fiches ne peuvent pas être fusionnées\xa0: le joueur aurait deux fois ce qu’il ne peut avoir qu’une fois.",
    "merged_records_in_results": "Deux lignes des résultats de «\xa0{tournament}\xa0» désignent le même joueur, dont les fiches ont été fusionnées depuis\xa0: corrigez les résultats.",
    "not_a_whole_number": "«\xa0{value}\xa0» n’est pas un nombre entier.",
    "not_merge_pair": "Choisissez deux fiches différentes, dont l’une est gardée.",
}
