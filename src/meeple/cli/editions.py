"""``meeple editions``: the games and editions meeple plays (list, show, export, rules).

Each game's family says what its components are and how they read as a file
(``GameFamily.describe``, ``export``, ``rule_options``): the command names no family.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from meeple.cli.options import HELP_MARKUP, fail, make_console
from meeple.kernel.errors import MeepleError
from meeple.kernel.family import family_of, game_ids, game_info, read_game_file

console = make_console()

editions_app = typer.Typer(
    help="The games and editions: list them, show one, export one to edit.",
    invoke_without_command=True,
    no_args_is_help=False,
    rich_markup_mode=HELP_MARKUP,
)


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
