"""The ``meeple`` command line (Typer + Rich): the app, each command from its own module.

Bad input (an unknown game or bot, a bad flag, a malformed file) gets a message saying what is
wrong and exit status 2; nothing is written.
"""

from __future__ import annotations

import signal
import sys

import typer

try:  # typer 0.28 carries its own copy of click; earlier versions use click itself
    from typer._click import exceptions as click_errors
except ImportError:  # pragma: no cover (typer < 0.28)
    from click import exceptions as click_errors  # type: ignore[no-redef]

from meeple.cli import signals
from meeple.cli.admin import admin_app
from meeple.cli.advise import advise
from meeple.cli.analyze import analyze_app
from meeple.cli.editions import editions_app
from meeple.cli.options import HELP_MARKUP, err, fail
from meeple.cli.play import play
from meeple.cli.position import position
from meeple.cli.replay import replay
from meeple.cli.report import report
from meeple.cli.serve import serve
from meeple.cli.simulate import simulate
from meeple.cli.tournament import tournament
from meeple.cli.tune import tune
from meeple.cli.version import VersionOption, version, version_lines

__all__ = ["app", "main", "version_lines"]  # version_lines: as tests/test_install.py imports it

app = typer.Typer(
    help="meeple: play, simulate and analyse the Monopoly family and Monopolis.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=HELP_MARKUP,
)


@app.callback()
def _root(show_version: VersionOption = False) -> None:
    """meeple: play, simulate and analyse the Monopoly family and Monopolis."""


# In the order `meeple --help` has always listed them.
app.add_typer(analyze_app, name="analyze")
app.add_typer(admin_app, name="admin")
app.command()(play)
app.command()(serve)
app.command()(tournament)
app.command()(tune)
app.command()(version)
app.add_typer(editions_app, name="editions")
app.command()(simulate)
app.command()(report)
app.command()(replay)
app.command()(position)
app.command()(advise)


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
