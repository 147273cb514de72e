"""The federation's registry (:mod:`federation`): the licence file and its import, API
tokens."""

FRENCH: dict[str, str] = {
    # --- the licence file (federation/rules/licence_file.py) -----------------------------------
    "empty_file": "Le fichier est vide.",
    "unreadable_line": "Cette ligne ne peut pas être lue comme du CSV.",
    "unclosed_quote": "Une valeur de cette ligne se poursuit jusqu’à la ligne {next_line} : un guillemet double n’est sans doute pas fermé.",
    "no_lines": "Le fichier a une ligne d’en-tête mais aucune ligne de licencié.",
    "encoding": "L’encodage du fichier n’est pas lisible : enregistrez-le en « CSV UTF-8 (délimité par des virgules) » et vérifiez les accents.",
    "unnamed_column": "La colonne {index} de l’en-tête n’a pas de nom.",
    "unknown_column": "« {column} » n’est pas une colonne connue ; les colonnes sont : {columns}.",
    "duplicate_column": "La colonne « {column} » apparaît deux fois.",
    "missing_column": "Il manque la colonne « {column} ».",
    "too_many_values": "La ligne a {values} valeurs, mais l’en-tête a {columns} colonnes (une valeur qui contient le séparateur doit être entre guillemets doubles).",
    "required": "Cette information est obligatoire.",
    "control_character": "« {column} » contient un caractère de contrôle.",
    "not_a_name": "« {value} » n’est pas un nom : il ne contient aucune lettre.",
    "too_long": "Cette valeur est trop longue : {maximum} caractères au plus.",
    "malformed_date": "« {value} » n’est pas une date : écrivez JJ/MM/AAAA ou AAAA-MM-JJ, l’année en entier.",
    "implausible_date": "La date {date} n’est pas plausible : elle doit être postérieure au 1er janvier 1900 et ne pas dépasser aujourd’hui ({today}).",
    "invalid_email": "« {value} » n’est pas une adresse électronique.",
    "invalid_phone": "« {value} » n’est pas un numéro de téléphone (chiffres, espaces et + . - ( ) seulement).",
    "duplicate_licence_number": "Ce numéro de licence figure deux fois ; un joueur n’apparaît qu’une fois.",
    # --- the import (federation/licence_registry.py) -------------------------------------------
    "unknown_club": "Aucun club ne porte le numéro FFT {club}.",
    "player_outside_scope": "La licence {licence} est au club {club} du comité {committee}, hors de votre périmètre : seul le personnel fédéral change un joueur de comité.",
    "clubs_outside_scope": "Vous ne pouvez importer des licences que pour les clubs de votre périmètre ; ce fichier en a dans des clubs hors de votre périmètre : {clubs}. Rien n’a été importé.",
    "concurrent_change": "Le registre a changé pendant l’import de ce fichier (un autre import ?) ; rien n’a été importé. Réessayez.",
    # --- signing in for a token (federation/api/tokens.py, federation/pages.py) ------------------
    "invalid_credentials": "Identifiant ou mot de passe incorrect.",
    "locked_out": "Trop de tentatives : après {limit} mauvais mots de passe, la connexion à ce compte depuis cette adresse est suspendue. Réessayez dans {minutes} minutes, ou choisissez un nouveau mot de passe.",
    "address_locked_out": "Trop de tentatives : après {limit} échecs de connexion depuis cette adresse, la connexion depuis celle-ci est suspendue. Réessayez dans {minutes} minutes.",
}
