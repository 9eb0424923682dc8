"""``meeple report``: what a game is like, in Markdown and HTML with plots (``meeple.lab.report``),
from games between standard bots."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from meeple.cli.options import fail, make_console, seed_option
from meeple.cli.paths import make_folder, output_folder, write_file
from meeple.cli.signals import stopping
from meeple.kernel.errors import MeepleError
from meeple.kernel.family import game_info
from meeple.sim.runner import resolve_workers

console = make_console()


def report(
    game: Annotated[str, typer.Argument(help="A game id (see `meeple editions`).")],
    games: Annotated[
        int, typer.Option(help="Games per player count and per rule variant.", min=1)
    ] = 1000,
    seed: Annotated[int, seed_option("the whole study")] = 0,
    players: Annotated[
        str | None,
        typer.Option(help="Player counts, comma-separated (default: each the game allows, to 6)."),
    ] = None,
    workers: Annotated[str, typer.Option(help="Worker processes: N or 'auto'.")] = "1",
    out: Annotated[Path, typer.Option(help="Folder for GAME.md, GAME.html and the plots.")] = Path(
        "."
    ),
) -> None:
    """Write what a game is like (Markdown and HTML): game length, going first, the board,
    decisions and the effect of each rule option, from games between standard bots."""
    from meeple.lab.report import Settings, build, html, markdown

    try:
        info = game_info(game)
        counts = tuple(int(x) for x in players.split(",")) if players else ()
        nworkers = resolve_workers(workers)
    except MeepleError as exc:
        raise fail(str(exc)) from None
    except ValueError:
        raise fail("--players takes numbers such as 2,3,4 and --workers N or 'auto'") from None
    bad = [n for n in counts if not info.min_players <= n <= info.max_players]
    if bad:
        raise fail(f"{game} is for {info.min_players} to {info.max_players} players, not {bad[0]}")
    output_folder(out, "--out")
    command = " ".join(["meeple report", game, "--games", str(games), "--seed", str(seed)])
    if players:
        command += f" --players {players}"
    with console.status(f"Playing {game} ..."), stopping():
        rep = build(game, Settings(games, seed, nworkers, counts), command)
    make_folder(out, "--out")
    write_file(out / f"{game}.md", markdown(rep) + "\n", "--out")
    write_file(out / f"{game}.html", html(rep), "--out")
    for sec in rep.sections:
        for plot in sec.plots:
            write_file(out / plot.name, plot.png, "--out")
    console.print(f"Wrote {out / (game + '.md')} and {out / (game + '.html')}.")
