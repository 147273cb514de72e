"""The Django layer of the championships (fascicule 2, chapter 3) over the pure rules of
``competitions.rules.championships`` and ``competitions.rules.engine``.

Reads: ``settings_versions`` (per-season championship rules and committees' published regional
rules, as immutable versions), ``facts`` (a player's facts read from the registry and the
national ranking), ``selectors`` (reads, without N+1), ``qualification`` (who is qualified,
by which right, what is still open: computed live).

Writes, one transaction each, permissions checked inside (``federation.access.scope_of``):

- ``championship_settings``: federation staff (CCN) create a season's championships,
  publish their settings, set the committees' quotas and the outgoing champion;
- ``regional``: committee staff (CCR) and the staff above them open their committee's
  regional championship and publish its rules; zone staff approve them (« aval »);
- ``stages``: the CCR creates its committee's regional stages, the CCN the national
  qualifier and final;
- ``entries``: the CCR enters players, duos and teams; club managers enter their own
  club's (every player of the entry licensed in a club they manage);
- ``qualification_records``: the CCN records the qualifications and registers the national
  final's field;
- ``running``: the stage's arbiter (and the staff covering its organiser) draws the
  first-session seating (article 25) and records late arrivals and forfeits (article 26);
- ``stage_results``: the organiser's staff submit a stage's results, the staff above
  homologate them;
- ``interclubs``: the CCN (or the task after each official ranking) re-checks the teams.

Refusals are ``RuleViolation`` (400, every problem located) or ``PermissionDenied`` (403),
raised through ``preconditions``; nothing is stored unless all is well. See
``docs/championships-service.md``.
"""
