"""Rulebooks, allocations and the national ranking (see the issues that build them)."""
