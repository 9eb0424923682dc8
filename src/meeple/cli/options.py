"""Command-line options several commands share (``simulate``, ``tournament``): one wording,
one default."""

from __future__ import annotations

from typing import Annotated

import typer

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
