"""Benchmarks: engines, tables under load, restart (see README, Performance)."""
