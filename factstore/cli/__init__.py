"""The ``factstore`` command line: every Store tool as a command, readable or ``--json``.

The CLI is a thin shell over ``factstore.Store``: it parses arguments, opens the store lazily
(only commands that need it pay for it), calls exactly one Store method per command and
renders the frozen result. Every ``FactStoreError`` becomes ``error: <message>`` on stderr
with exit code 2, or 4 for something not found and 5 for an unavailable database
(``shell.exit_code``); bad usage is typer's own exit code 2.

The package, one module per concept:

- ``shell``      the typer app, global options and state, the store hook, errors, ``main()``
- ``formatting`` results to JSON values, and the small text cells renderers are built from
- ``render``     the rich renderers shared by the core commands and ``factstore.demo``
- ``commands``   describe, remember, recall, conflicts, resolve, both-stand, fact, demo
- ``tags``       the ``tags`` sub-app (the tag registry)
- ``attributes`` the ``attributes`` sub-app (the compiler's attribute registry, its log)
- ``questions``  the ``questions`` sub-app (the triage queue)
- ``facts``      the ``facts`` sub-app (bi-temporal timelines)
- ``evals``      the ``eval`` sub-app (run, record and compare eval suites)
- ``server``     the ``server`` sub-app (the embedded Postgres: status, stop)
- ``migrate``    ``factstore migrate`` (document archives, through factstore.migration)
- ``testimony``  claims, why, context, lineages, lineage-mode, remove-source,
                 restore-source, group (the claim layer and the evidence bridge)
- ``entities``   entities, entity, aliases, alias, merge, unmerge, merge-proposals,
                 reject-merge, relations, neighbours, mentions, refresh-profiles
"""

from __future__ import annotations

from collections.abc import Callable

# Importing ``commands`` registers the core commands on ``app``; the sub-apps are added below.
from factstore.cli.attributes import attributes_app
from factstore.cli.commands import DEMO_DATABASE
from factstore.cli.entities import entities, entity  # noqa: F401  (register the commands)
from factstore.cli.evals import evals_app
from factstore.cli.facts import facts_app
from factstore.cli.formatting import to_jsonable
from factstore.cli.migrate import extract, migrate  # noqa: F401  (register the commands)
from factstore.cli.questions import questions_app, render_questions
from factstore.cli.render import render_conflict, render_interrupt, render_recall, render_remember
from factstore.cli.scopes import scopes_app
from factstore.cli.serve import serve  # noqa: F401  (register the command)
from factstore.cli.server import server_app
from factstore.cli.shell import CliState, GlobalOptions, app, main, open_store
from factstore.cli.tags import tags_app
from factstore.cli.testimony import claims, why  # noqa: F401  (register the commands)
from factstore.cli.tokens import tokens_app
from factstore.store import Store

__all__ = [
    "DEMO_DATABASE",
    "CliState",
    "GlobalOptions",
    "app",
    "main",
    "open_store",
    "render_conflict",
    "render_interrupt",
    "render_questions",
    "render_recall",
    "render_remember",
    "to_jsonable",
]

# The sub-apps, in the order ``factstore --help`` lists them (after the core commands).
app.add_typer(tags_app, name="tags")
app.add_typer(attributes_app, name="attributes")
app.add_typer(questions_app, name="questions")
app.add_typer(facts_app, name="facts")
app.add_typer(evals_app, name="eval")
app.add_typer(server_app, name="server")
app.add_typer(tokens_app, name="tokens")
app.add_typer(scopes_app, name="scopes")

#: How every command gets its Store. A module-level hook so tests (and embedding programs)
#: can supply a store built their own way; called at most once per invocation. Commands look
#: it up here at call time (``shell._store``), so assigning ``factstore.cli._store_factory``
#: takes effect.
_store_factory: Callable[[GlobalOptions], Store] = open_store
