"""The tournament day's pure parts: a session's layout (who sits where, by starting number,
at every table of every position) and who holds each starting number."""
