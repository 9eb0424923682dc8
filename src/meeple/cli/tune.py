"""``meeple tune``: search the standard bot's thresholds with CMA-ES on the arena's tables
(meeple.lab.tune; docs/BOTS.md, "Tuning").

Bad input gets a message and exit status 2; a missing ``meeple[lab]`` (openskill, cmaes) the
extra's message and status 1.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from meeple.cli.extras import require
from meeple.cli.options import WorkersOption, fail, make_console, seed_option
from meeple.cli.paths import STDOUT, output_file, write_file
from meeple.cli.signals import stopping

if TYPE_CHECKING:
    from meeple.lab.tune import Trial, TuneConfig, TuneResult

console = make_console()

TUNE_MODULES = ("openskill", "cmaes")


EditionId = Annotated[str, typer.Argument(help="A Monopoly edition id (see `meeple editions`).")]
OutOption = Annotated[
    Path, typer.Option(help="Write the best thresholds here: a file for param:FILE.")
]
TrialsOption = Annotated[int, typer.Option(help="Candidates to try, the standard one first.")]
TablesOption = Annotated[int, typer.Option(help="Tables each candidate plays.")]
AgainstOption = Annotated[
    str, typer.Option(help="The field each candidate plays, comma-separated bot kinds.")
]
CheckTablesOption = Annotated[
    int, typer.Option(help="Tables of the final check against standard, on fresh seeds.")
]
JsonOption = Annotated[
    str | None,
    typer.Option("--json", help="Write the trials and the check as JSON to PATH, or '-'."),
]


def tune(
    game: EditionId,
    out: OutOption = Path("tuned.json"),
    trials: TrialsOption = 40,
    tables: TablesOption = 100,
    against: AgainstOption = "standard",
    check_tables: CheckTablesOption = 500,
    seed: Annotated[int, seed_option("the search and the check")] = 0,
    workers: WorkersOption = "1",
    json_path: JsonOption = None,
) -> None:
    """Search the standard bot's thresholds (CMA-ES), each candidate on the same tables as
    the others (common random numbers), and check the best against the default on fresh
    tables: the interval says whether it is really better."""
    from meeple.sim.runner import resolve_workers

    field = _field(game, against)
    players = 1 + len(field)
    for name, value in (
        ("--trials", trials),
        ("--tables", tables),
        ("--check-tables", check_tables),
    ):
        if value < 1:
            raise fail(f"{name} must be at least 1, not {value}")
    try:
        nworkers = resolve_workers(workers)
    except ValueError:
        raise fail(f"--workers must be a number of at least 1 or 'auto', not {workers!r}") from (
            None
        )
    output_file(out, "--out")
    if json_path is not None and json_path != STDOUT:
        output_file(json_path, "--json")
    require("lab", "meeple tune", TUNE_MODULES)

    from dataclasses import asdict

    from meeple.lab.tune import TuneConfig

    cfg = TuneConfig(game, players, trials, tables, seed, field, check_tables, 0, nworkers)
    result = _search(cfg, out, json_path == "-")
    summary = {
        "edition": game,
        "players": players,
        "against": list(field),
        "trials": trials,
        "tables": tables,
        "seed": seed,
        "best": result.best,
        "check": result.check,
        "history": [asdict(t) for t in result.trials],
    }
    if json_path == STDOUT:
        sys.stdout.write(json.dumps(summary, indent=1) + "\n")
        return
    if json_path:
        write_file(json_path, json.dumps(summary, indent=1) + "\n", "--json")
    _say_check(result.check, out)


def _field(game: str, against: str) -> tuple[str, ...]:
    """The bot kinds each candidate plays (``--against``), each made once to check it, in a
    game with a param bot to tune and room for the candidate and them."""
    from meeple.bots.base import bot_kinds, make_bot
    from meeple.kernel.errors import MeepleError
    from meeple.kernel.family import game_family, game_info

    try:
        info = game_info(game)
    except MeepleError as exc:
        raise fail(str(exc)) from None
    family = game_family(game)
    if "param" not in bot_kinds(family):
        raise fail(f"{game} has no param bot to tune (the Monopoly editions have)")
    field = tuple(k.strip() for k in against.split(",") if k.strip())
    if not field:
        raise fail("--against needs at least one bot kind")
    for kind in field:
        try:
            make_bot(kind, family, 0)
        except ValueError as exc:
            raise fail(str(exc)) from None
    players = 1 + len(field)
    if not info.min_players <= players <= info.max_players:
        raise fail(f"{game} is for {info.min_players} to {info.max_players} players, not {players}")
    return field


def _search(cfg: TuneConfig, out: Path, quiet: bool) -> TuneResult:
    """Run the search (each trial said as it ends, unless ``quiet``) and write the best
    thresholds to ``out``."""
    from meeple.lab.tune import tune as run_tune
    from meeple.lab.tune import write_params

    def show(trial: Trial) -> None:
        if not quiet:
            what = "standard settings" if trial.number == 0 else f"candidate {trial.number}"
            console.print(f"{what}: win rate {trial.win_rate:.1%}", markup=False)

    with stopping():  # SIGTERM and SIGHUP as Ctrl-C: the workers stop (cli/signals.py)
        result = run_tune(cfg, show)
    try:
        write_params(out, result.best)
    except OSError as exc:
        raise fail(f"--out {out}: cannot be written: {exc.strerror or exc}") from None
    return result


def _say_check(c: dict[str, Any], out: Path) -> None:
    """Where the best settings went, and how they did against the default on fresh games."""
    interval = (
        f"{100 * c['low']:+.1f} to {100 * c['high']:+.1f}"
        if c["low"] is not None
        else "no interval"
    )
    console.print(
        f"Best settings written to {out}. On {c['games']} fresh games against standard: "
        f"{c['tuned_win_rate']:.1%} against {c['standard_win_rate']:.1%}, a difference of "
        f"{100 * c['difference']:+.1f} points (95% {interval}): "
        + ("better than the default." if c["supported"] else "not shown to beat the default."),
        markup=False,
        highlight=False,
    )
