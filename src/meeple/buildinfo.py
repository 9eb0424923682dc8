"""Which build of the engine runs: pure Python, or compiled by mypyc (``tools/compile.py``)."""

from __future__ import annotations

import importlib

# The modules tools/compile.py compiles that matter most; if one is compiled, all are.
_PROBES = ("meeple.games.monopoly.state", "meeple.games.monopoly.bots", "meeple.kernel.rng")


def compiled_modules() -> list[str]:
    """The probe modules imported from a compiled extension rather than a ``.py`` file."""
    out = []
    for name in _PROBES:
        path = getattr(importlib.import_module(name), "__file__", "") or ""
        if not path.endswith(".py"):
            out.append(name)
    return out


def build_name() -> str:
    """``"mypyc"`` when the engine runs compiled, ``"python"`` otherwise."""
    return "mypyc" if compiled_modules() else "python"
