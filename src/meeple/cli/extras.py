"""A command's feature that needs an extra not installed: the message, and exit status 1.

``meeple serve`` without ``meeple[server]``, ``simulate --backend ray`` without ``meeple[ray]``,
``analyze landing --plot`` without ``meeple[lab]`` (:mod:`meeple.extras`).
"""

from __future__ import annotations

import typer
from rich.markup import escape

from meeple.cli.options import make_console
from meeple.extras import MissingExtra, need

err = make_console(stderr=True)


def require(extra: str, feature: str, modules: tuple[str, ...] | None = None) -> None:
    """Go on if ``extra``'s packages (or ``modules`` of them) are installed; else say which
    extra to install and exit with status 1 (the request was well formed: the installation
    lacks a part), before any work is done."""
    try:
        need(extra, feature, modules)
    except MissingExtra as exc:
        err.print(f"[bold red]error:[/] {escape(str(exc))}", soft_wrap=True)
        raise typer.Exit(1) from None
