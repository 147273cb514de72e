"""The service's own faults, as a reader sees them (:mod:`core.http.api_errors`)."""

FRENCH: dict[str, str] = {
    "service_unavailable": "Le service est momentanément indisponible\xa0: sa base de données ne répond pas. Réessayez dans {retry_after}\xa0secondes.",
}
