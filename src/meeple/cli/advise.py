"""``meeple advise``: each option of the decision to make in a saved game or a position, with
its chance of winning (``meeple.bots.advisor``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from meeple.cli.options import fail, make_console, seed_option
from meeple.cli.paths import STDOUT, output_file, write_file
from meeple.cli.position import game_at

console = make_console()


def advise(
    file: Annotated[
        Path, typer.Argument(help="A save file (JSON) or a position file (JSON or TOML).")
    ],
    seconds: Annotated[
        float | None,
        typer.Option(min=0.01, max=600, help="Time to think, in seconds (default 2)."),
    ] = None,
    rollouts: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=1_000_000,
            help="Games played out per option (alone: the same advice on every machine).",
        ),
    ] = None,
    seed: Annotated[int, seed_option("the advisor's own random stream")] = 0,
    json_path: Annotated[
        str | None,
        typer.Option("--json", help="Write the advice as JSON to PATH, or '-' for stdout."),
    ] = None,
) -> None:
    """Each option of the decision to make, with its chance of winning and a 95% interval.

    The chance is the share of games the seat to move wins when every seat then plays as the
    standard bot, from futures re-drawn from what that seat may see (never the file's own deck
    order or dice). Give --rollouts alone for advice that is the same on every machine.
    """
    from meeple.bots.advisor import DEFAULT_SECONDS, AdviceError
    from meeple.bots.advisor import advise as advise_on

    if json_path is not None and json_path != STDOUT:
        output_file(json_path, "--json")
    state = game_at(file)
    if seconds is None and rollouts is None:
        seconds = DEFAULT_SECONDS
    try:
        advice = advise_on(state, seconds=seconds, rollouts=rollouts, seed=seed)
    except AdviceError as exc:
        raise fail(str(exc)) from None
    if json_path is not None:
        text = json.dumps(advice.as_dict(), indent=2)
        if json_path == STDOUT:
            print(text)
            return
        write_file(json_path, text + "\n", "--json")
    console.print(
        f"{state.game_id}, Player {advice.seat + 1} to decide:", markup=False, highlight=False
    )
    for line in advice.lines():
        console.print(line, markup=False, highlight=False)
