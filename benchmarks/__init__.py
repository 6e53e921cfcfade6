"""Benchmarks (not tests): ``python -m benchmarks.solve`` and ``python -m benchmarks.compare``."""
