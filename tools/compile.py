"""Compile both families' engines and standard bots with mypyc, in place, or remove the build.

Usage: ``python tools/compile.py [--clean | --if-stale]``

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
import sysconfig
import warnings
from pathlib import Path
from typing import Any

with warnings.catch_warnings():  # importing meeple warns of a stale build: this tool mends it
    warnings.simplefilter("ignore", RuntimeWarning)
    from meeple.buildinfo import RECORD_NAME, accepted_flags, compiled_sources

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"

# The one list of compiled modules, shared with setup.py (pip install): meeple.buildinfo.
MODULES = compiled_sources(SRC)


def compile_in(src: Path) -> None:
    """Run mypyc on the compiled modules under ``src``, leaving the ``.so`` files beside them."""
    modules = compiled_sources(src)
    # A module compiled by an earlier build and no longer on the list (or no longer in the
    # tree) would load its old .so beside the new build's types: start from none.
    clean(src)
    cmd = [sys.executable, "-m", "mypyc", *modules]
    env = {**os.environ, "MYPYC_OPT_LEVEL": "3", "CFLAGS": c_flags()}
    subprocess.run(cmd, cwd=src, check=True, env=env)
    for leftover in ("build", ".mypy_cache"):  # mypyc's work files, not needed to run
        shutil.rmtree(src / leftover, ignore_errors=True)
    # What was compiled, by source hash: meeple.stale falls back to the pure modules if a
    # source changes afterwards (a stale build never runs).
    record = {m: hashlib.sha256((src / m).read_bytes()).hexdigest() for m in modules}
    (src / "meeple" / RECORD_NAME).write_text(
        json.dumps({"modules": record}, indent=1) + "\n", encoding="utf-8"
    )


def c_flags() -> str:
    """``CFLAGS`` for mypyc's build: those it would use anyway (the environment's if set, else
    Python's own: setuptools takes ``CFLAGS`` from the environment instead of Python's, not as
    well, and Python's hold ``-fwrapv`` and ``-DNDEBUG``), then those of ``buildinfo.C_FLAGS``
    the C compiler accepts (as ``setup.py`` adds them to a ``pip install``'s build)."""
    from setuptools._distutils import ccompiler
    from setuptools._distutils import sysconfig as distutils_sysconfig

    compiler: Any = ccompiler.new_compiler()
    distutils_sysconfig.customize_compiler(compiler)
    base = os.environ.get("CFLAGS", sysconfig.get_config_var("CFLAGS") or "")
    return " ".join([base, *accepted_flags(compiler)]).strip()


def clean(src: Path) -> list[Path]:
    """Remove compiled modules (and mypyc's shared runtime module) under ``src``."""
    gone = [p for p in src.rglob("*.so") if p.is_file()]
    record = src / "meeple" / RECORD_NAME
    if record.exists():
        gone.append(record)
    for p in gone:
        p.unlink()
    return gone


def stale(src: Path) -> bool:
    """Whether ``src`` holds a compiled build older than its sources (or than the module list).

    A pure tree (no record, or a pure build's record) is not stale: ``--if-stale`` leaves it
    pure, so a checkout installed without a C compiler never tries to compile.
    """
    record_path = src / "meeple" / RECORD_NAME
    try:
        recorded = json.loads(record_path.read_text(encoding="utf-8"))["modules"]
    except (OSError, ValueError, KeyError, TypeError):
        return False
    if not recorded:
        return False
    if sorted(recorded) != sorted(compiled_sources(src)):
        return True
    return any(
        not (src / m).exists() or hashlib.sha256((src / m).read_bytes()).hexdigest() != digest
        for m, digest in recorded.items()
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    how = ap.add_mutually_exclusive_group()
    how.add_argument("--clean", action="store_true", help="remove the compiled modules")
    how.add_argument(
        "--if-stale",
        action="store_true",
        help="compile again only if a compiled build is there and its sources changed "
        "(nothing with MEEPLE_PURE=1)",
    )
    a = ap.parse_args()
    if a.if_stale and (os.environ.get("MEEPLE_PURE") == "1" or not stale(SRC)):
        return 0
    if a.clean:
        for p in clean(SRC):
            print(f"removed {p.relative_to(ROOT)}")
        return 0
    compile_in(SRC)
    print(f"compiled {len(MODULES)} modules in place; `python tools/compile.py --clean` undoes it")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
