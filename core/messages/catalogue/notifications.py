"""The e-mails players choose (:mod:`federation.notification_choices`)."""

FRENCH: dict[str, str] = {
    "unknown_notification_kind": "« {kind} » n’est pas un type de message ; les types sont : {kinds}.",
    "notifications_need_player": "Seul un compte relié à un joueur reçoit ces messages : demandez à votre club de relier votre compte à votre licence.",
}
