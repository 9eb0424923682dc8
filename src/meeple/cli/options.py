"""What several commands share: options (``simulate``, ``tournament``: one wording, one
default) and the way bad input is refused (:func:`fail`)."""

from __future__ import annotations

from typing import Annotated, Any, Final

import typer
from rich.console import Console
from rich.markup import escape


def make_console(**kwargs: Any) -> Console:
    """A rich console that wraps lines to the terminal, and only to a terminal: piped or
    redirected, each line stays whole (rich would otherwise break it at 80 columns, splitting
    a replay's events and a summary's lines for whoever reads the file or greps it)."""
    console = Console(**kwargs)
    if not console.is_terminal:
        console.soft_wrap = True
    return console


err = make_console(stderr=True)
"""Errors and progress go to stderr: stdout may be a JSON summary (``--json -``)."""

HELP_MARKUP: Final = "markdown"
"""How ``--help`` reads the commands' docstrings and help texts (every ``typer.Typer`` of the
command line). Markdown joins a paragraph's lines and wraps it to the terminal; typer's default,
rich markup, kept each line break of a docstring, so a description ran ragged, and took
``[redacted]`` in ``serve --help`` for a markup tag and printed nothing (``tests/test_cli.py``)."""


def fail(message: str) -> typer.Exit:
    """Print ``message`` as an error and return the exit to raise (status 2: bad input)."""
    # Escaped: the words quote the user's input, and "[x]" in it is not rich markup.
    err.print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)  # a path stays whole
    return typer.Exit(2)


MAX_SEED: Final = 2**63 - 1
"""The largest seed: seeds are 64-bit words (``meeple.kernel.rng``), stored as a signed 64-bit
integer by the server's database, so 0 to 2**63 - 1 everywhere (the server's ``seed`` too)."""


def seed_option(what: str) -> Any:
    """A ``--seed`` option of 0 to :data:`MAX_SEED`, described as the seed of ``what``: a
    negative or larger seed is refused with the range, not folded silently into another."""
    return typer.Option(min=0, max=MAX_SEED, help=f"Seed of {what} (0 to 2**63 - 1).")


BackendOption = Annotated[
    str,
    typer.Option(
        metavar="[processes|ray]",
        help="Where games run: worker processes, or Ray tasks (then --workers is unused).",
    ),
]
"""``--backend``: the simulator's backends (``meeple.sim.runner``, ``meeple.sim.ray_backend``)."""

AddressOption = Annotated[
    str | None,
    typer.Option(help="With --backend ray: the cluster's HOST:PORT (default: start a local Ray)."),
]
"""``--address``: the Ray cluster to join."""

WorkersOption = Annotated[str, typer.Option(help="Worker processes: N or 'auto'.")]
"""``--workers``: how many processes play (``meeple.sim.runner.resolve_workers``)."""

JsonSummaryOption = Annotated[
    str | None,
    typer.Option("--json", help="Write the JSON summary to PATH, or '-' for stdout."),
]
"""``--json`` of the commands that summarise many games (``simulate``, ``tournament``)."""

RuleArgs = Annotated[
    list[str] | None,
    typer.Option(
        "--rule",
        metavar="NAME=VALUE",
        help="Set a rule for this game (repeatable): a house rule or a rulebook reading, such "
        "as free_parking_money=true. `meeple editions rules GAME` lists them.",
    ),
]
"""``--rule NAME=VALUE`` of one game (``simulate``, ``play``)."""

GameArgument = Annotated[
    str | None, typer.Argument(help="Game or edition id (see `meeple editions`).")
]
"""The game a command plays, by id; optional where a file may name it (``simulate``, ``play``)."""


def backend_workers(workers: str, backend: str, address: str | None) -> int:
    """The worker processes ``--workers`` asks for, once ``--backend`` and ``--address`` are
    checked (``simulate``, ``tournament``); exit 2 naming a bad one."""
    from meeple.sim.runner import resolve_workers

    try:
        nworkers = resolve_workers(workers)
    except ValueError:
        raise fail(f"--workers must be a number of at least 1 or 'auto', not {workers!r}") from None
    if backend not in ("processes", "ray"):
        raise fail(f"--backend must be 'processes' or 'ray', not {backend!r}")
    if address is not None and backend != "ray":
        raise fail("--address goes with --backend ray")
    return nworkers
