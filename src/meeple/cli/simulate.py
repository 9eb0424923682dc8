"""``meeple simulate``: many games between bots, summarised (wins by seat with intervals,
game length, end reasons), with each game's row and save file if asked.

The command checks everything it was given (the game, the seats, the workers, every path it
writes) before the first game; then the games stream through the summary and the rows as they
finish (``meeple.sim``), so a run of millions holds no list of them.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from meeple.bots.base import bot_kinds, make_bot
from meeple.cli.extras import require
from meeple.cli.options import (
    AddressOption,
    BackendOption,
    GameArgument,
    JsonSummaryOption,
    RuleArgs,
    WorkersOption,
    backend_workers,
    err,
    fail,
    make_console,
    seed_option,
)
from meeple.cli.paths import STDOUT, make_folder, output_file, output_folder, write_file
from meeple.cli.signals import stopping
from meeple.extras import MissingExtra, installed, missing_modules
from meeple.kernel.errors import MeepleError, UnknownGameError
from meeple.kernel.family import family_of, game_family, game_info, new_game, read_game_file
from meeple.kernel.options import RULES, parse_rule_args
from meeple.kernel.position import load_position
from meeple.kernel.stats import wilson
from meeple.sim.records import PARQUET_MODULES, RecordWriter
from meeple.sim.runner import (
    DEFAULT_MAX_TURNS,
    AuditError,
    GameRecord,
    SimConfig,
    run,
)
from meeple.sim.summary import Summary

console = make_console()

PlayersOption = Annotated[
    int | None, typer.Option(help="Number of seats (default 4, or the position's).")
]
GamesOption = Annotated[int, typer.Option(help="Number of games.", min=1)]
BotsOption = Annotated[
    str, typer.Option(help="Bot kind per seat, comma-separated (one kind fills every seat).")
]
MaxTurnsOption = Annotated[
    int,
    typer.Option(
        help=(
            "Cap on player-turns per game; capped games rank by net worth. 0: none (a game"
            " between bots may then never end)."
        ),
        min=0,
    ),
]
RotateOption = Annotated[bool, typer.Option(help="Rotate the bots one seat per game.")]
SaveDirOption = Annotated[
    Path | None, typer.Option(help="Write each game's save file into this folder.")
]
EditionFileOption = Annotated[
    Path | None,
    typer.Option(
        help="Play a game file: a Monopoly edition (TOML or JSON) or Monopolis components "
        "(TOML, from `meeple editions export monopolis`)."
    ),
]
FromOption = Annotated[
    Path | None,
    typer.Option(
        "--from",
        help="Play every game from the position in this file (JSON or TOML: `meeple "
        "position`); each game re-draws the dice and the decks' order from its own seed.",
    ),
]
AuditOption = Annotated[
    bool,
    typer.Option(
        help="Check every invariant after every action (slow; a debug switch): a broken "
        "one stops the run, naming the game, the action and what broke."
    ),
]
OutOption = Annotated[
    Path | None,
    typer.Option(
        help="Write one row per game into this folder: games.csv, and games.parquet with "
        "meeple\\[lab] installed."
    ),
]


def simulate(
    game: GameArgument = None,
    players: PlayersOption = None,
    games: GamesOption = 100,
    seed: Annotated[int, seed_option("the whole run")] = 0,
    bots: BotsOption = "random",
    workers: WorkersOption = "1",
    max_turns: MaxTurnsOption = DEFAULT_MAX_TURNS,
    rotate_seats: RotateOption = False,
    json_path: JsonSummaryOption = None,
    save_dir: SaveDirOption = None,
    edition_file: EditionFileOption = None,
    from_file: FromOption = None,
    audit: AuditOption = False,
    out: OutOption = None,
    rule: RuleArgs = None,
    backend: BackendOption = "processes",
    address: AddressOption = None,
) -> None:
    """Play many games with bots and summarise them."""
    game, players, options = _opening(game, players, from_file, edition_file)
    game, family, low, high = _game(game, options, edition_file)
    if not low <= players <= high:
        raise fail(f"{game} is for {low} to {high} players, not {players}")
    options = game_rules(game, options, rule)
    if rule:
        try:  # the rules together, as the family checks them: refused before any game runs
            new_game(game, players, seed, options)
        except (MeepleError, ValueError) as exc:
            raise fail(str(exc)) from None
    kinds = _bots(bots, game, players, seed, family, options)
    nworkers = backend_workers(workers, backend, address)
    if backend == "ray":
        require("ray", "--backend ray")
    # Every path the run writes, checked before the first game (cli/paths.py).
    if json_path is not None and json_path != STDOUT:
        output_file(json_path, "--json")
    if out is not None:
        output_folder(out, "--out")
    if save_dir is not None:
        make_folder(output_folder(save_dir, "--save-dir"), "--save-dir")
    # Parquet beside the CSV when meeple[lab] is installed; the core writes the CSV alone.
    parquet = out is not None and installed("lab", PARQUET_MODULES)
    cfg = SimConfig(
        game,
        players,
        games,
        seed,
        kinds,
        max_turns,
        rotate_seats,
        options=options,
        save_dir=str(save_dir or ""),
        audit=audit,
    )
    summary = _play(cfg, nworkers, backend, address, out, parquet, json_path == "-")
    if json_path == STDOUT:
        sys.stdout.write(json.dumps(summary, indent=1) + "\n")
        return
    print_summary(summary)  # first: a write that fails below still leaves the figures on screen
    if json_path:
        write_file(json_path, json.dumps(summary, indent=1) + "\n", "--json")


def _opening(
    game: str | None, players: int | None, from_file: Path | None, edition_file: Path | None
) -> tuple[str | None, int, dict[str, Any]]:
    """The game, the seats (4 unless given) and the options a run starts from: those of the
    position in ``from_file`` (``--from``), which must agree with the game and seats given."""
    options: dict[str, Any] = {}
    if from_file is not None:
        if edition_file is not None:
            raise fail("--from and --edition-file do not go together (a position names its game)")
        try:
            opening = load_position(from_file)
        except MeepleError as exc:
            raise fail(str(exc)) from None
        if game is not None and game != opening.game_id:
            raise fail(f"{from_file} holds a position of {opening.game_id!r}, not {game!r}")
        if players is not None and players != opening.num_players:
            raise fail(f"{from_file} holds a {opening.num_players}-player position")
        game, players, options = opening.game_id, opening.num_players, dict(opening.options)
        options.pop("redraw", None)
    return game, 4 if players is None else players, options


def _game(
    game: str | None, options: dict[str, Any], edition_file: Path | None
) -> tuple[str, str, int, int]:
    """The game played (its id, family and player range): one by id, or one a game file
    describes (its options added to ``options``)."""
    if edition_file is not None:
        try:
            found = read_game_file(edition_file)
        except MeepleError as exc:
            raise fail(str(exc)) from None
        if game is not None and game != found.game:
            raise fail(f"{edition_file} holds edition {found.game!r}, not {game!r}")
        options.update(found.options)
        return found.game, game_family(found.game, options), found.min_players, found.max_players
    if game is None:
        raise fail("give a game id (see `meeple editions`), --edition-file or --from")
    try:
        info = game_info(game)
    except UnknownGameError as exc:
        raise fail(str(exc)) from None
    return game, game_family(game, options), info.min_players, info.max_players


def _bots(
    bots: str, game: str, players: int, seed: int, family: str, options: dict[str, Any]
) -> tuple[str, ...]:
    """The bot kind of each seat (``--bots``), each one known to the game's family and made
    once to check its argument (a policy bot: that it was trained for this game)."""
    kinds = tuple(k.strip() for k in bots.split(",") if k.strip())
    if len(kinds) == 1:
        kinds = kinds * players
    if len(kinds) != players:
        raise fail(
            f"--bots lists {len(kinds)} bots for {players} players: one kind for every seat, "
            "or one per seat, comma-separated"
        )
    known = bot_kinds(family)
    for k in kinds:
        if k.partition(":")[0] not in known:
            raise fail(f"unknown bot {k!r} for {game}; known: {', '.join(known)}")
        try:
            bot = make_bot(k, family, 0)
            check = getattr(bot, "check_game", None)  # a policy bot: trained for this game?
            if check is not None:
                check(new_game(game, players, seed, options))
        except (MeepleError, ValueError) as exc:
            raise fail(str(exc)) from None
    return kinds


def _play(
    cfg: SimConfig,
    nworkers: int,
    backend: str,
    address: str | None,
    out: Path | None,
    parquet: bool,
    quiet: bool,
) -> dict[str, Any]:
    """Play the run's games and return their summary, each row written to ``out`` as it
    finishes; an audit that finds a broken invariant stops the run (exit 1), nothing written."""
    if backend == "ray":
        from meeple.sim.ray_backend import RayBackendError, run_ray

        try:  # joins (or starts) the cluster now: a bad address fails before any game
            produced = run_ray(cfg, address, 0)
        except RayBackendError as exc:
            raise fail(str(exc)) from None
    else:
        produced = run(cfg, nworkers)
    # Each game is counted into the summary and written out as it finishes: a run of millions
    # of games holds no list of them (sim/summary.py, sim/records.py).
    tally = Summary(cfg)
    writer = RecordWriter(out, cfg.players, parquet) if out is not None else None
    start = time.perf_counter()
    try:
        with stopping():  # SIGTERM and SIGHUP as Ctrl-C (cli/signals.py)
            for rec in _progress(produced, cfg.games, f"{cfg.game} x{cfg.games}", quiet):
                tally.add(rec)
                if writer is not None:
                    writer.add(rec)
    except BaseException as exc:
        close = getattr(produced, "close", None)
        if close is not None:  # the workers stopped now, not when the garbage is collected
            close()
        if writer is not None:  # nothing half-written is left in the folder
            writer.discard()
        if not isinstance(exc, AuditError):
            raise
        # On stderr, as every error: stdout may be the JSON summary (``--json -``). Escaped:
        # an invariant's words may hold brackets ("[chance]") that rich would take as markup.
        err.print(
            f"[bold red]audit:[/] {escape(str(exc))}", soft_wrap=True, markup=True, highlight=False
        )
        raise typer.Exit(1) from None
    summary = tally.result(time.perf_counter() - start)
    if writer is not None:
        writer.close()
        if not parquet:
            lacking = MissingExtra("lab", "games.parquet", missing_modules("lab", PARQUET_MODULES))
            note = f"wrote games.csv only: {lacking}"
            err.print(f"[bold]note:[/] {escape(note)}", soft_wrap=True)
    return summary


def game_rules(game: str, options: dict[str, Any], given: list[str] | None) -> dict[str, Any]:
    """``options`` with the rules ``--rule NAME=VALUE`` sets (each value parsed by the
    option's kind, over any the options already set: an edition file's, a position's), or
    the exit with the reason: an unknown name or a bad value names the option and what it
    takes."""
    if not given:
        return options
    try:
        chosen = parse_rule_args(family_of(game, options).rule_options(game, options), given, game)
    except ValueError as exc:
        raise fail(str(exc)) from None
    return {**options, RULES: {**(options.get(RULES) or {}), **chosen}}


def _progress(
    produced: Iterator[GameRecord], games: int, label: str, quiet: bool
) -> Iterator[GameRecord]:
    """Every record ``produced``, with a progress bar on a terminal."""
    if quiet or not console.is_terminal:
        yield from produced
        return
    done = 0
    start = time.perf_counter()
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]} games/s"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task(label, total=games, rate="-")
        for rec in produced:
            done += 1
            elapsed = time.perf_counter() - start
            progress.update(task, advance=1, rate=f"{done / elapsed:,.0f}")
            yield rec


def print_summary(summary: dict[str, Any]) -> None:
    """The readable tables of a simulation summary."""
    res = summary["results"]
    games = summary["games"]
    console.print(
        f"[bold]{summary['edition']}[/]: {games} games, {summary['players']} players, "
        f"seed {summary['seed']}, bots {', '.join(summary['bots'])}"
    )
    if summary.get("rules"):
        words = ", ".join(f"{k}={json.dumps(v)}" for k, v in summary["rules"].items())
        console.print(f"rules set for these games: {words}", markup=False, highlight=False)
    t = Table(title="Wins by seat (95% Wilson interval)")
    t.add_column("seat", justify="right")
    t.add_column("bot")
    t.add_column("wins", justify="right")
    t.add_column("share", justify="right")
    t.add_column("95% interval", justify="right")
    t.add_column("mean final score", justify="right")
    bots = summary["bots"]
    for seat, w in enumerate(res["wins_by_seat"]):
        lo, hi = wilson(w, games)
        bot = bots[seat] if not summary.get("rotate_seats") else "rotating"
        score = res["mean_scores_by_seat"][seat]
        t.add_row(
            str(seat + 1),
            bot,
            f"{w:g}",
            f"{w / games:.1%}",
            f"{lo:.1%} - {hi:.1%}",
            f"{score:,.1f}",
        )
    console.print(t)
    if summary.get("rotate_seats") and len(set(bots)) > 1:
        b = Table(title="Wins by bot (share of the seats it played, 95% Wilson interval)")
        b.add_column("bot")
        b.add_column("wins", justify="right")
        b.add_column("seats played", justify="right")
        b.add_column("share", justify="right")
        b.add_column("95% interval", justify="right")
        for kind, seats in res["seats_by_bot"].items():
            w = res["wins_by_bot"].get(kind, 0.0)
            lo, hi = wilson(w, seats)
            b.add_row(kind, f"{w:g}", str(seats), f"{w / seats:.1%}", f"{lo:.1%} - {hi:.1%}")
        console.print(b)
    g = Table(title="Game length")
    g.add_column("counted in")
    for col in ("mean", "median", "95th percentile"):
        g.add_column(col, justify="right")
    for unit, words in (("turns", "player-turns"), ("rounds", "rounds")):
        g.add_row(
            words,
            f"{res[f'mean_{unit}']:.1f}",
            f"{res[f'median_{unit}']:g}",
            f"{res[f'p95_{unit}']:g}",
        )
    console.print(g)
    e = Table(title="End reasons")
    e.add_column("reason")
    e.add_column("games", justify="right")
    for reason, count in res["end_reasons"].items():
        e.add_row(reason.replace("_", " "), str(count))
    console.print(e)
    tm = summary["timing"]
    console.print(
        f"{tm['seconds']:.2f} s: {tm['games_per_s']:,.1f} games/s, "
        f"{tm['turns_per_s']:,.0f} player-turns/s"
    )
