"""The service's own faults and limits, as a reader sees them (:mod:`core.http.api_errors`,
:mod:`core.http.throttles`)."""

FRENCH: dict[str, str] = {
    "service_unavailable": "Le service est momentanément indisponible\xa0: sa base de données ne répond pas. Réessayez dans {retry_after}\xa0secondes.",
    "too_many_pages": "Trop de pages demandées depuis votre adresse\xa0: réessayez dans {wait}\xa0secondes.",
}
