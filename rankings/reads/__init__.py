"""Reads of the national ranking, for the API, the pages and other apps: the selectors,
the public reads and their versions (the read cache's keys), a player's « Mes points »,
the « Et si… » simulation, the exports, the staff desk's reads and the SVG plots. They
read a season's ranking through ``rankings.season.ranking.Ranking`` and never choose an
engine."""
