"""``meeple position``: check a position file (or where a save file stands), draw its table
and write it out; and :func:`game_at`, how ``position`` and ``advise`` read either file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from meeple.cli.options import fail, make_console
from meeple.cli.paths import output_file
from meeple.kernel.errors import MeepleError
from meeple.kernel.position import load_position, problems, save_position
from meeple.kernel.protocol import GameState
from meeple.kernel.saves import load_game

console = make_console()


def position(
    file: Annotated[
        Path, typer.Argument(help="A position file (JSON or TOML) or a save file (JSON).")
    ],
    out: Annotated[
        Path | None,
        typer.Option(help="Write the position (where a save file's game stands) to this file."),
    ] = None,
) -> None:
    """Check a position, draw its table, and write it out (a save file's current position)."""
    from meeple.cli.play import table_text

    if out is not None:
        output_file(out, "--out")
    state = game_at(file)
    console.print(table_text(state, None), markup=False, highlight=False)
    found = problems(state)
    console.print(
        f"{state.game_id}, {state.num_players} players: "
        + ("a valid position." if not found else "; ".join(found)),
        markup=False,
    )
    if out is not None:
        try:
            save_position(state, out)
        except OSError as exc:
            raise fail(f"--out {out}: cannot be written: {exc.strerror or exc}") from None
        console.print(f"Position written to {out}.", markup=False)


def game_at(file: Path) -> GameState:
    """The game where a save file stands, or the position of a position file (JSON or TOML);
    a bad file fails with its reason."""
    try:
        data = json.loads(file.read_text(encoding="utf-8")) if file.suffix != ".toml" else None
    except (OSError, ValueError):
        data = None
    try:
        if isinstance(data, dict) and data.get("format") == "meeple-save":
            return load_game(file)
        return load_position(file)
    except MeepleError as exc:
        raise fail(str(exc)) from None
