"""The checks :func:`~competitions.rules.results.validation.validate` runs over a results
document, one module per idea; each reports into one :class:`~.run.CheckRun`.

- :mod:`.run`: the run (its errors, warnings and what the checks share);
- :mod:`.sessions`: the sessions' numbers, tables (of 3, of 5) and the first session's seats;
- :mod:`.entries`: entries and players, licences and names, penalties, minimum participation;
- :mod:`.positions`: position scores, each table balancing, rounds and tables played;
- :mod:`.totals`: players' and entries' totals, summing to zero with the penalties;
- :mod:`.places`: the tie-break data, places by total ("1224") and by article 29;
- :mod:`.eliminations`: sessions with eliminations and divided (carried) scores.
"""
