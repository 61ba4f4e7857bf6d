"""Benchmarks of the arbiter: `make bench` (see bench/run.py)."""
