"""Player movements (mouvements des joueurs): which table and seat every player takes at each
position of a tournament.

Chapter 2 of the regulations ("Mouvements des joueurs", pages 25-27 of Fascicule 2) gives:

* the Howell FFT movement for 3 and 4 tables, printed as tables of player numbers;
* the normal FFT movement for 5 tables and more: North stays, South moves up one table,
  East up two, West down two, with special cases for 6, 8, 9, 10, 12, 14, 15, 16, 18 and 20
  tables;
* tables of 3 players when the number of entrants is not a multiple of 4 (the North seat of
  the highest tables is removed), page 17 ("Accueil des joueurs"); whether a player may sit
  at one twice is the season's ``ShortTableRule``, and every repeat is reported;
* team tournaments (duo and teams of 4), whose first played position is the second position
  of the movement, page 27.

Players are numbered by their starting seat, as the Howell tables do: table 1 North is 1,
South 2, East 3, West 4, table 2 North is 5, and so on. A plan is built from the printed data
then checked; a request the regulations cannot honour is refused with a
:class:`~core.problems.RuleViolation` saying why. One module per idea:

- :mod:`.printed`: the seat numbering, the printed Howell tables, the normal movement's
  moves and special cases, and the rows they give;
- :mod:`.settings`: what a season may change (``MovementSettings``);
- :mod:`.plan`: a plan (every table's seats at every position) and its repeats;
- :mod:`.planning`: ``plan_movement`` and ``max_positions``, the one door to a plan;
- :mod:`.tables_of_three`: which North seats are removed for tables of 3 players;
- :mod:`.tables_of_five`: the fifth players of tables of 5 (with a mort);
- :mod:`.checker`: ``check_plan``, every fault of a plan, located (a team plan: partners
  start at one table, played position k is row k + 1);
- :mod:`.formulas`: the planned formulas (positions × deals, fasc. 571) and whether the
  movement plays one for a field.
"""
