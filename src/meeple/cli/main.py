"""The ``meeple`` command line (Typer + Rich).

Bad input (an unknown game or bot, a bad flag, a malformed file) gets a message saying what is
wrong and exit status 2; nothing is written.
"""

from __future__ import annotations

import json
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

try:  # typer 0.28 carries its own copy of click; earlier versions use click itself
    from typer._click import exceptions as click_errors
except ImportError:  # pragma: no cover (typer < 0.28)
    from click import exceptions as click_errors  # type: ignore[no-redef]

from meeple.bots.base import bot_kinds, make_bot
from meeple.cli import signals
from meeple.cli.admin import admin_app
from meeple.cli.analyze import analyze_app
from meeple.cli.extras import require
from meeple.cli.options import (
    HELP_MARKUP,
    AddressOption,
    BackendOption,
    err,
    fail,
    make_console,
    seed_option,
)
from meeple.cli.paths import STDOUT, make_folder, output_file, output_folder, write_file
from meeple.cli.play import play
from meeple.cli.serve import serve
from meeple.cli.signals import stopping
from meeple.cli.tournament import tournament
from meeple.cli.tune import tune
from meeple.extras import EXTRAS, MissingExtra, installed, missing_modules
from meeple.kernel.errors import MeepleError, UnknownGameError
from meeple.kernel.family import (
    family_of,
    game_family,
    game_ids,
    game_info,
    new_game,
    read_game_file,
)
from meeple.kernel.options import RULES, parse_rule_args, rules_in_force
from meeple.kernel.position import load_position, problems, save_position
from meeple.kernel.protocol import GameState
from meeple.kernel.saves import load_game
from meeple.kernel.stats import wilson
from meeple.sim.records import PARQUET_MODULES, RecordWriter
from meeple.sim.runner import (
    DEFAULT_MAX_TURNS,
    AuditError,
    GameRecord,
    SimConfig,
    resolve_workers,
    run,
)
from meeple.sim.summary import Summary

app = typer.Typer(
    help="meeple: play, simulate and analyse the Monopoly family and Monopolis.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=HELP_MARKUP,
)
app.add_typer(analyze_app, name="analyze")
app.add_typer(admin_app, name="admin")
app.command()(play)
app.command()(serve)
app.command()(tournament)
app.command()(tune)
console = make_console()


def version_lines(families_too: bool = True) -> list[str]:
    """What ``meeple version`` prints: the version, the engine's build, Python, the families
    (left out of ``meeple --version``, which then loads no game: a quick start-up)."""
    import platform
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    from meeple.buildinfo import build_name, compiled_parts
    from meeple.kernel.family import families
    from meeple.stale import PURE_VARIABLE, pure_asked, pure_build_reason, stale_sources

    try:
        number = dist_version("meeple")
    except PackageNotFoundError:  # run from a source tree that was not installed
        number = "unknown (not installed)"
    build = build_name()
    if pure_asked():
        build += f" ({PURE_VARIABLE}=1: the pure-Python engine, asked for)"
    elif stale_sources():
        build += f" (the compiled build is stale: {', '.join(stale_sources())} changed)"
    elif build == "mypyc":
        build += f" (compiled: {', '.join(compiled_parts())}; rules and standard bots)"
    elif (why := pure_build_reason()) is not None:
        hint = ""
        if why.startswith("no C compiler"):  # (not when the installer asked for pure Python)
            hint = (
                "; install one with Python's headers, as Debian's gcc and python3-dev, then "
                "install meeple again for the compiled engine: about 15 times faster"
            )
        build += f" (pure Python, installed so: {why}{hint})"
    else:
        build += " (pure Python: `make compiled` builds the compiled engine)"
    lines = [
        f"meeple {number}",
        f"engine: {build}",
        f"python: {platform.python_version()} ({platform.python_implementation()})",
    ]
    if families_too:
        names = ", ".join(
            f"{f.name} ({len(f.games())} game{'s' * (len(f.games()) != 1)})" for f in families()
        )
        lines.append(f"game families: {names}")
    return [*lines, extras_line()]


def extras_line() -> str:
    """Which extras are installed (``meeple[server]``, ...), and which are not."""
    have = [e for e in EXTRAS if installed(e)]
    line = f"extras: {', '.join(have) or 'none'}"
    if len(have) < len(EXTRAS):
        line += f" (not installed: {', '.join(e for e in EXTRAS if e not in have)})"
    return line


def _print_version(value: bool) -> None:
    if value:
        _print_lines(version_lines(families_too=False))
        raise typer.Exit(0)


def _print_lines(lines: list[str]) -> None:
    for line in lines:
        console.print(line, markup=False, highlight=False, soft_wrap=True)


@app.callback()
def _root(
    show_version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Show the version and build."
        ),
    ] = False,
) -> None:
    """meeple: play, simulate and analyse the Monopoly family and Monopolis."""


@app.command()
def version() -> None:
    """The version, which engine build runs (compiled or pure Python), Python, the families."""
    _print_lines(version_lines())


editions_app = typer.Typer(
    help="The games and editions: list them, show one, export one to edit.",
    invoke_without_command=True,
    no_args_is_help=False,
    rich_markup_mode=HELP_MARKUP,
)
app.add_typer(editions_app, name="editions")


@editions_app.callback()
def editions(ctx: typer.Context) -> None:
    """List the games and editions meeple plays (or: show ID, export ID)."""
    if ctx.invoked_subcommand is None:
        list_editions()


@editions_app.command("list")
def list_editions() -> None:
    """List the games and editions meeple plays."""
    table = Table(title="Games")
    table.add_column("id", style="bold")
    table.add_column("family")
    table.add_column("title")
    table.add_column("players", justify="right")
    for gid in game_ids():
        info = game_info(gid)
        table.add_row(gid, info.family, info.title, f"{info.min_players}-{info.max_players}")
    console.print(table)


def _game_of(game_id: str | None, game_file: Path | None) -> tuple[str, dict[str, Any]]:
    """The game (id and options) named by id or described by a file, or an exit with the
    reason; the game's family reads the file (``GameFamily.read_game_file``)."""
    try:
        if game_file is not None:
            found = read_game_file(game_file)
            return found.game, found.options
        assert game_id is not None
        game_info(game_id)
        return game_id, {}
    except MeepleError as exc:
        raise fail(str(exc)) from None


@editions_app.command("show")
def show_edition(
    edition_id: Annotated[str | None, typer.Argument(help="Edition id.")] = None,
    edition_file: Annotated[
        Path | None,
        typer.Option(
            help="Show a game file (a Monopoly edition, Monopolis components) instead of a "
            "built-in game."
        ),
    ] = None,
) -> None:
    """Print a game's printed components and which values are assumed: a Monopoly edition's
    board, deeds, decks and rule options; Monopolis's tiles, cards and player board."""
    if edition_id is None and edition_file is None:
        raise fail("give an edition id or --edition-file")
    game, options = _game_of(edition_id, edition_file)
    fam = family_of(game, options)
    shown = fam.describe(game, options, "" if edition_file is None else str(edition_file))
    if shown is None:
        raise fail(f"{game} ({fam.name}) has no printed description")
    console.print(shown, highlight=False)


@editions_app.command("export")
def export_edition(
    edition_id: Annotated[str, typer.Argument(help="Edition id.")],
) -> None:
    """Write a game's components as an editable TOML file to standard output (a Monopoly
    edition; Monopolis's components file), to correct and play with --edition-file."""
    game, options = _game_of(edition_id, None)
    fam = family_of(game, options)
    text = fam.export(game, options)
    if text is None:
        raise fail(f"{game} ({fam.name}) cannot be exported as a file")
    sys.stdout.write(text)


@editions_app.command("rules")
def edition_rules(
    edition_id: Annotated[str, typer.Argument(help="Game or edition id.")],
) -> None:
    """List the rules a table may set for one game (--rule NAME=VALUE on simulate and play,
    "House rules" in the lobby), with the edition's value of each."""
    game, options = _game_of(edition_id, None)
    known = family_of(game, options).rule_options(game, options)
    if not known:
        console.print(f"{game} has no rule options to set.", markup=False)
        return
    from rich.padding import Padding
    from rich.text import Text

    console.print(
        f"The rules a table may set for a game of {game}, each at the edition's value: set "
        "one with --rule NAME=VALUE.",
        markup=False,
        highlight=False,
    )
    for group in dict.fromkeys(o.group for o in known):
        console.print(f"\n[bold]{escape(group)}[/]", highlight=False)
        for o in (o for o in known if o.group == group):
            value = str(o.default).lower() if o.kind == "bool" else str(o.default)
            takes = o.allowed()
            if o.choice_labels:
                takes = "; ".join(
                    f"{c}: {w}" for c, w in zip(o.choices, o.choice_labels, strict=True)
                )
            console.print(Padding(Text(f"{o.name}={value}  ({takes})"), (0, 0, 0, 2), expand=False))
            console.print(Padding(Text(f"{o.label}: {o.description}"), (0, 0, 0, 4), expand=False))


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


RuleArgs = Annotated[
    list[str] | None,
    typer.Option(
        "--rule",
        metavar="NAME=VALUE",
        help="Set a rule for this game (repeatable): a house rule or a rulebook reading, such "
        "as free_parking_money=true. `meeple editions rules GAME` lists them.",
    ),
]


@app.command()
def simulate(
    game: Annotated[
        str | None, typer.Argument(help="Game or edition id (see `meeple editions`).")
    ] = None,
    players: Annotated[
        int | None, typer.Option(help="Number of seats (default 4, or the position's).")
    ] = None,
    games: Annotated[int, typer.Option(help="Number of games.", min=1)] = 100,
    seed: Annotated[int, seed_option("the whole run")] = 0,
    bots: Annotated[
        str, typer.Option(help="Bot kind per seat, comma-separated (one kind fills every seat).")
    ] = "random",
    workers: Annotated[str, typer.Option(help="Worker processes: N or 'auto'.")] = "1",
    max_turns: Annotated[
        int,
        typer.Option(
            help=(
                "Cap on player-turns per game; capped games rank by net worth. 0: none (a game"
                " between bots may then never end)."
            ),
            min=0,
        ),
    ] = DEFAULT_MAX_TURNS,
    rotate_seats: Annotated[bool, typer.Option(help="Rotate the bots one seat per game.")] = False,
    json_path: Annotated[
        str | None,
        typer.Option("--json", help="Write the JSON summary to PATH, or '-' for stdout."),
    ] = None,
    save_dir: Annotated[
        Path | None, typer.Option(help="Write each game's save file into this folder.")
    ] = None,
    edition_file: Annotated[
        Path | None,
        typer.Option(
            help="Play a game file: a Monopoly edition (TOML or JSON) or Monopolis components "
            "(TOML, from `meeple editions export monopolis`)."
        ),
    ] = None,
    from_file: Annotated[
        Path | None,
        typer.Option(
            "--from",
            help="Play every game from the position in this file (JSON or TOML: `meeple "
            "position`); each game re-draws the dice and the decks' order from its own seed.",
        ),
    ] = None,
    audit: Annotated[
        bool,
        typer.Option(
            help="Check every invariant after every action (slow; a debug switch): a broken "
            "one stops the run, naming the game, the action and what broke."
        ),
    ] = False,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Write one row per game into this folder: games.csv, and games.parquet with "
            "meeple\\[lab] installed."
        ),
    ] = None,
    rule: RuleArgs = None,
    backend: BackendOption = "processes",
    address: AddressOption = None,
) -> None:
    """Play many games with bots and summarise them."""
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
    players = 4 if players is None else players
    if edition_file is not None:
        try:
            found = read_game_file(edition_file)
        except MeepleError as exc:
            raise fail(str(exc)) from None
        if game is not None and game != found.game:
            raise fail(f"{edition_file} holds edition {found.game!r}, not {game!r}")
        low, high = found.min_players, found.max_players
        options.update(found.options)
        game, family = found.game, game_family(found.game, options)
    elif game is None:
        raise fail("give a game id (see `meeple editions`), --edition-file or --from")
    else:
        try:
            info = game_info(game)
        except UnknownGameError as exc:
            raise fail(str(exc)) from None
        family, low, high = game_family(game, options), info.min_players, info.max_players
    if not low <= players <= high:
        raise fail(f"{game} is for {low} to {high} players, not {players}")
    options = game_rules(game, options, rule)
    if rule:
        try:  # the rules together, as the family checks them: refused before any game runs
            new_game(game, players, seed, options)
        except (MeepleError, ValueError) as exc:
            raise fail(str(exc)) from None
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
    try:
        nworkers = resolve_workers(workers)
    except ValueError:
        raise fail(f"--workers must be a number of at least 1 or 'auto', not {workers!r}") from None
    if backend not in ("processes", "ray"):
        raise fail(f"--backend must be 'processes' or 'ray', not {backend!r}")
    if address is not None and backend != "ray":
        raise fail("--address goes with --backend ray")
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
    if backend == "ray":
        from meeple.sim.ray_backend import RayBackendError, run_ray

        try:  # joins (or starts) the cluster now: a bad address fails before any game
            produced = run_ray(cfg, address, 0)
        except RayBackendError as exc:
            raise fail(str(exc)) from None
    else:
        produced = run(cfg, nworkers)
    quiet = json_path == "-"
    # Each game is counted into the summary and written out as it finishes: a run of millions
    # of games holds no list of them (sim/summary.py, sim/records.py).
    tally = Summary(cfg)
    writer = RecordWriter(out, players, parquet) if out is not None else None
    start = time.perf_counter()
    try:
        with stopping():  # SIGTERM and SIGHUP as Ctrl-C (cli/signals.py)
            for rec in _progress(produced, games, f"{game} x{games}", quiet):
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
    if json_path == STDOUT:
        sys.stdout.write(json.dumps(summary, indent=1) + "\n")
        return
    print_summary(summary)  # first: a write that fails below still leaves the figures on screen
    if json_path:
        write_file(json_path, json.dumps(summary, indent=1) + "\n", "--json")


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


@app.command()
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


@app.command()
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


@app.command()
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
    state = _game_at(file)
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


def _game_at(file: Path) -> GameState:
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


@app.command()
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
    state = _game_at(file)
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


def main(argv: list[str] | None = None) -> None:
    """Run the command line on ``argv`` (default: the process's arguments) and exit.

    Typer prints a mistake in the command line itself (an unknown option, ``--games -5``, a
    missing argument) as a five-line box sized to a terminal; here it is one ``error:`` line
    like every other bad input, with where to look, and exit status 2 (README, "The command
    line"). ``--help`` and the commands' own output are unchanged."""
    try:
        code = app(args=argv, standalone_mode=False)
    except click_errors.NoArgsIsHelpError as exc:  # `meeple` or `meeple editions` alone
        print(exc.ctx.get_help() if exc.ctx is not None else exc.format_message())
        code = exc.exit_code
    except click_errors.ClickException as exc:
        ctx = getattr(exc, "ctx", None)
        command = ctx.command_path if ctx is not None else "meeple"
        fail(f"{exc.format_message()} (see `{command} --help`)")
        code = exc.exit_code
    except typer.Abort:  # end of input at a prompt
        code = 130
    if signals.received is not None:  # SIGTERM or SIGHUP inside `stopping`: as a shell says
        name = signal.Signals(signals.received).name
        err.print(f"stopped by {name}: nothing was written", soft_wrap=True, markup=False)
        code = 128 + signals.received
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
