"""The docs stay true (issue 40): every ``meeple`` command in a shell block of the README and
docs/*.md is one the command line accepts, every file of this repository they name exists, the
README's command-line tour runs as written, and the example position is the one KERNEL.md shows.

A command is checked by parsing it with the real command line (click's ``make_context``: each
option exists and each value converts, as the user's shell would hand it over) without running
it. The tour is run for real, line by line in a scratch folder, but for the commands that take
minutes or serve forever (:data:`NOT_RUN`, each with the reason).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from meeple.cli.main import app
from meeple.kernel.position import load_position

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PLACEHOLDER = re.compile(r"\b[A-Z][A-Z_]{1,}\b|\.\.\.|\[--")
"""A command written with placeholders (``ID``, ``EDITION``, ``FILE``, ``[--host ...]``): a
form, not a command; its words are checked by the table beside it."""


def shell_commands(doc: Path) -> list[tuple[int, str]]:
    """Each ``meeple`` command line in ``doc``'s ``sh`` blocks: (line number, command), with
    backslash continuations joined and comments and the venv's path dropped."""
    found: list[tuple[int, str]] = []
    inside = False
    pending = ""
    start = 0
    for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("```"):
            inside = line.strip() in ("```sh", "```bash", "```console")
            pending = ""
            continue
        if not inside:
            continue
        text = line.split(" #")[0].rstrip() if not line.lstrip().startswith("#") else ""
        if not pending:
            start = number
        pending += text.rstrip("\\").strip() + " "
        if text.endswith("\\"):
            continue
        command = pending.strip()
        pending = ""
        command = command.removeprefix(".venv/bin/")
        if command.startswith("meeple "):
            found.append((start, command))
    return found


ALL = [(doc, n, c) for doc in DOCS for n, c in shell_commands(doc)]


def test_the_docs_hold_commands_to_check() -> None:
    assert len(ALL) > 50


@pytest.mark.parametrize(
    ("doc", "number", "line"),
    ALL,
    ids=[f"{d.name}:{n}" for d, n, _ in ALL],
)
def test_every_documented_command_is_accepted(doc: Path, number: int, line: str) -> None:
    words = shlex.split(line.split(" | ")[0].split(" > ")[0].split(" &")[0])[1:]
    if PLACEHOLDER.search(" ".join(words)):
        pytest.skip("a form with placeholders")
    command = typer.main.get_command(app)
    ctx = command.make_context("meeple", [], resilient_parsing=True)
    rest = list(words)
    try:
        # Down the command groups (`meeple analyze landing`), then the command's own parse.
        while rest and (sub := getattr(command, "get_command", lambda *_: None)(ctx, rest[0])):
            name, rest = rest[0], rest[1:]
            command = sub
            group = hasattr(sub, "get_command")
            ctx = sub.make_context(name, [] if group else rest, parent=ctx, resilient_parsing=group)
        if hasattr(command, "get_command") and not words[0].startswith("-"):
            assert getattr(command, "invoke_without_command", False), "a group, not a command"
    except typer.Exit:  # --help, --version
        return
    except Exception as exc:  # the parser's own error: the docs name a flag or value it refuses
        pytest.fail(f"{doc.name}:{number}: `{line}`: {exc}")
    for word in words:  # files of this repository the command names exist
        if word.startswith(("examples/", "docs/", "benchmarks/")) and not word.endswith("/"):
            assert (ROOT / word.split("=")[-1]).exists(), f"{doc.name}:{number}: {word}"


def test_the_example_position_is_what_kernel_md_shows_and_loads() -> None:
    example = ROOT / "examples" / "positions" / "boardwalk.toml"
    shown = (ROOT / "docs" / "KERNEL.md").read_text(encoding="utf-8")
    assert "```toml\n" + example.read_text(encoding="utf-8") + "```" in shown
    state = load_position(example)
    assert state.game_id == "classic" and state.current_player() == 1


NOT_RUN = {
    "meeple report": "plays thousands of games per player count and variant (minutes)",
    "meeple serve": "serves until stopped (tests/server runs the server)",
    "meeple tune": "a CMA-ES search of thousands of games (minutes)",
    "meeple tournament classic --bots random,standard,mcts:16": "100 tables with mcts (minutes)",
}


def tour() -> list[str]:
    """The README's command-line tour: the shell block under "## The command line"."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## The command line", 1)[1]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    return [line.split(" #")[0].strip() for line in block.splitlines() if line.strip()]


@pytest.mark.skipif(shutil.which("bash") is None, reason="runs the commands with bash")
def test_the_readme_tour_runs_as_written(tmp_path: Path) -> None:
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    binary = tmp_path / ".venv" / "bin"
    binary.mkdir(parents=True)
    meeple = binary / "meeple"
    meeple.write_text(
        f'#!/bin/sh\nexec {sys.executable} -c "from meeple.cli.main import main; main()" "$@"\n'
    )
    meeple.chmod(0o755)
    lines = tour()
    assert len(lines) > 15
    ran = 0
    for line in lines:
        if any(line.removeprefix(".venv/bin/").startswith(k) for k in NOT_RUN):
            continue
        done = subprocess.run(
            ["bash", "-c", line],
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,  # `meeple play` stops at the end of its input
            capture_output=True,
            text=True,
            timeout=300,
            env={**os.environ, "COLUMNS": "120"},
        )
        assert done.returncode == 0, f"`{line}` exited {done.returncode}: {done.stderr[-500:]}"
        assert "Traceback" not in done.stderr, line
        ran += 1
    assert ran >= 15
