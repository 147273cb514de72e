"""Tournaments, results and championships (see the issues that build them)."""
