"""Pure rules core of the FFT donnes-libres championships (fascicule 2, chapter 3).

Modules (the four championships and their stage kinds are ``core.vocabulary``): ``seasons``,
``championship_rules`` (per-season settings), ``player_facts``, ``eligibility`` (entry
checks), ``team_composition`` (interclubs series rule), ``regional_rules`` (a committee's
published rules and their check), ``qualification`` (national final and regional-final
carry-overs), ``season_calendar`` (a season's four championships). No Django, no I/O.
"""
