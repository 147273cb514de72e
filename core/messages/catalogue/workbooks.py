"""The French text of the codes of an uploaded workbook that cannot be read
(:mod:`core.text_files`), shared by the results and the licence imports."""

FRENCH: dict[str, str] = {
    "workbook_encrypted": "Ce classeur est protégé par un mot de passe\xa0: retirez le mot de passe (Fichier > Informations > Protéger le classeur) et envoyez-le de nouveau.",
    "workbook_xls": "C’est un ancien classeur Excel (.xls)\xa0: dans Excel, choisissez «\xa0Enregistrer sous\xa0» et le type «\xa0Classeur Excel (.xlsx)\xa0» ou «\xa0CSV UTF-8\xa0», puis envoyez ce fichier-là.",
    "workbook_unreadable": "Ce fichier n’est pas un classeur lisible (endommagé, ou un autre type de document)\xa0: enregistrez-le au format «\xa0Classeur Excel (.xlsx)\xa0» ou «\xa0CSV UTF-8\xa0».",
    "workbook_empty": "Ce classeur ne contient aucune cellule remplie.",
    "workbook_several_sheets": "Ce classeur a {count} feuilles remplies ({sheets})\xa0: gardez seulement la feuille à envoyer (supprimez les autres) et envoyez-le de nouveau.",
    "workbook_too_large": "Ce classeur est trop grand pour être lu (au plus {rows} lignes, {columns} colonnes et {mib} Mio une fois décompressé).",
}
