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
