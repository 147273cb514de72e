"""What the API reads before any rule (:mod:`core.json_body`, :mod:`core.http.parsers`,
:mod:`core.http.middleware`, :mod:`core.settings_reader`), the API's own refusals
(:mod:`competitions.api`), the tournaments' homologation
(:mod:`competitions.tournaments.homologation`) and the metrics endpoint (``config/metrics.py``)."""

FRENCH: dict[str, str] = {
    # --- the request's body --------------------------------------------------------------------
    "too_deep": "Un JSON imbriqué sur plus de {max_depth} niveaux n’est pas accepté.",
    "null_character": "Ce texte contient un caractère NUL (\\u0000 ou %00), qui n’est pas accepté.",
    "invalid_json": "Le document n’est pas du JSON valide.",
    "duplicate_key": "La clé « {key} » apparaît deux fois dans le même objet JSON ; chaque champ n’est donné qu’une fois.",
    "not_utf8": "Le contenu n’est pas un texte UTF-8.",
    "too_many_fields": "La requête compte plus de {max_fields} champs (paramètres d’adresse ou de formulaire)\xa0: elle est refusée.",
    "too_many_files": "La requête envoie plus de {max_files} fichiers\xa0: elle est refusée.",
    "request_too_large": "Le corps de la requête dépasse {max_bytes} octets\xa0: il est refusé.",
    "bad_request": "La requête est mal formée\xa0: elle est refusée.",
    "not_an_object": "Le corps de la requête doit être un objet JSON ({{…}}).",
    # --- settings documents (core/settings_reader.py) ------------------------------------------
    "unknown_key": "« {key} » n’est pas un réglage connu.",
    "unknown_value": "La valeur « {value} » n’est pas reconnue.",
    "duplicate": "La liste répète une valeur.",
    # --- the API's own refusals ----------------------------------------------------------------
    "invalid": "If-Match doit être l’ETag d’une révision, par exemple « 3 ».",
    "mismatch": "La révision du corps de la requête et celle de l’en-tête If-Match diffèrent.",
    # --- the metrics endpoint (config/metrics.py) ----------------------------------------------
    "metrics_unauthorised": "Un jeton de métriques valide est requis.",
    # --- homologation of a tournament ----------------------------------------------------------
    "stale_revision": "La révision {reviewed} a été examinée, mais la dernière révision est la {latest} : examinez la révision {latest} avant d’homologuer.",
    "not_submitted": "Seuls des résultats déposés peuvent être homologués ou refusés (état : {status}).",
    "not_homologated": "Seul un tournoi homologué se corrige ; sinon, déposez de nouveaux résultats.",
}
