"""The files and folders a command will write, checked before it does any work.

A simulation of millions of games that fails at the end because ``--json`` names a folder, or
a folder that does not exist, loses all of it; ``meeple play --save`` that fails after the
first move loses the game. So every command checks each path it will write as soon as it has
read its options (:func:`output_file`, :func:`output_folder`): a one-line ``error:`` and exit
status 2, before any game runs and before anything is created. A write that still fails at
the end (the disk filled up, the folder was removed meanwhile) goes through :func:`write_file`:
the same one line, never a traceback.
"""

from __future__ import annotations

import os
from pathlib import Path

from meeple.cli.options import fail

STDOUT = "-"
"""``--json -``: the standard output, which needs no check."""


def _existing_parent(path: Path) -> Path:
    """The nearest folder above ``path`` that exists (``path``'s own parent if it does)."""
    parent = path.absolute().parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    return parent


def output_file(path: str | Path, flag: str) -> Path:
    """``path`` as a file ``flag`` may write (replacing it if it exists), or the error exit:
    a folder, a folder that does not exist, or one this user may not write to."""
    p = Path(path)
    if p.is_dir():
        raise fail(f"{flag} {p}: is a folder; give a file name (such as {p / 'out.json'})")
    parent = p.absolute().parent
    if not parent.is_dir():
        what = "is not a folder" if parent.exists() else "does not exist"
        raise fail(f"{flag} {p}: the folder {parent} {what}")
    if p.exists() and not os.access(p, os.W_OK):
        raise fail(f"{flag} {p}: the file cannot be written (permission denied)")
    if not p.exists() and not os.access(parent, os.W_OK | os.X_OK):
        raise fail(f"{flag} {p}: the folder {parent} cannot be written (permission denied)")
    return p


def output_folder(path: str | Path, flag: str) -> Path:
    """``path`` as a folder ``flag`` may write into, made later if it does not exist (with any
    folders above it), or the error exit: a file, or a place this user may not write to."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise fail(f"{flag} {p}: is a file, not a folder")
    where = p if p.exists() else _existing_parent(p)
    if not where.is_dir():
        raise fail(f"{flag} {p}: {where} is a file, not a folder")
    if not os.access(where, os.W_OK | os.X_OK):
        raise fail(f"{flag} {p}: {where} cannot be written (permission denied)")
    return p


def write_file(path: str | Path, data: str | bytes, flag: str) -> None:
    """Write ``data`` to ``path`` (checked by :func:`output_file` earlier; text as UTF-8), or
    the error exit naming the flag, the path and the system's reason."""
    try:
        Path(path).write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    except OSError as exc:
        raise fail(f"{flag} {path}: cannot be written: {exc.strerror or exc}") from None


def make_folder(path: Path, flag: str) -> None:
    """Make ``path`` (checked by :func:`output_folder`) and the folders above it."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise fail(f"{flag} {path}: cannot be made: {exc.strerror or exc}") from None
