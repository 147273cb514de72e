"""The day's room pages: check-in, the draw, the room plan, the printouts, and each player's
own page of where to sit."""

from django.urls import path

from competitions.day import room_pages

urlpatterns = [
    path("tournois/<int:pk>/jour/accueil/", room_pages.checkin, name="day-checkin"),
    path(
        "tournois/<int:pk>/jour/accueil/<int:number>/",
        room_pages.checkin_toggle,
        name="day-checkin-toggle",
    ),
    path(
        "tournois/<int:pk>/jour/accueil/retardataire/",
        room_pages.late_arrival,
        name="day-late-arrival",
    ),
    path("tournois/<int:pk>/jour/accueil/forfaits/", room_pages.no_shows, name="day-no-shows"),
    path("tournois/<int:pk>/jour/tirage/", room_pages.draw, name="day-draw"),
    path("tournois/<int:pk>/jour/tirage/suite/", room_pages.draw_phase, name="day-draw-phase"),
    path(
        "tournois/<int:pk>/jour/seances/<int:number>/",
        room_pages.room_plan,
        name="day-room-plan",
    ),
    path(
        "tournois/<int:pk>/jour/seances/<int:number>/cartes.pdf",
        room_pages.table_cards,
        name="day-table-cards",
    ),
    path(
        "tournois/<int:pk>/jour/seances/<int:number>/fiches.pdf",
        room_pages.movement_sheets,
        name="day-movement-sheets",
    ),
    path(
        "tournois/<int:pk>/jour/seances/<int:number>/feuilles.pdf",
        room_pages.score_sheets,
        name="day-score-sheets",
    ),
    path("tournois/<int:pk>/mes-places/", room_pages.my_seats, name="day-my-seats"),
]
