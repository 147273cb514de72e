"""Sanctions against players (:mod:`federation.sanctions`, docs/sanctions.md)."""

FRENCH: dict[str, str] = {
    "proposal_not_federation_staff": "Seul le personnel fédéral (CCN) décide d’une suspension.",
    "proposal_already_decided": "Cette proposition n’est plus à décider (elle est\xa0: {status}).",
    "unknown_sanction_kind": "«\xa0{value}\xa0» n’est pas une sanction\xa0; les sanctions sont\xa0: {kinds}.",
    "suspension_without_end": "Une suspension a une fin\xa0: indiquez son dernier jour.",
    "sanction_without_duration": "Cette sanction ({kind}) est donnée un jour et n’a pas de fin\xa0: laissez la fin vide.",
    "sanction_ends_not_after_start": "La sanction se termine le {ends}, pas après son début le {starts}.",
}
