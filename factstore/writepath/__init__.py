"""The write path's deterministic stages, as pure functions over plain data.

In the seed's order: gate (index pages) -> extract -> anchors (quote hygiene) -> absorb
(outcome absorption) -> topics (topic hygiene) -> tag translation (factstore.registry) ->
density check (in SQL, in the store) -> triage (lanes) -> write. The store wires them to SQL.
"""
