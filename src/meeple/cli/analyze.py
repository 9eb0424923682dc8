"""``meeple analyze``: exact analyses of an edition (``landing``: where dice rolls end).

Bad input (an unknown edition, a jail setting other than short or long) gets a message and
exit status 2, like the rest of the command line; nothing is written.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from meeple.cli.options import HELP_MARKUP, make_console
from meeple.cli.paths import STDOUT, output_file, write_file

if TYPE_CHECKING:  # (imported where used: `meeple --help` loads no engine)
    from meeple.analysis.landing import LandingResult
    from meeple.analysis.rent import RentRow

analyze_app = typer.Typer(
    help="Exact analyses of a Monopoly edition (Markov chains, no sampling).",
    no_args_is_help=True,
    rich_markup_mode=HELP_MARKUP,
)
console = make_console()
err = make_console(stderr=True)


def _fail(message: str) -> typer.Exit:
    # Escaped: the words quote the user's input, and "[x]" in it is not rich markup.
    err.print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)  # a path stays whole
    return typer.Exit(2)


def _edition(edition_id: str) -> Any:
    """The edition ``edition_id`` as tables, from the game family that has editions to study
    (its ``edition`` method: Monopoly's), found through the family plugin
    (:mod:`meeple.kernel.family`) so that this command names no family."""
    from meeple.kernel.family import families

    found: dict[str, Callable[[str], Any]] = {}  # game id -> its family's ``edition``
    for fam in families():
        edition = getattr(fam, "edition", None)
        if edition is not None:
            found.update(dict.fromkeys((g.game_id for g in fam.games()), edition))
    if edition_id not in found:
        raise _fail(f"{edition_id!r} is not a Monopoly edition; editions: {', '.join(found)}")
    return found[edition_id](edition_id)


@analyze_app.command("landing")
def landing(
    edition: Annotated[str, typer.Argument(help="Monopoly edition id (see `meeple editions`).")],
    jail: Annotated[
        str,
        typer.Option(
            help="short: pay to leave jail at once; long: stay until doubles or the last miss."
        ),
    ],
    json_path: Annotated[
        str | None,
        typer.Option("--json", help="Write the results as JSON to PATH, or '-' for stdout."),
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option(help="Draw the board coloured by landing share (PNG; needs meeple\\[lab])."),
    ] = None,
    kept_jail_cards: Annotated[
        bool,
        typer.Option(help="Leave Get Out of Jail Free cards out of their decks (kept for ever)."),
    ] = False,
) -> None:
    """The exact long-run share of dice rolls ending on each square, and rent per roll."""
    from meeple.analysis.landing import JAIL_POLICIES, landing_analysis
    from meeple.analysis.rent import rent_per_roll
    from meeple.analysis.report import landing_report

    ed = _edition(edition)
    if jail not in JAIL_POLICIES:
        raise _fail(f"--jail must be short or long, not {jail!r}")
    if plot is not None and plot.suffix.lower() != ".png":
        raise _fail(f"--plot writes a PNG: give a file ending in .png, not {str(plot)!r}")
    if plot is not None:
        from meeple.cli.extras import require

        require("lab", "--plot", ("matplotlib",))
        output_file(plot, "--plot")
    if json_path is not None and json_path != STDOUT:
        output_file(json_path, "--json")
    start = time.perf_counter()
    res = landing_analysis(ed, "short" if jail == "short" else "long", kept_jail_cards)
    rents = rent_per_roll(res)
    seconds = time.perf_counter() - start
    report = landing_report(res, rents)
    if plot is not None:
        from meeple.analysis.plot import save_board_png  # matplotlib loads only when asked

        try:
            save_board_png(res, plot)
        except OSError as exc:
            raise _fail(f"--plot {plot}: cannot be written: {exc.strerror or exc}") from None
    if json_path == STDOUT:
        sys.stdout.write(json.dumps(report, indent=1) + "\n")
        return
    if json_path:
        write_file(json_path, json.dumps(report, indent=1) + "\n", "--json")
    _print_landing(res, rents)
    console.print(f"{res.states} states solved exactly in {seconds:.2f} s")
    if plot is not None:
        console.print(f"board picture: {plot}")


def _print_landing(res: LandingResult, rents: list[RentRow]) -> None:
    ed = res.edition
    console.print(f"[bold]{ed.name}[/]: jail {res.jail_rule}")
    rank = {s: i + 1 for i, s in enumerate(res.ranked())}
    t = Table(title="Share of dice rolls ending on each square")
    t.add_column("#", justify="right")
    t.add_column("square")
    t.add_column("share", justify="right")
    t.add_column("rank", justify="right")
    for sq, p in enumerate(res.squares):
        t.add_row(str(sq), ed.square_names[sq], f"{float(p):.4%}", str(rank[sq]))
    t.add_row("", "in jail (apart from Just Visiting)", f"{float(res.in_jail):.4%}", "")
    console.print(t)
    streets = [r for r in rents if r.kind == "street"]
    if streets:
        s = Table(title="Expected rent per opponent roll, street sets")
        s.add_column("colour group")
        labels = [lv.label for lv in max((r.levels for r in streets), key=len)]
        for label in labels:
            s.add_column(label, justify="right")
        for r in streets:
            cells = [f"{float(lv.per_roll):.2f}" for lv in r.levels]
            s.add_row(r.name, *cells, *[""] * (len(labels) - len(cells)))
        console.print(s)
    for r in rents:
        if r.kind != "street":
            o = Table(title=f"Expected rent per opponent roll, {r.name} by number owned")
            for lv in r.levels:
                o.add_column(lv.label, justify="right")
            o.add_row(*[f"{float(lv.per_roll):.2f}" for lv in r.levels])
            console.print(o)
