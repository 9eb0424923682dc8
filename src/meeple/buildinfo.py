"""Which build of the engine runs: pure Python, or compiled by mypyc; and what the build compiles.

:data:`COMPILED` is the one list of compiled modules: ``setup.py`` (``pip install``, wheels,
editable installs) and ``tools/compile.py`` (``make compiled``) both read it. ``setup.py`` loads
this file by its path, before meeple's dependencies are installed: it imports nothing outside the
standard library.
"""

from __future__ import annotations

import importlib.machinery
import sys
import tempfile
from pathlib import Path
from typing import Any

# The hot path of a simulation: the rules kernel, its decision frames and the standard bot, of
# each family. Not compiled: edition and component loading (pydantic models, TOML, once per
# process), the words and renderings, and everything else. Paths under ``src``; a ``*`` is a
# glob (every module of that folder).
COMPILED = (
    "meeple/kernel/protocol.py",  # GameState, so MonopolyState is a native class
    "meeple/kernel/rng.py",
    "meeple/kernel/arrays.py",  # the native arrays of the state's hottest tables
    "meeple/kernel/bot.py",  # Bot, so StandardBot is a native class
    "meeple/games/monopoly/actions.py",
    "meeple/games/monopoly/frames.py",
    "meeple/games/monopoly/kept.py",  # the derived tables the rules keep of the board
    "meeple/games/monopoly/state.py",
    "meeple/games/monopoly/saved.py",  # snapshots: every search and save clones through it
    "meeple/games/monopoly/view.py",  # the views the server sends after every action
    "meeple/games/monopoly/tables.py",
    "meeple/games/monopoly/bot_params.py",  # the standard bot's layers (bots.py says why)
    "meeple/games/monopoly/bot_reading.py",
    "meeple/games/monopoly/bot_trades.py",
    "meeple/games/monopoly/bot_stalls.py",
    "meeple/games/monopoly/bots.py",
    "meeple/games/monopoly/rules/*.py",
    "meeple/games/monopolis/actions.py",
    "meeple/games/monopolis/building.py",
    "meeple/games/monopolis/city.py",
    "meeple/games/monopolis/market.py",
    "meeple/games/monopolis/scoring.py",
    "meeple/games/monopolis/state.py",
    "meeple/games/monopolis/tables.py",  # the components as the play loop reads them
    "meeple/games/monopolis/turns.py",
    "meeple/games/monopolis/saved.py",
    "meeple/games/monopolis/terms.py",  # the game's fixed terms, below the state
    "meeple/games/monopolis/valuation.py",  # the standard bot's valuations
    "meeple/games/monopolis/bots.py",
)

C_FLAGS = ("-fno-semantic-interposition", "-fno-plt")
"""Flags for the C compiler of the compiled build, each passed when the compiler accepts it
(:func:`accepted_flags`; this project's GCC 12 takes both). mypyc writes every compiled module
into one C file, whose functions call each other on every action, but a shared library's
exported function may be replaced at load time, so without the first flag the compiler calls
each through the procedure linkage table and inlines none into another; the second makes calls
into libpython go straight through the global offset table. Together: about 8% more games a
CPU-second and 3.7% fewer instructions (benchmarks/README.md, "Fifth round")."""

RECORD_NAME = "compiled.json"
"""The build's record, beside ``meeple/__init__.py``: ``{"modules": {path: sha256}}`` for a
compiled build (:mod:`meeple.stale` checks it on import), ``{"modules": {}, "pure": why}`` when
the build fell back to pure Python."""


def compiled_sources(src: Path) -> list[str]:
    """:data:`COMPILED` with its globs expanded: paths relative to ``src``, ``/``-separated."""
    out: list[str] = []
    for entry in COMPILED:
        if "*" in entry:
            out += sorted(p.relative_to(src).as_posix() for p in src.glob(entry))
        else:
            out.append(entry)
    return out


# One module of each part of the compiled build (tools/compile.py compiles them all, or none):
# the kernel, and each family's rules engine with its standard bot.
_PROBES = {
    "kernel": ("meeple.kernel.rng",),
    "monopoly": ("meeple.games.monopoly.state", "meeple.games.monopoly.bots"),
    "monopolis": ("meeple.games.monopolis.state", "meeple.games.monopolis.bots"),
}


def compiled_modules() -> list[str]:
    """The probe modules that run compiled (imported, or to be imported, from a compiled
    extension rather than a ``.py`` file)."""
    return [name for names in _PROBES.values() for name in names if _runs_compiled(name)]


def compiled_parts() -> list[str]:
    """The parts of the engine that run compiled: ``kernel`` and each family's name (its
    rules and its standard bot), as ``meeple version`` lists them."""
    return [part for part, names in _PROBES.items() if all(_runs_compiled(n) for n in names)]


def _runs_compiled(name: str) -> bool:
    module = sys.modules.get(name)
    if module is not None:
        return not (getattr(module, "__file__", "") or "").endswith(".py")
    # Not imported yet: what importing it would load, found without importing the engine
    # (``meeple --version`` stays quick). meeple.stale made that choice on ``import meeple``:
    # the pure modules when asked or when the build is stale, else an extension if built.
    import meeple
    from meeple import stale

    if stale.pure_asked() or stale.stale_sources():
        return False
    base = Path(meeple.__file__).parent.joinpath(*name.split(".")[1:])
    return any(
        base.with_name(base.name + s).exists() for s in importlib.machinery.EXTENSION_SUFFIXES
    )


def build_name() -> str:
    """``"mypyc"`` when the engine runs compiled, ``"python"`` otherwise."""
    return "mypyc" if compiled_modules() else "python"


def accepted_flags(compiler: Any) -> list[str]:
    """Those of :data:`C_FLAGS` that ``compiler`` (a configured ``distutils`` C compiler)
    accepts: each is tried on a one-line file, since an older or another compiler may refuse
    one, and a refused flag would fail the build (which then falls back to pure Python).
    MSVC takes none of them (it warns about unknown options rather than refusing them)."""
    if getattr(compiler, "compiler_type", "") == "msvc":
        return []
    out: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "flag.c"
        source.write_text("int meeple_flag_probe(void) { return 0; }\n", encoding="utf-8")
        for flag in C_FLAGS:
            try:
                compiler.compile([str(source)], output_dir=tmp, extra_postargs=[flag])
            except Exception:  # CompileError, a missing executable: leave the flag out
                continue
            out.append(flag)
    return out
