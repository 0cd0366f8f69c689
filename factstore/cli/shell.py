"""The typer app itself: global options, per-invocation state, opening the store through
the package's ``_store_factory`` hook, errors as messages, and the ``main()`` entry point.

The core commands register themselves on ``app`` from ``commands``; ``factstore.cli`` adds
the ``tags`` and ``questions`` sub-apps, so importing the package builds the whole app.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import click
import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from typer.core import TyperGroup

from factstore.cli.formatting import to_jsonable
from factstore.embedders import EMBEDDER_CHOICES, embedder_from_name
from factstore.embedders.base import Embedder
from factstore.errors import DatabaseUnavailable, FactStoreError, InvalidInput, NotFound
from factstore.extractors import DEFAULT_EXTRACTOR, EXTRACTOR_CHOICES, extractor_from_name
from factstore.extractors.base import Extractor
from factstore.store import Store

__all__ = ["EXIT_ERROR", "EXIT_INTERNAL", "EXIT_NOT_FOUND", "EXIT_UNAVAILABLE", "CliState",
           "GlobalOptions", "app", "main", "exit_code", "open_store", "read_input"]

#: Exit codes: 0 done; 2 a refused call or bad usage (``error: ...`` says why); 3 a fault
#: in factstore itself (``internal error: ...``; FACTSTORE_DEBUG=1 shows the traceback); 4
#: what was asked for does not exist (no such fact, conflict, run...); 5 the database is
#: unavailable or busy (worth retrying later; the call changed nothing).
EXIT_ERROR = 2
EXIT_INTERNAL = 3
EXIT_NOT_FOUND = 4
EXIT_UNAVAILABLE = 5


def exit_code(error: FactStoreError) -> int:
    """The exit code a refused call ends with (see the constants above)."""
    if isinstance(error, NotFound):
        return EXIT_NOT_FOUND
    if isinstance(error, DatabaseUnavailable):
        return EXIT_UNAVAILABLE
    return EXIT_ERROR


# -- options, state and the store hook ---------------------------------------------------


@dataclass(frozen=True)
class GlobalOptions:
    """The app-wide options, as given on the command line (or their environment variables)."""

    home: Path | None = None
    dsn: str | None = None
    database: str | None = None
    embedder: str = "local"
    extractor: str = DEFAULT_EXTRACTOR
    json: bool = False
    #: entity resolution's T4: rules | ollama | ollama:<model>
    resolver: str = "rules"
    #: what reads plain statements into timelines: parser | none | ollama[:model]
    compiler: str = "parser"


@dataclass
class CliState:
    """Per-invocation state: the options, the console, and the store once something opens it."""

    options: GlobalOptions
    console: Console
    store: Store | None = field(default=None, repr=False)


def open_store(options: GlobalOptions, *, embedder: Embedder | None = None,
               extractor: Extractor | None = None) -> Store:
    """Open the store the options name; ``embedder``/``extractor`` override the named specs.

    This is the default ``_store_factory``. Tests swap the factory for one that passes an
    already-loaded embedder, so each command does not reload the model. With
    ``FACTSTORE_SERVER`` set, the running server answers instead (cli/remote.py).
    """
    from factstore.cli import remote

    url = remote.server_url()
    if url is not None:
        return remote.RemoteStore(url, remote.token_for(options.home))  # type: ignore[return-value]
    return open_local_store(options, embedder=embedder, extractor=extractor)


def open_local_store(options: GlobalOptions, *, embedder: Embedder | None = None,
                     extractor: Extractor | None = None, pool_size: int = 4) -> Store:
    """The store in this process (what ``factstore serve`` itself opens, with a larger
    pool: its requests run concurrently)."""
    from factstore.compiler import compiler_from_name
    from factstore.entities.resolvers import resolver_from_name

    return Store.open(
        options.dsn, home=options.home, database=options.database,
        embedder=embedder or embedder_from_name(options.embedder),
        extractor=extractor or extractor_from_name(options.extractor),
        resolver=resolver_from_name(options.resolver), pool_size=pool_size,
        compiler=compiler_from_name(options.compiler))


def _state(ctx: typer.Context) -> CliState:
    state = ctx.find_object(CliState)
    if state is None:  # only when a command is invoked without the app callback
        state = CliState(GlobalOptions(), _console())
        ctx.obj = state
    return state


def _store(ctx: typer.Context, options: GlobalOptions | None = None) -> Store:
    """Open the store on first use in this invocation; it closes when the command ends."""
    # The hook is looked up on the package at call time, so swapping
    # ``factstore.cli._store_factory`` (as the tests do) takes effect.
    from factstore import cli

    state = _state(ctx)
    if state.store is None:
        state.store = cli._store_factory(options or state.options)
        ctx.find_root().call_on_close(state.store.close)
    return state.store


class _ErrorsAsMessages(TyperGroup):
    """Turns every FactStoreError into ``error: <message>`` on stderr and its exit code (under
    ``--json``, ``{"error": {"type": ..., "message": ...}}``), and anything else (a bug) into
    ``internal error: ...`` and exit code 3, never a traceback. ``--json`` is taken in any
    position before a ``--``: after the subcommand too (``factstore recall "q" --json``).

    Done at the group rather than in ``main()`` so that every way of running the app (the
    console script, ``python -m``, CliRunner in tests) behaves the same.
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        end = args.index("--") if "--" in args else len(args)
        if "--json" in args[:end]:
            args = ["--json", *(a for i, a in enumerate(args) if i >= end or a != "--json")]
            ctx.meta["factstore.json"] = True
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except FactStoreError as exc:
            if ctx.meta.get("factstore.json"):
                typer.echo(json.dumps({"error": {"type": type(exc).__name__,
                                                 "message": str(exc)}}, ensure_ascii=False),
                           err=True)
            else:
                # typer.echo, not rich: the message is printed verbatim (no markup, no
                # wrapping).
                typer.echo(f"error: {_printable(str(exc))}", err=True)
            raise typer.Exit(exit_code(exc)) from None
        except Exception as exc:
            # usage errors and exits are the framework's own (typer may carry its own click)
            if os.environ.get("FACTSTORE_DEBUG") or _is_framework(exc):
                raise
            typer.echo(f"internal error: {type(exc).__name__}: {_printable(str(exc))[:500]} "
                       "(a fault in factstore, not in your input; FACTSTORE_DEBUG=1 shows "
                       "the traceback)", err=True)
            raise typer.Exit(EXIT_INTERNAL) from None


def _is_framework(exc: Exception) -> bool:
    return isinstance(exc, typer.Exit | typer.Abort | click.ClickException | click.Abort
                      | click.exceptions.Exit) or type(exc).__module__.split(".")[0] in (
        "click", "typer")


def _printable(text: str) -> str:
    """A message safe to write to any terminal: undecodable bytes of an argument (kept by
    Python as lone surrogates) shown as escapes instead of failing the write."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def read_input(source: str | Path) -> str:
    """The text of a file, or of stdin for '-', decoded as UTF-8 (strictly: a capture with
    undecodable bytes is refused, not guessed at)."""
    name = "stdin" if str(source) == "-" else str(source)
    try:
        data = sys.stdin.buffer.read() if name == "stdin" else Path(source).read_bytes()
    except OSError as exc:
        raise InvalidInput(f"cannot read {name}: {exc.strerror}; pass a readable file or '-' "
                           "for stdin") from None
    except AttributeError:  # a text-only stdin (an embedding program's StringIO)
        return sys.stdin.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"{name} is not UTF-8 text (byte {exc.start} is "
                           f"{data[exc.start]:#04x}); convert it, e.g. with iconv -t UTF-8"
                           ) from None


app = typer.Typer(
    cls=_ErrorsAsMessages, no_args_is_help=True, add_completion=False,
    # Locals in a traceback could include a DSN with a password; never print them.
    pretty_exceptions_show_locals=False,
    help="A fact store for agent memory: typed facts with verdicts, verbatim provenance and a "
         "lifecycle, on Postgres + pgvector (embedded Postgres by default).")


def _print_version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError
        from importlib.metadata import version as package_version

        try:
            typer.echo(f"factstore {package_version('factstore')}")
        except PackageNotFoundError:  # run from a source tree without installing
            typer.echo("factstore (not installed)")
        raise typer.Exit(0)


@app.callback()
def _global_options(
    ctx: typer.Context,
    home: Annotated[Path | None, typer.Option(
        envvar="FACTSTORE_HOME", help="Where the embedded Postgres keeps its data "
        "(default ./.factstore).")] = None,
    dsn: Annotated[str | None, typer.Option(
        envvar="FACTSTORE_DSN", help="Use this Postgres server instead of the embedded one.",
        show_envvar=True)] = None,
    database: Annotated[str | None, typer.Option(
        envvar="FACTSTORE_DATABASE", help="Database on that server (created if missing; "
        "default 'factstore').")] = None,
    embedder: Annotated[str, typer.Option(
        help=f"Embedder: {' | '.join(EMBEDDER_CHOICES)}.")] = "local",
    extractor: Annotated[str, typer.Option(
        help=f"Extractor: {' | '.join(EXTRACTOR_CHOICES)}.")] = DEFAULT_EXTRACTOR,
    json_output: Annotated[bool, typer.Option(
        "--json", help="Machine-readable JSON output for every command.")] = False,
    resolver: Annotated[str, typer.Option(
        help="Entity resolution's T4 decision: rules | ollama | ollama:<model>.")] = "rules",
    compiler: Annotated[str, typer.Option(
        help="What reads plain statements into timelines as they are remembered: parser "
             "(offline, the default) | none | ollama | ollama:<model>.")] = "parser",
    version: Annotated[bool, typer.Option(
        "--version", is_eager=True, callback=_print_version,
        help="Print factstore's version and exit.")] = False,
) -> None:
    """Global options shared by every command."""
    ctx.obj = CliState(GlobalOptions(home, dsn, database, embedder, extractor, json_output,
                                     resolver=resolver, compiler=compiler), _console())


def _console() -> Console:
    """The console people read. Piped or redirected, lines are never wrapped (a brief sent
    to a file must keep each line whole) and tables get room."""
    if sys.stdout.isatty():
        return Console(highlight=False)
    return Console(highlight=False, soft_wrap=True,
                   width=max(int(os.environ.get("COLUMNS", "0") or 0), 160))




@contextmanager
def progress_bar(ctx: typer.Context, total: int, label: str
                 ) -> Iterator[Callable[[int, int], None] | None]:
    """A ``progress(done, total)`` callback drawing a bar on a terminal; None when the
    output is piped or under --json (nothing but the result is printed then)."""
    state = _state(ctx)
    if state.options.json or not state.console.is_terminal:
        yield None
        return
    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=state.console) as bar:
        task = bar.add_task(label, total=total)
        yield lambda done, total: bar.update(task, completed=done, total=total)


def _emit(ctx: typer.Context, result: object, render: Callable[[Console], None]) -> None:
    """Print the result as JSON under --json, else render it for people."""
    state = _state(ctx)
    if state.options.json:
        typer.echo(json.dumps(to_jsonable(result), indent=2, ensure_ascii=False))
    else:
        render(state.console)


def main(argv: Sequence[str] | None = None) -> None:
    """Console entry point (``factstore``)."""
    # The model load's tqdm bar on stderr is noise between a command and its answer; a
    # caller who wants it can still set the variable to 0.
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    app(args=list(argv) if argv is not None else sys.argv[1:], prog_name="factstore")
