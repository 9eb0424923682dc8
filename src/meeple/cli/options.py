"""What several commands share: options (``simulate``, ``tournament``: one wording, one
default) and the way bad input is refused (:func:`fail`)."""

from __future__ import annotations

from typing import Annotated, Final

import typer
from rich.console import Console
from rich.markup import escape

err = Console(stderr=True)
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
