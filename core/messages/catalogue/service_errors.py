"""The services' generic refusals (:mod:`core.errors`), when a service gives no finer code."""

FRENCH: dict[str, str] = {
    "service_error": "La demande n’a pas pu être traitée.",
    "permission_denied": "Vous n’avez pas le droit de faire cela.",
    "not_found": "Cet objet n’existe pas, ou vous n’y avez pas accès.",
    "conflict": "La demande contredit l’état actuel de l’objet.",
}
