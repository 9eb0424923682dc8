"""Compile both families' engines and standard bots with mypyc, in place, or remove the build.

Usage: ``python tools/compile.py [--clean] [--check]``

mypyc turns the same typed source into C extension modules, which Python imports in preference
to the ``.py`` files beside them (``importlib`` tries extension suffixes first). Nothing is
forked: the ``.py`` files stay the source of truth, and ``--clean`` (or ``make pure``) removes
the ``.so`` files. The build records each source's hash (``meeple/compiled.json``): after an
edit without compiling again, ``import meeple`` warns and runs the pure modules instead of the
stale ones (``meeple.stale``; ``meeple version`` says which build runs).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"

# The hot path of a simulation: the rules kernel, its decision frames and the standard bot, of
# each family. Not compiled: edition and component loading (pydantic models, TOML, once per
# process), the words and renderings, and everything else.
MODULES = [
    "meeple/kernel/protocol.py",  # GameState, so MonopolyState is a native class
    "meeple/kernel/rng.py",
    "meeple/kernel/bot.py",  # Bot, so StandardBot is a native class
    "meeple/games/monopoly/actions.py",
    "meeple/games/monopoly/frames.py",
    "meeple/games/monopoly/kept.py",  # the derived tables the rules keep of the board
    "meeple/games/monopoly/state.py",
    "meeple/games/monopoly/saved.py",  # snapshots: every search and save clones through it
    "meeple/games/monopoly/view.py",  # the views the server sends after every action
    "meeple/games/monopoly/tables.py",
    "meeple/games/monopoly/bots.py",
    *sorted(str(p.relative_to(SRC)) for p in (SRC / "meeple/games/monopoly/rules").glob("*.py")),
    "meeple/games/monopolis/actions.py",
    "meeple/games/monopolis/building.py",
    "meeple/games/monopolis/city.py",
    "meeple/games/monopolis/market.py",
    "meeple/games/monopolis/scoring.py",
    "meeple/games/monopolis/state.py",
    "meeple/games/monopolis/saved.py",
    "meeple/games/monopolis/bots.py",
]


def compile_in(src: Path) -> None:
    """Run mypyc on :data:`MODULES` under ``src``, leaving the ``.so`` files beside them."""
    cmd = [sys.executable, "-m", "mypyc", *MODULES]
    subprocess.run(cmd, cwd=src, check=True, env={**os.environ, "MYPYC_OPT_LEVEL": "3"})
    for leftover in ("build", ".mypy_cache"):  # mypyc's work files, not needed to run
        shutil.rmtree(src / leftover, ignore_errors=True)
    # What was compiled, by source hash: meeple.stale falls back to the pure modules if a
    # source changes afterwards (a stale build never runs).
    record = {m: hashlib.sha256((src / m).read_bytes()).hexdigest() for m in MODULES}
    (src / "meeple" / "compiled.json").write_text(
        json.dumps({"modules": record}, indent=1) + "\n", encoding="utf-8"
    )


def clean(src: Path) -> list[Path]:
    """Remove compiled modules (and mypyc's shared runtime module) under ``src``."""
    gone = [p for p in src.rglob("*.so") if p.is_file()]
    record = src / "meeple" / "compiled.json"
    if record.exists():
        gone.append(record)
    for p in gone:
        p.unlink()
    return gone


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--clean", action="store_true", help="remove the compiled modules")
    a = ap.parse_args()
    if a.clean:
        for p in clean(SRC):
            print(f"removed {p.relative_to(ROOT)}")
        return 0
    compile_in(SRC)
    print(f"compiled {len(MODULES)} modules in place; `python tools/compile.py --clean` undoes it")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
