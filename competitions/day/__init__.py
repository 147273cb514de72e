"""The tournament day (« Jour de tournoi »): what the organiser, the arbiter and the tables do
from the entries to the results sent for homologation, one module per idea (docs/tournament-day.md).

- ``access``: who runs the day, who sees it, and the table's QR token;
- ``entries``: online entries, the cap and the waiting list, the fee, « Mes inscriptions »;
- ``room``: check-in, the draw and the movement of each session, the printouts;
- ``scoring``: the deals entered at the tables (or by the arbiter), their corrections;
- ``closing``: standings, penalties, abandons, the results document sent through the one
  door of results (``competitions.homologation``), the arbiter's report.
"""
