"""Guard against a stale compiled engine (issue 18): after an edit or a ``git pull`` without
recompiling, the ``.so`` files mypyc built would otherwise win over the edited ``.py`` files,
and the old engine would run without a word.

``tools/compile.py`` writes ``compiled.json`` beside this file: each compiled module's source
path and the SHA-256 of its source at build time. On import of :mod:`meeple`, the sources are
hashed again (a few milliseconds); if any differs, a finder placed first on ``sys.meta_path``
loads every compiled module from its ``.py`` file (all of them: compiled and pure modules of
one build do not mix), and a ``RuntimeWarning`` names the changed sources and the command that
rebuilds. ``meeple version`` says which build runs.

``MEEPLE_PURE=1`` in the environment runs the pure modules on purpose, without a warning: the
same source as the compiled build, for debugging it and for the tests that check both builds.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

RECORD = Path(__file__).with_name("compiled.json")
"""Written by the build (``setup.py``: ``pip install``) or ``tools/compile.py``:
``{"modules": {"meeple/kernel/rng.py": sha256, ...}}``, or ``{"modules": {}, "pure": why}`` when
the build fell back to pure Python (no C compiler, ``MEEPLE_PURE=1`` at install)."""

_stale: list[str] = []
_pure_build: list[str] = []
PURE_VARIABLE = "MEEPLE_PURE"
"""Set to ``1`` to run the pure-Python modules even where a compiled build is present."""


def pure_asked() -> bool:
    """Whether the environment asks for the pure-Python engine (``MEEPLE_PURE=1``)."""
    return os.environ.get(PURE_VARIABLE, "") == "1"


def source_hash(path: Path) -> str:
    """The SHA-256 of a source file, as the build records it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def pure_build_reason() -> str | None:
    """Why the installed build is pure Python, as the build recorded it (``None``: not said)."""
    return _pure_build[0] if _pure_build else None


def stale_sources() -> list[str]:
    """The compiled modules whose source changed since the build (empty: none, or no build)."""
    return list(_stale)


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Finds the listed modules' ``.py`` files, ahead of the compiled extensions beside them."""

    def __init__(self, sources: dict[str, Path]) -> None:
        self.sources = sources

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        source = self.sources.get(fullname)
        if source is None:
            return None
        loader = importlib.machinery.SourceFileLoader(fullname, str(source))
        return importlib.util.spec_from_file_location(fullname, source, loader=loader)


def guard_compiled_build() -> None:
    """Load the pure modules instead of a compiled build whose sources changed."""
    if not RECORD.exists():
        return
    root = Path(__file__).resolve().parent.parent
    try:
        record = json.loads(RECORD.read_text(encoding="utf-8"))
        recorded: dict[str, str] = record["modules"]
        pure = record.get("pure")
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        recorded, pure = {}, None
    if isinstance(pure, str) and not recorded:  # a pure build: nothing compiled to guard
        _pure_build.append(pure)
        return
    sources = {}
    for rel, digest in recorded.items():
        path = root / rel
        name = rel[: -len(".py")].replace("/", ".")
        sources[name] = path
        if not path.exists() or source_hash(path) != digest:
            _stale.append(rel)
    if not recorded:
        _stale.append(str(RECORD))
    if pure_asked():
        sys.meta_path.insert(0, _SourceFirst(sources))
        return
    if not _stale:
        return
    sys.meta_path.insert(0, _SourceFirst(sources))
    warnings.warn(
        "meeple: the compiled engine is older than its source ("
        + ", ".join(_stale)
        + " changed): running the pure-Python engine; `make compiled` rebuilds it, "
        "`make pure` removes the build",
        RuntimeWarning,
        stacklevel=2,
    )
