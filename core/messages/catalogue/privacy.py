"""A player's privacy choice and personal data (:mod:`federation.privacy`, docs/privacy.md)."""

FRENCH: dict[str, str] = {
    "anonymous_player": "joueur ayant demandé l’anonymat",
    "privacy_not_allowed": "Vous n’avez pas le droit de modifier le choix de confidentialité de ce joueur.",
    "personal_data_not_found": "Ce joueur n’existe pas, ou vous n’avez pas accès à ses données.",
}
