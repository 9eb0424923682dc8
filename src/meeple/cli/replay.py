"""``meeple replay``: a saved game's events in plain words."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from meeple.cli.options import fail, make_console
from meeple.kernel.errors import MeepleError
from meeple.kernel.family import new_game
from meeple.kernel.options import rules_in_force
from meeple.kernel.saves import load_game

console = make_console()


def replay(
    file: Annotated[Path, typer.Argument(help="A save file (JSON).")],
) -> None:
    """Print a saved game's events in plain words, after the rules it changed (its options)."""
    try:
        saved = load_game(file)
    except MeepleError as exc:
        raise fail(str(exc)) from None
    s = new_game(saved.game_id, saved.num_players, saved.seed, saved.options)
    console.print(
        f"{s.game_id}, {s.num_players} players, seed {s.seed}.", markup=False, highlight=False
    )
    changed = rules_in_force(s)
    if changed:
        console.print("Rules changed for this game:", markup=False)
        for line in changed:
            console.print(f"  {line}", markup=False, highlight=False)
    s.record_events = True
    for e in s.setup_events():  # who starts, and how
        console.print(s.describe(e), markup=False, highlight=False)
    for a in saved.history:
        for e in s.apply(a):
            console.print(s.describe(e), markup=False, highlight=False)
    picture = s.render()
    if picture:
        console.print(picture, markup=False, highlight=False)
    r = s.result()
    if r is not None:
        console.print(
            f"Winner: {', '.join(f'Player {w + 1}' for w in r.winners)} "
            f"({r.end_reason.replace('_', ' ')}, {r.turns} turns)."
        )
    else:
        console.print(
            f"(the game goes on: {s.describe_action(s.legal_actions()[0])} ... "
            f"for Player {s.current_player() + 1})",
            markup=False,
        )
