"""Pure rules of the PCN (fascicule 1, chapter 5): the scales of a tournament's points
(``scales``), how a homologated tournament's points are shared among its players
(``allocation``), and the national finals' fixed tables (``national_finals``). No Django,
no I/O."""
