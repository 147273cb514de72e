"""Sanctions against players (:mod:`federation.sanctions`, docs/sanctions.md)."""

FRENCH: dict[str, str] = {
    "unknown_sanction_kind": "«\xa0{value}\xa0» n’est pas une sanction\xa0; les sanctions sont\xa0: {kinds}.",
    "suspension_without_end": "Une suspension a une fin\xa0: indiquez son dernier jour.",
    "sanction_without_duration": "Cette sanction ({kind}) est donnée un jour et n’a pas de fin\xa0: laissez la fin vide.",
    "sanction_ends_not_after_start": "La sanction se termine le {ends}, pas après son début le {starts}.",
}
