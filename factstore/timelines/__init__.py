"""Bi-temporal timelines (seed 002): subject/attribute/value facts with valid time and belief
time, resolved by rules 1-7, read as of any instant, rendered for models and people.

Everything in this package is pure; ``factstore.store.timelines`` wires it to SQL.
"""
