"""The shared fixtures of the day build what they say."""

from competitions.rules.day.layout import layout_from_json, seating_from_json


def test_day_field_is_a_drawn_session_of_twelve_present(day_field):
    layout = layout_from_json(day_field.session.plan)
    seating = seating_from_json(day_field.session.seating)
    assert len(day_field.entries) == 12
    assert {holder.entry for holder in seating.values()} == set(range(1, 13))
    assert len(layout.positions) == 4
    assert len(layout.tables_at(1)) == 3


def test_a_duo_field_seats_both_members(day_tournament, enter_players, draw_session):
    tournament = day_tournament(format="duo")
    enter_players(tournament, 8)
    seating = seating_from_json(draw_session(tournament, positions=3).seating)
    assert sorted((h.entry, h.member) for h in seating.values()) == [
        (e, m) for e in range(1, 9) for m in (1, 2)
    ]


def test_tables_of_five_seat_a_fifth_player(day_tournament, enter_players, draw_session):
    tournament = day_tournament(tables_of_five=True)
    enter_players(tournament, 13)
    layout = layout_from_json(draw_session(tournament).plan)
    assert sorted(table.size for table in layout.tables_at(1)) == [4, 4, 5]
