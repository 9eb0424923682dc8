"""The optional parts of meeple and the packages each needs (issue 18: a lean core with extras).

``pip install meeple`` installs the core: the engines, the bots, the command line, simulation
to JSON and CSV, the exact analyses and save files. The rest comes with an extra, as
pyproject.toml's ``[project.optional-dependencies]`` lists them (``meeple[all]``: every one):

- ``server``: the web app and its database drivers (``meeple serve``);
- ``lab``: Parquet output (``meeple simulate --out``), board pictures (``analyze --plot``) and
  the arena's ratings (``meeple tournament``) and its tuning (``meeple tune``);
- ``rl``: the Gymnasium and PettingZoo environments (:mod:`meeple.rl`);
- ``ray``: the Ray cluster backend (``meeple simulate --backend ray``).

A feature calls :func:`need` before it imports its packages: a missing one raises
:class:`MissingExtra`, whose message names the extra to install. This module imports none of
them (``importlib.util.find_spec`` looks for a package without loading it).
"""

from __future__ import annotations

import importlib.util

EXTRAS: dict[str, tuple[str, ...]] = {
    "server": (
        "fastapi",
        "fastapi_offline",
        "uvicorn",
        "websockets",
        "sqlalchemy",
        "psycopg",
        "redis",
        "prometheus_client",
    ),
    "lab": ("pyarrow", "matplotlib", "openskill", "cmaes"),
    "rl": ("gymnasium", "pettingzoo", "numpy"),
    "ray": ("ray",),
}
"""The top-level modules each extra brings (import names, not distribution names)."""


class MissingExtra(ImportError):
    """A feature of an extra that is not installed; the message says what to install."""

    def __init__(self, extra: str, feature: str, missing: list[str]) -> None:
        self.extra = extra
        self.feature = feature
        self.missing = missing
        super().__init__(
            f"{feature} needs meeple[{extra}] ({', '.join(missing)} not installed): "
            f"pip install 'meeple[{extra}]'",
            name=missing[0],
        )


def missing_modules(extra: str, modules: tuple[str, ...] | None = None) -> list[str]:
    """Which of ``extra``'s modules (or of ``modules``, a part of them) cannot be imported."""
    wanted = EXTRAS[extra] if modules is None else modules
    out = []
    for name in wanted:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # blocked, or a broken entry in sys.modules
            found = False
        if not found:
            out.append(name)
    return out


def need(extra: str, feature: str, modules: tuple[str, ...] | None = None) -> None:
    """Raise :class:`MissingExtra` unless ``extra``'s packages (or ``modules`` of them) are
    installed. ``feature`` names what needs them, as the user asked for it
    (``"meeple serve"``, ``"--backend ray"``)."""
    missing = missing_modules(extra, modules)
    if missing:
        raise MissingExtra(extra, feature, missing)


def installed(extra: str, modules: tuple[str, ...] | None = None) -> bool:
    """Whether ``extra``'s packages (or ``modules`` of them) are installed."""
    return not missing_modules(extra, modules)
