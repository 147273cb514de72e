"""The Django layer of the championships (fascicule 2, chapter 3) over the pure rules of
``competitions.rules.championships`` and ``competitions.rules.engine``.

Modules: ``rules_store`` (per-season championship rules and committees' published regional
rules, as immutable versions), ``facts`` (a player's facts read from the registry and the
national ranking), ``stage_compliance`` (pure: do a stage's results meet the championship's
rules?), ``selectors`` (reads, without N+1), ``qualification`` (who is qualified, by which
right, what is still open: computed live), ``services`` (every write, one transaction each,
permissions checked inside). See ``docs/championships-service.md``.
"""
