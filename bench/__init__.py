"""Benchmarks: engines, tables under load, restart (see docs/performance.md)."""
