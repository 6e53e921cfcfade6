"""Puzzle generation (daily deals that are certainly winnable, with a known difficulty).

Not built yet: no issue asks for it so far. It will build on :mod:`model` and :mod:`solver`.
"""
