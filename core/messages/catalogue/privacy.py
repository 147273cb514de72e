"""A player's privacy choice (:mod:`federation.privacy`, docs/privacy.md)."""

FRENCH: dict[str, str] = {
    "privacy_not_allowed": "Vous n’avez pas le droit de modifier le choix de confidentialité de ce joueur.",
}
