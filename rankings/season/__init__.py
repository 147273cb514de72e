"""The season's ranking, written and computed: the standings and season totals, the live
ranking (its Redis store, or its provisional snapshot), the snapshots (official, as of a
day) computed by the pure core or by generated SQL, the recomputes and their locks, the
series policy and the manual placements, the step notices. Behind one interface
(``ranking.Ranking``), the engines that answer readers (``engines``): every choice
between the Redis store and the database, and between PostgreSQL and SQLite, is made
here."""
