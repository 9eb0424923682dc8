"""``meeple tournament``: the arena's command (meeple.lab.arena; docs/ARENA.md).

Bad input (an unknown game or bot, a program that cannot be found, a bad count) gets a message
and exit status 2, like the rest of the command line; a missing ``meeple[lab]`` (openskill,
matplotlib) gets the extra's message and status 1. Nothing is played then.
"""

from __future__ import annotations

import contextlib
import json
import shlex
import shutil
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import box
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from meeple.cli.extras import require
from meeple.cli.options import (
    AddressOption,
    BackendOption,
    JsonSummaryOption,
    WorkersOption,
    backend_workers,
    fail,
    make_console,
    seed_option,
)
from meeple.cli.paths import STDOUT, output_file, output_folder, write_file
from meeple.cli.signals import stopping

if TYPE_CHECKING:
    from collections.abc import Iterator

    from meeple.lab.arena import ArenaConfig, ArenaGame

console = make_console()

ARENA_MODULES = ("openskill", "matplotlib")
"""What the arena needs of meeple[lab]: the rating model and the plot."""


GameId = Annotated[str, typer.Argument(help="Game or edition id (see `meeple editions`).")]
EntrantsOption = Annotated[
    str,
    typer.Option(
        help="The entrants, comma-separated: bot kinds (random, standard, mcts:16, "
        "param:FILE) and external programs (cmd:PROGRAM, docs/ARENA.md); NAME=KIND names "
        "one (bold=param:bold.json)."
    ),
]
TablesOption = Annotated[int, typer.Option(help="Number of tables (each plays every seating).")]
SeatsOption = Annotated[
    int | None,
    typer.Option(help="Seats per table (default: one per entrant, within the game's range)."),
]
SeatingsOption = Annotated[
    str,
    typer.Option(
        metavar="[auto|all|rotations]",
        help="Seatings per table: every permutation, or every rotation; auto: all up to 4 players.",
    ),
]
CrnOption = Annotated[
    bool,
    typer.Option(
        help="Common random numbers: every seating of a table replays the same dice and "
        "decks (--no-crn: each game its own, to measure what they save)."
    ),
]
TimeLimitOption = Annotated[
    float, typer.Option(help="Seconds an external program may take over one decision.")
]
MaxTurnsOption = Annotated[
    int | None,
    typer.Option(help="Cap on player-turns per game (capped games rank by the game's rule)."),
]
OutOption = Annotated[
    Path | None,
    typer.Option(help="Write leaderboard.csv, games.csv and leaderboard.png here."),
]
TableRules = Annotated[
    list[str] | None,
    typer.Option(
        "--rule",
        metavar="NAME=VALUE",
        help="Set a rule for every game (repeatable; `meeple editions rules GAME`).",
    ),
]


def tournament(
    game: GameId,
    bots: EntrantsOption = "random,standard",
    tables: TablesOption = 10,
    seed: Annotated[int, seed_option("the whole tournament")] = 0,
    players: SeatsOption = None,
    seatings: SeatingsOption = "auto",
    crn: CrnOption = True,
    time_limit: TimeLimitOption = 5.0,
    max_turns: MaxTurnsOption = None,
    workers: WorkersOption = "1",
    backend: BackendOption = "processes",
    address: AddressOption = None,
    json_path: JsonSummaryOption = None,
    out: OutOption = None,
    rule: TableRules = None,
) -> None:
    """Rate bots, param:FILE settings and external programs against each other: every
    seating of each table replays the same dice (common random numbers); Plackett-Luce
    ratings with intervals, win rates and average places."""
    from meeple.kernel.errors import MeepleError
    from meeple.kernel.family import game_info
    from meeple.sim.runner import DEFAULT_MAX_TURNS

    try:
        info = game_info(game)
    except MeepleError as exc:
        raise fail(str(exc)) from None
    entrants = tuple(k.strip() for k in bots.split(",") if k.strip())
    if len(entrants) < 2:
        raise fail("--bots needs at least two entrants, comma-separated")
    if tables < 1:
        raise fail(f"--tables must be at least 1, not {tables}")
    if time_limit <= 0:
        raise fail(f"--time-limit must be a positive number of seconds, not {time_limit:g}")
    if max_turns is not None and max_turns < 0:
        raise fail(f"--max-turns must be 0 (no cap) or more, not {max_turns}")
    if players is None:
        players = min(max(len(entrants), info.min_players), info.max_players)
    if not info.min_players <= players <= info.max_players:
        low, high = info.min_players, info.max_players
        raise fail(f"{game} is for {low} to {high} players, not {players}")
    _check_entrants(game, seatings, entrants)
    options = _rules(game, players, seed, rule)
    nworkers = backend_workers(workers, backend, address)
    if json_path is not None and json_path != STDOUT:
        output_file(json_path, "--json")
    if out is not None:
        output_folder(out, "--out")
    require("lab", "meeple tournament", ARENA_MODULES)
    if backend == "ray":
        require("ray", "--backend ray")

    from meeple.lab.arena import ArenaConfig

    cfg = ArenaConfig(
        game,
        players,
        tables,
        seed,
        entrants,
        DEFAULT_MAX_TURNS if max_turns is None else max_turns,
        seatings,
        crn,
        time_limit,
        options,
    )
    _play(cfg, nworkers, backend, address, json_path, out)


def _check_entrants(game: str, seatings: str, entrants: tuple[str, ...]) -> None:
    """Exit with the reason unless ``--seatings`` is known and every entrant is a bot kind of
    the game's family (made once, to check its argument) or a program that can be started."""
    from meeple.bots.base import bot_kinds, make_bot
    from meeple.bots.external import is_external
    from meeple.kernel.family import game_family
    from meeple.lab.arena import SEATINGS, split_entrant

    family = game_family(game)
    if seatings not in SEATINGS:
        raise fail(f"--seatings must be one of {', '.join(SEATINGS)}, not {seatings!r}")
    known = bot_kinds(family)
    for kind in (split_entrant(e)[1] for e in entrants):
        if is_external(kind):
            _check_program(kind)
            continue
        if kind.partition(":")[0] not in known:
            raise fail(
                f"unknown bot {kind!r} for {game}; known: {', '.join(known)}, "
                "and cmd:PROGRAM for an external program"
            )
        try:
            make_bot(kind, family, 0)
        except ValueError as exc:
            raise fail(str(exc)) from None


def _rules(game: str, players: int, seed: int, rule: list[str] | None) -> dict[str, Any]:
    """The options of every game: the rules ``--rule`` sets, checked together as the family
    checks them (a game made with them); exit 2 with the reason."""
    from meeple.kernel.errors import MeepleError
    from meeple.kernel.family import new_game
    from meeple.kernel.options import RULES, parse_rule_args

    options: dict[str, Any] = {}
    if rule:
        try:
            chosen = parse_rule_args(info_rules(game), rule, game)
            options = {RULES: chosen}
            new_game(game, players, seed, options)
        except (MeepleError, ValueError) as exc:
            raise fail(str(exc)) from None
    return options


def _play(
    cfg: ArenaConfig,
    nworkers: int,
    backend: str,
    address: str | None,
    json_path: str | None,
    out: Path | None,
) -> None:
    """Play the tournament, rate the entrants, write the files asked for and show (or write)
    the leaderboard."""
    from meeple.lab.arena import plan, rate, summarise, write_outputs

    total = len(plan(cfg))
    quiet = json_path == "-"
    start = time.perf_counter()
    games = _collect(cfg, nworkers, backend, address, total, quiet)
    board = rate(cfg, games)
    summary = summarise(cfg, games, board, time.perf_counter() - start)
    if out is not None:
        try:
            written = write_outputs(out, cfg, games, board)
        except OSError as exc:
            raise fail(f"--out {out}: cannot be written: {exc.strerror or exc}") from None
        if not quiet:
            console.print(f"Wrote {', '.join(str(p) for p in written)}.", markup=False)
    text = json.dumps(summary, indent=1) + "\n"
    if json_path == STDOUT:
        sys.stdout.write(text)
        return
    print_leaderboard(summary)  # first: a write that fails below still leaves it on screen
    if json_path:
        write_file(json_path, text, "--json")


def info_rules(game: str) -> list[Any]:
    """The rule options of ``game`` (``--rule``)."""
    from meeple.kernel.family import family_of

    return family_of(game, {}).rule_options(game, {})


def _check_program(kind: str) -> None:
    """Exit with the reason unless ``cmd:PROGRAM`` names a program that can be started."""
    command = kind.partition(":")[2]
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise fail(f"{kind!r}: {exc}") from None
    if not argv:
        raise fail(f"{kind!r} names no program: cmd:PROGRAM [ARGUMENTS]")
    if shutil.which(argv[0]) is None:
        raise fail(f"{kind!r}: cannot find the program {argv[0]!r} (not a file that can run)")


def _collect(
    cfg: Any, workers: int, backend: str, address: str | None, total: int, quiet: bool
) -> list[ArenaGame]:
    """Every game of the tournament, with a progress bar on a terminal."""
    from meeple.lab.arena import run_arena

    produced = run_arena(cfg, workers, backend, address)
    # Closed on the way out, so that an error or a signal stops the workers at once
    # (sim/pool.py), and SIGTERM and SIGHUP stop the tournament as Ctrl-C does (cli/signals.py).
    with contextlib.closing(produced), stopping():
        return _gather(produced, cfg, total, quiet)


def _gather(produced: Iterator[ArenaGame], cfg: Any, total: int, quiet: bool) -> list[ArenaGame]:
    """The games ``produced``, with a progress bar on a terminal."""
    from meeple.sim.ray_backend import RayBackendError

    try:
        if quiet or not console.is_terminal:
            return list(produced)
        games: list[ArenaGame] = []
        with Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=True,
        ) as progress:
            task = progress.add_task(f"{cfg.game}: {cfg.tables} tables", total=total)
            for g in produced:
                games.append(g)
                progress.update(task, advance=1)
        return games
    except RayBackendError as exc:
        raise fail(str(exc)) from None


def print_leaderboard(summary: dict[str, Any]) -> None:
    """The leaderboard as a table, then the forfeits of external programs."""
    console.print(
        f"[bold]{escape(summary['edition'])}[/]: {summary['tables']} tables of "
        f"{summary['players']} players, {summary['games']} games ({summary['seatings']} "
        f"seatings, {'common' if summary['crn'] else 'independent'} dice per table), "
        f"seed {summary['seed']}",
        highlight=False,
    )
    board = summary["leaderboard"]
    forfeits = any(s["forfeits"] for s in board)
    t = Table(title="Leaderboard (95% intervals)", box=box.SIMPLE_HEAD)
    t.add_column("#", justify="right")
    t.add_column("entrant", overflow="fold")
    t.add_column("rating\nmu±2σ", justify="right")
    t.add_column("win %\n(Wilson)", justify="right")
    t.add_column("win %\nby table", justify="right")
    t.add_column("mean\nplace", justify="right")
    t.add_column("seats", justify="right")
    if forfeits:
        t.add_column("for-\nfeits", justify="right")
    for rank, s in enumerate(board, 1):
        row = [
            str(rank),
            escape(s["name"]),
            f"{s['mu']:.1f}±{2 * s['sigma']:.1f}",
            f"{100 * s['win_rate']:.1f} ({100 * s['win_low']:.1f}-{100 * s['win_high']:.1f})",
            f"{100 * s['table_low']:.1f}-{100 * s['table_high']:.1f}",
            f"{s['mean_place']:.2f}",
            str(s["seats"]),
        ]
        t.add_row(*row, *([str(s["forfeits"])] if forfeits else []))
    console.print(t)
    ranked = [s["name"] for s in board]
    between = [p for p in summary["pairs"] if ranked.index(p["b"]) == ranked.index(p["a"]) + 1]
    if between:
        h = Table(
            title="Each entrant against the next (win % less win %, 95% over shared tables)",
            box=box.SIMPLE_HEAD,
        )
        h.add_column("entrants", overflow="fold")
        h.add_column("tables", justify="right")
        h.add_column("difference", justify="right")
        h.add_column("95% interval", justify="right")
        for p in between:
            interval = (
                f"{100 * p['low']:+.1f} to {100 * p['high']:+.1f}" if p["low"] is not None else "-"
            )
            h.add_row(
                f"{escape(p['a'])} - {escape(p['b'])}",
                str(p["tables"]),
                f"{100 * p['difference']:+.1f}",
                interval,
            )
        console.print(h)
    for note in summary["notes"]:
        console.print(f"note: {note}", markup=False, highlight=False)
    reasons = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in summary["end_reasons"].items())
    tm = summary["timing"]
    console.print(f"end reasons: {reasons}; {tm['seconds']:.1f} s", markup=False, highlight=False)
