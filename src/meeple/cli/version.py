"""``meeple version`` and ``meeple --version``: the version, the engine's build, Python, the
families and the extras installed."""

from __future__ import annotations

from typing import Annotated

import typer

from meeple.cli.options import make_console
from meeple.extras import EXTRAS, installed

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


def print_lines(lines: list[str]) -> None:
    """``lines`` as they are: no markup, no highlighting, each line whole."""
    for line in lines:
        console.print(line, markup=False, highlight=False, soft_wrap=True)


def _print_version(value: bool) -> None:
    if value:
        print_lines(version_lines(families_too=False))
        raise typer.Exit(0)


VersionOption = Annotated[
    bool,
    typer.Option(
        "--version", callback=_print_version, is_eager=True, help="Show the version and build."
    ),
]
"""``meeple --version``: printed before any command runs (eager), then the exit."""


def version() -> None:
    """The version, which engine build runs (compiled or pure Python), Python, the families."""
    print_lines(version_lines())
